#!/usr/bin/python3
"""`dmltool report --html` opened in headless Chromium (Debian's chromium, scripts/install_deps.sh).

Two bench runs of the smoke cases, the per-model cases (tests/cli/cases/model_view.json) and two cases of the
test's own (one FAILED against a wrong `expected`, one timed under a 200-character name) append to an SQLite
history; the page of both reports with that history must:
  - be self-contained: no URL, no script, no external resource in the file, and a Content-Security-Policy of
    default-src 'none' (a request would be refused and logged on the console, which is checked next);
  - open with no console message at all (errors and CSP refusals are console messages; --enable-logging prints them);
  - draw its charts: the screenshot is not blank (many colors), and the backends' bar colors cover a real area;
  - show the case x run matrix (every case x backend a row, a cell per run with its error bar, the ratio and
    verdict in the second column), drawn: the matrix cut out and shot shows its bars and verdict colors;
  - list the FAILED case with bench's reason, and a DEVIATES case (planted into a copy: Linux has no DirectML)
    with its reason; their rows' colors cover an area of the screenshot;
  - show the 200-character case name whole wherever it appears (text), wrapped within its column (screenshot:
    several lines of text, none past the column);
  - show the per-model table (model_table) and trends with a time scale, dates and short commits;
  - refuse reports of different adapters (one line naming --allow-different-adapters, exit 2, no page) and put
    them side by side with the flag, each column naming its adapter.

    check_html_report.py DMLTOOL CASES_JSON OUT_DIR BACKEND
Set DMLTOOL_HTML_PLANT=network to add an external image to the page before opening it (the check must then fail).
"""
import json
from html import escape as html_escape_quoted
import os
import re
import shutil
import subprocess
import sys

from PIL import Image

BAR_COLORS = {"cpu": (0x4E, 0x79, 0xA7), "gpu": (0xF2, 0x8E, 0x2B), "directml": (0x59, 0xA1, 0x4F)}
# Row backgrounds (store/html_report.cpp, kStyle).
STATUS_COLORS = {"FAILED": (0xE8, 0xA0, 0xA0), "DEVIATES": (0xF9, 0xC9, 0x8C)}
VERDICT_COLORS = {"SLOWER": (0xF4, 0xB6, 0xB6), "FASTER": (0xB9, 0xE4, 0xB5), "SAME": (0xEE, 0xEE, 0xEE),
                  "NOISY": (0xF7, 0xE3, 0xA8), "INCONCLUSIVE": (0xE0, 0xD4, 0xEE)}
LONG_NAME = ("html/" + "a_case_name_as_long_as_a_generated_sweep_writes_them_" * 4)[:200]
FAILING = "html/failing/split_wrong_expected"
# The test's own cases: one whose `expected` is wrong (FAILED, not benchmarked) and one with a 200-character name.
OWN_CASES = {"cases": [
    {"name": FAILING, "operator": {"type": "DML_OPERATOR_SPLIT", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 2, 1, 1]}, "OutputSizesAlongAxis": [1, 1], "Axis": 1}},
     "inputs": {"InputTensor": {"values": [1, 2]}},
     "expected": {"OutputTensors": [{"values": [5]}, {"values": [6]}]}},
    {"name": LONG_NAME, "operator": {"type": "DML_OPERATOR_SPLIT", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 8, 8, 8]}, "OutputSizesAlongAxis": [4, 4], "Axis": 1}},
     "inputs": {"InputTensor": {"random": {}}}}]}


def html_escape(text):
    return html_escape_quoted(text, quote=True).replace("&#x27;", "&#39;")


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def screenshot(chromium, page, shot, height, logging=False):
    if os.path.exists(shot):
        os.remove(shot)
    # --enable-logging=stderr --v=0 prints every console message (errors, CSP refusals) as a CONSOLE line.
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                        *(["--enable-logging=stderr", "--v=0"] if logging else []), f"--window-size=1400,{height}",
                        f"--screenshot={shot}", "file://" + os.path.abspath(page)], capture_output=True, text=True,
                       timeout=120, env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})  # the sanitized suite's
    if r.returncode != 0 or not os.path.exists(shot):
        fail(f"chromium --screenshot of {page}: exit {r.returncode}, no screenshot", r.stderr[-3000:])
    return r


