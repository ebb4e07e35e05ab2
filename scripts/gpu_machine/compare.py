#!/usr/bin/env python3
"""Markdown summary of `dmltool bench` (GPU) against pytorch_baseline.py, workload by workload, with issue 4's
speed target per row (met / missed) and the copy probe against 3.6 TB/s.

    compare.py BENCH_JSON PYTORCH_JSON [--report REPORT_JSON] > summary.md

BENCH_JSON is Google Benchmark's --benchmark_out file; REPORT_JSON (dmltool bench --report-json) adds the % of
roofline per case and the copy probe. With --benchmark_repetitions, the median of the repetitions is used.
Both sides count the same logical bytes; the convolution compares operations per second (MAC = 2).
"""
import argparse
import json
import statistics
import sys

COPY_TARGET = 3.6e12  # bytes/s, issue 4


def target_for(name):
    """The issue's minimum dmltool / PyTorch ratio for a perf case name, or None where it sets none."""
    parts = name.split("/")  # perf/<op>/<variant>/<dtype>/<shape>_<parameters>
    if len(parts) < 5 or parts[0] != "perf":
        return None
    op, variant, dtype, shape = parts[1:5]
    if op == "d2s":
        return {"float32": 1.4, "int8": 3.0}.get(dtype)
    if op == "split":
        return 1.3
    if op == "resample" and shape.endswith("_x2"):
        return {"nearest": 1.5, "linear": 2.0}.get(variant)
    if op == "qlconv":
        return 1.0
    return None


def gpu_results(bench):
    """Case name -> (bytes/s, ops/s or None), medians over repetitions, from Google Benchmark's JSON."""
    runs = {}
    for b in bench["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        if not name.endswith("/gpu/manual_time"):
            continue
        # "<OP>/FL<x_y>/<case name>/gpu/manual_time"
        case = name.split("/", 2)[2].rsplit("/", 2)[0]
        runs.setdefault(case, []).append((b["bytes_per_second"], b.get("ops_per_second")))
    return {case: (statistics.median(r[0] for r in rs),
                   statistics.median(r[1] for r in rs) if rs[0][1] is not None else None)
            for case, rs in runs.items()}


def fmt_rate(value, unit):
    if value is None:
        return "n/a"
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def fmt_percent(value):
    return "n/a" if value is None else f"{value:.1f}%"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench")
    ap.add_argument("pytorch")
    ap.add_argument("--report")
    args = ap.parse_args()
    ours = gpu_results(json.load(open(args.bench)))
    theirs_file = json.load(open(args.pytorch))
    theirs = {r["name"]: r for r in theirs_file["results"]}
    report = json.load(open(args.report)) if args.report else None
    percent = {c["name"]: c["roofline_percent"] for c in report["cases"] if c["backend"] == "gpu"} if report else {}

    print(f"dmltool vs PyTorch {theirs_file.get('torch', '?')} on {theirs_file.get('device', '?')} "
          f"(GB = 1e9 bytes; ratio = dmltool / PyTorch throughput)\n")
    copy = report["rooflines"].get("gpu", {}).get("copy_bytes_per_second") if report else None
    torch_copy = theirs.get("copy/1GiB", {}).get("bytes_per_second")
    verdict = "not measured" if copy is None else ("met" if copy >= COPY_TARGET else "missed")
    method = report["rooflines"].get("gpu", {}).get("copy_method", "") if report else ""
    print(f"Copy probe: {fmt_rate(copy, 'B/s')} ({method or 'no report'}) against the target 3.60 TB/s: "
          f"**{verdict}**; PyTorch device-to-device copy: {fmt_rate(torch_copy, 'B/s')}\n")

    print("| workload | dmltool | % roofline | PyTorch | PyTorch op | ratio | target | |")
    print("|---|---:|---:|---:|---|---:|---:|---|")
    met = missed = 0
    for name, (bytes_per_second, ops_per_second) in ours.items():
        other = theirs.get(name, {})
        compute = ops_per_second is not None and name.split("/")[1:2] == ["qlconv"]
        mine = ops_per_second if compute else bytes_per_second
        unit = "op/s" if compute else "B/s"
        other_value = other.get("ops_per_second" if compute else "bytes_per_second")
        ratio = mine / other_value if other_value else None
        target = target_for(name)
        if target is None:
            outcome = ""
        elif ratio is None:
            outcome = "no baseline"
        elif ratio >= target:
            outcome, met = "met", met + 1
        else:
            outcome, missed = "**missed**", missed + 1
        note = other.get("not_measured") or other.get("note", "")
        print(f"| {name} | {fmt_rate(mine, unit)} | {fmt_percent(percent.get(name))} | {fmt_rate(other_value, unit)} | "
              f"{other.get('torch_op', '')}{' (' + note + ')' if note else ''} | "
              f"{'n/a' if ratio is None else f'{ratio:.2f}x'} | {'' if target is None else f'{target:g}x'} | {outcome} |")
    print(f"\nTargets: {met} met, {missed} missed (rows without a target or a baseline are not counted).")
    missing = sorted(set(n for n in theirs if n.startswith("perf/")) - set(ours))
    if missing:
        print(f"\nTimed by PyTorch only (no dmltool GPU result): {', '.join(missing)}")


if __name__ == "__main__":
    sys.exit(main())
