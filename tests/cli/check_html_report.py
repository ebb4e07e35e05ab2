#!/usr/bin/python3
"""`dmltool report --html` opened in headless Chromium (Debian's chromium, scripts/install_deps.sh).

Two bench runs of the smoke cases append to an SQLite history; the page of both reports with that history must:
  - be self-contained: no URL, no script, no external resource in the file, and a Content-Security-Policy of
    default-src 'none' (a request would be refused and logged on the console, which is checked next);
  - open with no console message at all (errors and CSP refusals are console messages; --enable-logging prints them);
  - draw its charts: the screenshot is not blank (many colors), and the backends' bar colors cover a real area.

    check_html_report.py DMLTOOL CASES_JSON OUT_DIR BACKEND
Set DMLTOOL_HTML_PLANT=network to add an external image to the page before opening it (the check must then fail).
"""
import json
import os
import re
import shutil
import subprocess
import sys

from PIL import Image

BAR_COLORS = {"cpu": (0x4E, 0x79, 0xA7), "gpu": (0xF2, 0x8E, 0x2B), "directml": (0x59, 0xA1, 0x4F)}


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def run(command, expect=0, timeout=300):
    r = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if r.returncode != expect:
        fail(f"{' '.join(command)}: exit {r.returncode}, expected {expect}", r.stdout + r.stderr)
    return r


