#!/usr/bin/python3
"""Line chart of one case's benchmark history: median time per run, one line per backend x adapter, with the
noise of each median (its estimated standard error) as error bars and unconverged runs as hollow markers.

    dmltool history CASE --results-db results.sqlite --format csv > history.csv
    plot_history.py history.csv [--title CASE] [--out history.png]

Needs Debian's matplotlib: apt-get install python3-matplotlib (run with /usr/bin/python3).
"""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display on build or GPU machines
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("history_csv")
    ap.add_argument("--title", default="")
    ap.add_argument("--out", default="history.png")
    args = ap.parse_args()

    with open(args.history_csv) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"plot_history: no rows in {args.history_csv}", file=sys.stderr)
        return 1
    runs = sorted({(r["date"], r["git_commit"]) for r in rows})
    position = {run: i for i, run in enumerate(runs)}
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(runs) + 3), 4.5))
    lines = {}
    for r in rows:
        lines.setdefault((r["backend"], r["adapter"]), []).append(r)
    for (backend, adapter), points in sorted(lines.items()):
        points.sort(key=lambda r: position[(r["date"], r["git_commit"])])
        x = [position[(r["date"], r["git_commit"])] for r in points]
        y = [float(r["median_seconds"]) * 1e6 for r in points]
        # Noise is relative and -1 when unknown (fewer than two samples).
        err = [max(float(r["noise"]), 0) * v for r, v in zip(points, y)]
        line = ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"{backend}: {adapter}")
        hollow = [(xi, yi) for xi, yi, r in zip(x, y, points) if r["converged"] != "1"]
        if hollow:
            ax.scatter(*zip(*hollow), s=80, facecolors="white", edgecolors=line[0].get_color(), zorder=3)
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels([f"{d[:10]}\n{c[:12]}" for d, c in runs], fontsize=7)
    medians = [float(r["median_seconds"]) for r in rows if float(r["median_seconds"]) > 0]
    if medians and max(medians) > 20 * min(medians):
        ax.set_yscale("log")  # CPU reference and GPU lines can be orders of magnitude apart
    ax.set_ylabel("median time per execution (us)")
    ax.set_title(args.title or "dmltool history", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"plot_history: {len(rows)} benchmarks, {len(runs)} runs -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
