#!/usr/bin/python3
"""Bar charts of a `dmltool bench --report-json` file: % of roofline per case, grouped and coloured by feature
level, and, with a pytorch_baseline.py file, the dmltool / PyTorch throughput ratio per case. Every speed target
is drawn where it is judged (docs/benchmarks.md, "Speed targets"; compare.py's judge()): copy targets on the top
panel, whose copy-target bars are the drift-adjusted share they are judged on, ratio targets on the bottom one;
black when met, red when missed, with the count in the title. Bars above 100% are marked and explained on the
figure (logical bytes and multiply-adds against what the hardware moves or computes).

    plot_bench.py REPORT_JSON [--pytorch PYTORCH_JSON] [--backend gpu] [--out bench.png]

Needs Debian's matplotlib: apt-get install python3-matplotlib (run with /usr/bin/python3).
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display on build or GPU machines
import matplotlib.pyplot as plt  # noqa: E402

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_machine"))
from compare import drift, judge  # noqa: E402

ABOVE_100 = ("† above 100%: throughput counts logical bytes (each input element read once, each output written once) "
             "and the direct convolution's multiply-adds;\nthese cases move or compute less than they count: nearest "
             "x0.5 reads the quarter of its input it samples, linear x0.5 writes a quarter of what it reads, the "
             "Winograd convolution\ndoes 16 float products per 36 counted multiply-adds (docs/benchmarks.md, "
             "\"Speed targets\": Above 100%).")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--pytorch", help="pytorch_baseline.py output, for the ratio panel")
    ap.add_argument("--backend", default="gpu", help="which backend's cases to plot (default gpu)")
    ap.add_argument("--out", default="bench.png")
    args = ap.parse_args()

    report = json.load(open(args.report))
    cases = sorted((c for c in report["cases"] if c["backend"] == args.backend),
                   key=lambda c: (tuple(int(p) for p in c["feature_level"].split("_")), c["name"]))
    if not cases:
        print(f"plot_bench: no {args.backend} cases in {args.report}", file=sys.stderr)
        return 1
    theirs = {}
    if args.pytorch:
        theirs = {r["name"]: r for r in json.load(open(args.pytorch))["results"]}

    levels = sorted({c["feature_level"] for c in cases}, key=lambda l: tuple(int(p) for p in l.split("_")))
    colours = {level: plt.cm.tab10(i % 10) for i, level in enumerate(levels)}
    x = range(len(cases))
    labels = [c["name"].removeprefix("perf/") for c in cases]
    panels = 2 if theirs else 1
    fig, axes = plt.subplots(panels, 1, figsize=(max(8, 0.32 * len(cases) + 3), 4.5 * panels + 2.5), sharex=True,
                             squeeze=False)
    top = axes[0][0]
    bottom = axes[1][0] if theirs else None
    roofline = report["rooflines"].get(args.backend, {})
    copy = roofline.get("copy_bytes_per_second")
    around, around_median = drift(report, args.backend)
    colour_of = {"met": "black", "missed": "red"}
    met = judged_count = drawn = with_target = 0
    above_100 = False
    for i, c in enumerate(cases):
        other = theirs.get(c["name"], {})
        compute = c["roofline_basis"] == "int_multiply_adds"
        mine = c["ops_per_second"] if compute else c["bytes_per_second"]
        reference = other.get("ops_per_second" if compute else "bytes_per_second")
        ratio = mine / reference if reference else None
        percent = 100 * c["bytes_per_second"] / copy if copy and not compute else None
        probe = around.get(c["name"], (None, False))[0]
        adjusted = percent * around_median / probe if percent is not None and probe else None
        target, judged, result = judge(c["name"], mine, ratio, percent, adjusted)
        copy_target = target is not None and target[0] == "copy"
        # A copy-target bar is the value it is judged on, so the bar and its mark agree with the summary.
        share = judged if copy_target and judged is not None else c["roofline_percent"]
        if share is None:
            top.text(i, 1, "n/a", rotation=90, ha="center", va="bottom", fontsize=7)
        else:
            top.bar(i, share, color=colours[c["feature_level"]])
            if share > 100:
                above_100 = True
                top.text(i, share, "†", ha="center", va="bottom", fontsize=9)
        if target is not None and result is not None:
            judged_count += 1
            met += result == "met"
        with_target += target is not None
        drawn += copy_target or (bottom is not None and target is not None and target[0] == "ratio")
        if copy_target:
            top.plot([i - 0.4, i + 0.4], [target[1], target[1]], color=colour_of.get(result, "grey"), linewidth=1.5)
        if bottom is not None:
            if ratio is not None:
                bottom.bar(i, ratio, color=colours[c["feature_level"]])
            else:
                bottom.text(i, 0.05, "no baseline", rotation=90, ha="center", va="bottom", fontsize=7)
            if target is not None and target[0] == "ratio":
                bottom.plot([i - 0.4, i + 0.4], [target[1], target[1]], color=colour_of.get(result, "grey"),
                            linewidth=1.5)
    top.axhline(100.0, color="grey", linewidth=0.8, linestyle="--")
    top.set_ylabel("% of roofline (copy targets: drift-adjusted)\nmarks: target, black met, red missed", fontsize=8)
    probe_text = f"copy probe {copy / 1e9:.0f} GB/s" if copy else "copy probe not measured"
    count = f"; {met} of {judged_count} speed targets met" if theirs else ""
    top.set_title(f"dmltool bench on {report.get('adapter', '?')}\n{report['tool']['git_commit']}, {report['date']}; "
                  f"{probe_text}{count}", fontsize=9)
    top.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=colours[l]) for l in levels],
               labels=[f"FL {l}" for l in levels], fontsize=8, ncol=len(levels))
    top.grid(axis="y", alpha=0.3)

    if bottom is not None:
        bottom.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
        bottom.set_ylabel("dmltool / PyTorch\nmarks: target, black met, red missed", fontsize=8)
        bottom.grid(axis="y", alpha=0.3)
    axes[-1][0].set_xticks(list(x))
    axes[-1][0].set_xticklabels(labels, rotation=90, fontsize=7)
    fig.tight_layout(rect=(0, 0.045 if above_100 else 0, 1, 1))
    if above_100:
        fig.text(0.01, 0.005, ABOVE_100, fontsize=7, ha="left", va="bottom")
    # What the figure shows, readable without an image viewer (tests/docs/check_results.py reads it).
    description = (f"speed targets: {met} of {judged_count} met; targets drawn: {drawn} of {with_target}; "
                   f"above 100%: {'explained' if above_100 else 'none'}")
    fig.savefig(args.out, dpi=110, metadata={"Description": description})
    print(f"plot_bench: {len(cases)} cases -> {args.out}" + (f" ({met} of {judged_count} targets met)" if theirs else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
