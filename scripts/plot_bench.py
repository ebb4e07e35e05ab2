#!/usr/bin/python3
"""Bar charts of a `dmltool bench --report-json` file: % of roofline per case, grouped and coloured by feature
level, and, with a pytorch_baseline.py file, the dmltool / PyTorch throughput ratio per case with the issue's
target marked.

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
from compare import target_for  # noqa: E402


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
    for i, c in enumerate(cases):
        share = c["roofline_percent"]
        if share is None:
            top.text(i, 1, "n/a", rotation=90, ha="center", va="bottom", fontsize=7)
        else:
            top.bar(i, share, color=colours[c["feature_level"]])
    top.set_ylabel("% of roofline")
    roofline = report["rooflines"].get(args.backend, {})
    copy = roofline.get("copy_bytes_per_second")
    probe = f"copy probe {copy / 1e9:.0f} GB/s" if copy else "copy probe not measured"
    top.set_title(f"dmltool bench on {report.get('adapter', '?')}\n{report['tool']['git_commit']}, {report['date']}; "
                  f"{probe}", fontsize=9)
    top.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=colours[l]) for l in levels],
               labels=[f"FL {l}" for l in levels], fontsize=8, ncol=len(levels))
    top.grid(axis="y", alpha=0.3)

    if theirs:
        bottom = axes[1][0]
        for i, c in enumerate(cases):
            other = theirs.get(c["name"], {})
            compute = c["roofline_basis"] == "int_multiply_adds"
            mine = c["ops_per_second"] if compute else c["bytes_per_second"]
            reference = other.get("ops_per_second" if compute else "bytes_per_second")
            if reference:
                bottom.bar(i, mine / reference, color=colours[c["feature_level"]])
            else:
                bottom.text(i, 0.05, "no baseline", rotation=90, ha="center", va="bottom", fontsize=7)
            target = target_for(c["name"])  # (kind, value): only ratio targets belong on this axis
            if target and target[0] == "ratio":
                bottom.plot([i - 0.4, i + 0.4], [target[1], target[1]], color="black", linewidth=1.5)
        bottom.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
        bottom.set_ylabel("dmltool / PyTorch (black: target)")
        bottom.grid(axis="y", alpha=0.3)
    axes[-1][0].set_xticks(list(x))
    axes[-1][0].set_xticklabels(labels, rotation=90, fontsize=7)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"plot_bench: {len(cases)} cases -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