def cut_out(html, blocks, out_dir, name, chromium):
    """Shoots `blocks` [(html, height)] alone, each in a cell of its height, under the page's style; the image."""
    style = re.search(r"<style>.*?</style>", html, re.S).group(0)
    page = os.path.join(out_dir, name + ".html")
    open(page, "w", encoding="utf-8").write(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">" + style + "</head><body style=\"margin:0\">" +
        "".join(f'<div style="height:{h}px;overflow:hidden">{b}</div>' for b, h in blocks) + "</body></html>")
    shot = os.path.join(out_dir, name + ".png")
    screenshot(chromium, page, shot, sum(h for _, h in blocks))
    return Image.open(shot).convert("RGB")


def color_count(image, colors):
    return sum(n for n, rgb in (image.getcolors(maxcolors=1 << 22) or []) if rgb in colors)


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
    own_cases = os.path.join(out_dir, "html_own_cases.json")
    json.dump(OWN_CASES, open(own_cases, "w"))
    model_cases = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases", "model_view.json")
    reports = [os.path.join(out_dir, f"html_{n}.json") for n in ("a", "b")]
    for report in reports:
        # Exit 1: the FAILED case was not benchmarked (the rest is timed and reported all the same).
        run([dmltool, "bench", "--backend", backend, cases, model_cases, own_cases, "--roofline-mib", "1",
             "--report-json", report, "--min-samples", "5", "--max-time", "0.2", "--benchmark_min_time=0.001",
             "--results-db", db], expect=1)
    failed = [n for n in json.load(open(reports[0]))["not_benchmarked"] if n["name"] == FAILING]
    if len(failed) != 1 or failed[0]["status"] != "FAILED":
        fail(f"bench must list {FAILING} as FAILED in not_benchmarked", json.dumps(failed))
    # A DEVIATES case, planted into the second report (only DirectML's runs have them): timed, and its check said so.
    second = json.load(open(reports[1]))
    deviating = second["cases"][0]["name"]
    for c in second["cases"]:
        if c["name"] == deviating:
            c["check"] = {"status": "DEVIATES", "reason": "planted: max ULP 9 > 4 at output[3]"}
    json.dump(second, open(reports[1], "w"))
    page = os.path.join(out_dir, "report.html")
    for stale in (page + ".bad", page + ".other"):  # a previous run's: their absence is checked
        if os.path.exists(stale):
            os.remove(stale)
    # Bad input: one line naming the file and field, exit 2, no page.
    not_report = os.path.join(out_dir, "not_a_report.json")
    open(not_report, "w").write('{"sample_format": "dmltool-samples-1", "adapter": 5}')
    r = run([dmltool, "report", "--html", page + ".bad", not_report], expect=2)
    if r.stderr.count("\n") != 1 or "not_a_report.json: /adapter: expected a string, found 5" not in r.stderr \
            or os.path.exists(page + ".bad"):
        fail("report --html of a file that is not a bench report: one line naming it, and no page", r.stderr)
    # Another machine's report: refused in one line naming the flag (exit 2, no page); side by side with the flag.
    other = json.load(open(reports[0]))
    other["adapter"] = "Other Vendor GPU 9000"
    other_path = os.path.join(out_dir, "html_other_adapter.json")
    json.dump(other, open(other_path, "w"))
    r = run([dmltool, "report", "--html", page + ".other", reports[0], other_path], expect=2)
    if r.stderr.count("\n") != 1 or "--allow-different-adapters" not in r.stderr or "Other Vendor GPU 9000" not in r.stderr \
            or os.path.exists(page + ".other"):
        fail("report --html of two adapters: one line naming the adapters and --allow-different-adapters, no page",
             r.stderr)
    run([dmltool, "report", "--html", page + ".other", reports[0], other_path, "--allow-different-adapters"])
    side = open(page + ".other", encoding="utf-8").read()
    warning = re.search(r'<p class="warn">--allow-different-adapters: .*?</p>', side)
    if not warning or "Other Vendor GPU 9000" not in warning.group(0):
        fail("--allow-different-adapters: the page must say which adapters differ")
    # ... visibly: the warning's red text, shot on its own.
    red = color_count(cut_out(side, [(warning.group(0), 80)], out_dir, "adapters", chromium), {(0xAA, 0x33, 0x33)})
    if red < 100:
        fail(f"--allow-different-adapters: the warning did not draw ({red} pixels of its color)")
    headers = re.findall(r'<th class="run">.*?</th>', side.split('<table class="matrix">')[1].split("</tr>")[0], re.S)
    adapter = json.load(open(reports[0]))["adapter"]
    if len(headers) != 2 or html_escape(adapter) not in headers[0] or "Other Vendor GPU 9000" not in headers[1] \
            or "--allow-different-adapters" not in side:
        fail("--allow-different-adapters: each matrix column must name its adapter, and the page the opt-in", "\n".join(headers))

    run([dmltool, "report", "--html", page, *reports, "--results-db", db])
    html = open(page, encoding="utf-8").read()
    if "default-src 'none'" not in html:
        fail("the page must carry a Content-Security-Policy of default-src 'none'")
    for needle in ("Case &times; run matrix", "Cases not benchmarked", "Per model", "Throughput per feature level",
                   "% of roofline", "Median time per case", "Compare verdicts", "History trends"):
        if needle not in html:
            fail(f"section '{needle}' missing from the page")
    if html.count("<svg") < 5 or html.count("<polyline") < 1:
        fail(f"expected charts: {html.count('<svg')} svg, {html.count('<polyline')} trend lines")
    if not re.search(r'<tr class="(SAME|NOISY|FASTER|SLOWER)"><td>', html):
        fail("expected compare verdict rows")
    # The matrix: a row per case x backend of the reports, a cell per run with an error bar; the second run's cells
    # carry the ratio to the first and compare's verdict.
    matrix = re.search(r'<table class="matrix">.*?</table>', html, re.S)
    if not matrix:
        fail("no case x run matrix")
    matrix = matrix.group(0)
    keys = {(c["name"], c["backend"]) for c in json.load(open(reports[0]))["cases"]}
    rows = matrix.count("<tr>") - 1
    if rows != len(keys) or matrix.count('<svg class="err"') != 2 * len(keys) or \
            len(re.findall(r"&times;\d+\.\d{3} <span class=\"verdict\">(SLOWER|FASTER|SAME|NOISY|INCONCLUSIVE)</span>",
                           matrix)) != len(keys) or matrix.count("&plusmn;") != 2 * len(keys):
        fail(f"the matrix must have {len(keys)} rows, each with two error bars, a noise, a ratio and a verdict",
             matrix[:3000])
    if len(re.findall(r'<svg class="err"[^>]*><rect[^>]*/><path d="M[\d.]+ 7H[\d.]+M', matrix)) != 2 * len(keys):
        fail("every matrix cell must draw its median's error bar (its interval as a path)", matrix[:3000])
    if matrix.count('<span class="verdict DEVIATES">DEVIATES</span>') != sum(1 for k in keys if k[0] == deviating):
        fail(f"the matrix must mark {deviating} DEVIATES in the second run")
    # Not benchmarked, with reasons: the FAILED case with bench's own reason, the planted DEVIATES with its reason.
    if not re.search(r'<tr class="FAILED"><td>FAILED</td><td><div class="name">' + re.escape(FAILING) +
                     r'</div></td><td>.*?</td><td><div class="name">' + re.escape(html_escape(failed[0]["reason"])), html):
        fail("the FAILED case must be listed with its reason", failed[0]["reason"])
    if f'<tr class="DEVIATES"><td>DEVIATES</td><td><div class="name">{html_escape(deviating)}</div>' not in html or \
            "planted: max ULP 9 &gt; 4 at output[3]" not in html:
        fail("the DEVIATES case must be listed with its reason")
    # The 200-character name, whole, every time, in a wrapping cell (never an SVG text that would run out).
    whole = html.count(f'<div class="name">{LONG_NAME}')
    if whole < 4 or html.count(LONG_NAME) != whole:
        fail(f"the 200-character case name must appear whole in wrapping cells: {whole} of {html.count(LONG_NAME)}")
    # Per model: the model_table's models, the whole model's time and each operator's.
    for model in ("tiny", "other"):
        if not re.search(rf"<h3>{model} \[\w+\]</h3>\n<table class=\"model\">.*?<b>whole model</b>.*?SPLIT", html, re.S):
            fail(f"per-model table of '{model}' missing")
    # Trends: a time scale with units, dates and short commits under the axis.
    trend = re.search(r'<svg class="trend".*?</svg>', html, re.S)
    commit = json.load(open(reports[0]))["tool"]["git_commit"][:8]
    if not trend or len(re.findall(r'class="axis" text-anchor="end">[\d.]+ (ns|us|ms|s)</text>', trend.group(0))) < 2 or \
            not re.search(r"<tspan[^>]*>\d\d-\d\d \d\d:\d\d</tspan><tspan[^>]*>" + re.escape(commit), trend.group(0)):
        fail("a trend needs a y scale with units and x labels with dates and commits",
             trend.group(0)[:2000] if trend else "no trend chart")
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
    r = screenshot(chromium, page, shot, 2200, logging=True)
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line or "Refused to" in line]
    if console:
        fail("the page logged console messages (an error or a refused request)", "\n".join(console))
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
    kinds = {"chart": 330, "trend": 180, "hbars": 330, "model": 200}
    found = re.findall(r'(<svg class="(chart|trend)".*?</svg>|<table class="(hbars|model)">.*?</table>)', html + blocks_to_draw,
                       re.S)
    charts = [(block, kind or table) for block, kind, table in found]
    cells = cut_out(html, [(block, kinds[kind]) for block, kind in charts], out_dir, "charts", chromium)
    top = 0
    for i, (block, kind) in enumerate(charts):
        h = kinds[kind]
        drawn = color_count(cells.crop((0, top, cells.size[0], top + h)), set(BAR_COLORS.values()))
        if os.environ.get("DMLTOOL_HTML_VERBOSE"):
            print(f"chart {i} {kind}: {drawn}")
        # A trend line of some 450 px (two pixels wide) shows some 900 pixels of its color, its points some 30 each.
        if drawn < (50 if kind != "trend" else 300):
            fail(f"chart {i} ({kind}) did not draw: {drawn} pixels of the backends' colors", block[:300])
        top += h
    # The matrix, the failures and the long name, each shot on its own.
    failures = re.findall(r'<table class="failures">.*?</table>', html, re.S)
    name_cell = f'<table class="matrix"><tr><td><div class="name">{LONG_NAME}</div></td></tr></table>'
    if f'<td><div class="name">{LONG_NAME}</div></td>' not in matrix:
        fail("the long name's matrix cell is not what the name check shoots")
    parts = cut_out(html, [(matrix, 1600), ("".join(failures), 600), (name_cell, 200)], out_dir, "parts", chromium)
    shot_matrix, shot_failures, shot_name = (parts.crop((0, a, parts.size[0], b)) for a, b in
                                             ((0, 1600), (1600, 2200), (2200, 2400)))
    bars = color_count(shot_matrix, set(BAR_COLORS.values()))
    whiskers = color_count(shot_matrix, {(0, 0, 0)})  # pure black: the error bars only (the text is #222)
    verdicts = color_count(shot_matrix, set(VERDICT_COLORS.values()))
    # A cell's bar is 6 px high and up to 120 wide (a row's slowest some 100: at least 300 pixels a row); a verdict
    # cell's background at least some 200 x 35; each error bar two caps of 2 x 10 px (one where the interval is too
    # narrow to part them) and the interval.
    if bars < 300 * len(keys) or verdicts < 5000 * len(keys) or whiskers < 2 * 20 * len(keys):
        fail(f"the matrix did not draw: {bars} pixels of bars, {whiskers} of error bars, {verdicts} of verdict colors "
             f"for {len(keys)} rows")
    status_area = {s: color_count(shot_failures, {rgb}) for s, rgb in STATUS_COLORS.items()}
    status_rows = {s: len(re.findall(f'<tr class="{s}">', "".join(failures))) for s in STATUS_COLORS}
    for status, area in status_area.items():
        if area < 8000 * status_rows[status]:  # a row is some 1000 px wide and at least 20 high
            fail(f"the {status} rows did not draw: {area} pixels of their color for {status_rows[status]} rows")
    # The name wrapped, not clipped: its ink spans several lines, and none of it runs past its column (34em).
    ink = [(x, y) for (x, y), (r, g, b) in zip(((x, y) for y in range(shot_name.size[1]) for x in range(shot_name.size[0])),
                                               shot_name.getdata()) if r + g + b < 300]
    rows_with_ink = {y for _, y in ink}
    lines = sum(1 for y in rows_with_ink if y - 1 not in rows_with_ink)
    right = max((x for x, _ in ink), default=0)
    if lines < 3 or right > 34 * 12 + 20:
        fail(f"the 200-character name must wrap within its column: {lines} lines of ink, rightmost at x={right}")
    print(f"check_html_report: {len(charts)} charts each drew; matrix {len(keys)} rows ({bars} bar, {whiskers} error bar, {verdicts} "
          f"verdict pixels); FAILED/DEVIATES rows {status_area}; long name in {lines} lines; {len(html)} bytes; screenshot "
          f"{image.size}, {len(colors)} colors, bar pixels " + ", ".join(f"{b} {counts.get(BAR_COLORS[b], 0)}" for b in backends) +
          "; no console message")


if __name__ == "__main__":
    main(*sys.argv[1:5])