def main(dmltool, cases, out_dir, backend):
    os.makedirs(out_dir, exist_ok=True)
    chromium = shutil.which("chromium")
    if not chromium:
        fail("chromium is not installed (scripts/install_deps.sh installs it)")
    db = os.path.join(out_dir, "html_history.sqlite")
    if os.path.exists(db):
        os.remove(db)
    reports = [os.path.join(out_dir, f"html_{n}.json") for n in ("a", "b")]
    for report in reports:
        run([dmltool, "bench", "--backend", backend, cases, "--roofline-mib", "1", "--report-json", report,
             "--min-samples", "5", "--max-time", "0.2", "--benchmark_min_time=0.001", "--results-db", db])
    page = os.path.join(out_dir, "report.html")
    # Bad input: one line naming the file and field, exit 2, no page.
    not_report = os.path.join(out_dir, "not_a_report.json")
    open(not_report, "w").write('{"sample_format": "dmltool-samples-1", "adapter": 5}')
    r = run([dmltool, "report", "--html", page + ".bad", not_report], expect=2)
    if r.stderr.count("\n") != 1 or "not_a_report.json: /adapter: expected a string, found 5" not in r.stderr \
            or os.path.exists(page + ".bad"):
        fail("report --html of a file that is not a bench report: one line naming it, and no page", r.stderr)
    run([dmltool, "report", "--html", page, *reports, "--results-db", db])
    html = open(page, encoding="utf-8").read()
    if "default-src 'none'" not in html:
        fail("the page must carry a Content-Security-Policy of default-src 'none'")
    for needle in ("Throughput per feature level", "% of roofline", "Median time per case", "Compare verdicts",
                   "History trends"):
        if needle not in html:
            fail(f"section '{needle}' missing from the page")
    if html.count("<svg") < 5 or html.count("<polyline") < 1:
        fail(f"expected charts: {html.count('<svg')} svg, {html.count('<polyline')} trend lines")
    if not re.search(r'<tr class="(SAME|NOISY|FASTER|SLOWER)"><td>', html):
        fail("expected compare verdict rows")
    # DirectML beside dmltool's kernels: Linux has no DirectML, so a copy of the report gets a directml twin of
    # each gpu case, twice as slow; its page must say so (the Windows bench writes the same fields).
    if backend == "both":
        report = json.load(open(reports[0]))
        twins = [dict(c, backend="directml", seconds=2 * c["seconds"], samples=[2 * x for x in c["samples"]])
                 for c in report["cases"] if c["backend"] == "gpu"]
        report["cases"] += twins
        report["feature_level_table"] += [dict(row, backend="directml") for row in report["feature_level_table"]
                                          if row["backend"] == "gpu"]
        with_dml = os.path.join(out_dir, "html_directml.json")
        json.dump(report, open(with_dml, "w"))
        dml_page = os.path.join(out_dir, "report_directml.html")
        run([dmltool, "report", "--html", dml_page, with_dml])
        dml_html = open(dml_page, encoding="utf-8").read()
        if "DirectML beside dmltool" not in dml_html or \
                dml_html.count("(dmltool&#39;s kernels 2.00x DirectML&#39;s speed)") != len(twins) or \
                dml_html.count('fill="#59a14f"') < 2 * len(twins):
            fail("a report with DirectML and gpu cases: expected DirectML beside dmltool's kernels with the ratio")
        blocks_to_draw = dml_html
    else:
        blocks_to_draw = html
    external = re.search(r"https?:|src=|href=|<script|url\(|@import", html)
    if external:
        fail(f"the page refers to something outside it: '{external.group(0)}' at offset {external.start()}")
    # After the static check, so that the planted request is Chromium's to catch.
    if os.environ.get("DMLTOOL_HTML_PLANT") == "network":
        open(page, "w", encoding="utf-8").write(html.replace("</body>", "<img src=\"http://192.0.2.1/x.png\" alt=\"\"></body>"))
    shot = os.path.join(out_dir, "report.png")
    if os.path.exists(shot):
        os.remove(shot)
    # --enable-logging=stderr --v=0 prints every console message (errors, CSP refusals) as a CONSOLE line.
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                        "--enable-logging=stderr", "--v=0", "--window-size=1400,2200", f"--screenshot={shot}",
                        "file://" + os.path.abspath(page)], capture_output=True, text=True, timeout=120,
                       env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})  # the sanitized suite's
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line or "Refused to" in line]
    if console:
        fail("the page logged console messages (an error or a refused request)", "\n".join(console))
    if r.returncode != 0 or not os.path.exists(shot):
        fail(f"chromium --screenshot: exit {r.returncode}, no screenshot", r.stderr[-3000:])
    image = Image.open(shot).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 20) or []
    if len(colors) < 20:
        fail(f"the screenshot is (nearly) blank: {len(colors)} colors")
    counts = {rgb: n for n, rgb in colors}
    backends = ["cpu"] + (["gpu"] if backend == "both" else [])
    for b in backends:
        area = counts.get(BAR_COLORS[b], 0)
        if area < 500:
            fail(f"the {b} bars did not draw: {area} pixels of their color in the screenshot")
    # Each chart on its own: the page-wide check above passes as long as one chart draws. The charts are cut out
    # of the page into cells of a known height, shot once, and each cell must show its bars' (or line's) colors.
    charts = re.findall(r'<svg class="(chart|spark)".*?</svg>', html + blocks_to_draw, re.S)
    blocks = re.findall(r'<svg class="(?:chart|spark)".*?</svg>', html + blocks_to_draw, re.S)
    heights = [330 if kind == "chart" else 50 for kind in charts]
    style = re.search(r"<style>.*?</style>", html, re.S).group(0)
    grid = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
            "content=\"default-src 'none'; style-src 'unsafe-inline'\">" + style +
            "</head><body style=\"margin:0\">" +
            "".join(f'<div style="height:{h}px;overflow:hidden">{b}</div>' for h, b in zip(heights, blocks)) +
            "</body></html>")
    grid_page = os.path.join(out_dir, "charts.html")
    grid_shot = os.path.join(out_dir, "charts.png")
    open(grid_page, "w", encoding="utf-8").write(grid)
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                        f"--window-size=1400,{sum(heights)}", f"--screenshot={grid_shot}",
                        "file://" + os.path.abspath(grid_page)], capture_output=True, text=True, timeout=120,
                       env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
    if r.returncode != 0 or not os.path.exists(grid_shot):
        fail(f"chromium --screenshot of the charts: exit {r.returncode}", r.stderr[-3000:])
    cells = Image.open(grid_shot).convert("RGB")
    top = 0
    for i, (kind, h) in enumerate(zip(charts, heights)):
        cell = cells.crop((0, top, cells.size[0], top + h)).getcolors(maxcolors=1 << 20) or []
        drawn = sum(n for n, rgb in cell if rgb in BAR_COLORS.values())
        if os.environ.get("DMLTOOL_HTML_VERBOSE"):
            print(f"chart {i} {kind}: {drawn}")
        # A trend line of 220 px (two pixels wide) shows some 300 pixels of its color, its end point some 30.
        if drawn < (50 if kind == "chart" else 100):
            fail(f"chart {i} ({kind}) did not draw: {drawn} pixels of the backends' colors", blocks[i][:300])
        top += h
    print(f"check_html_report: {len(charts)} charts each drew; {len(html)} bytes, {html.count('<svg')} svg; screenshot {image.size}, {len(colors)} "
          "colors, bar pixels " + ", ".join(f"{b} {counts.get(BAR_COLORS[b], 0)}" for b in backends) +
          "; no console message")


if __name__ == "__main__":
    main(*sys.argv[1:5])
