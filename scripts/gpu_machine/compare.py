#!/usr/bin/env python3
"""Markdown summary of `dmltool bench` (GPU) against pytorch_baseline.py, workload by workload, with the speed
target per row (met / missed) and the copy probe against 3.6 TB/s; optionally the CPU reference's rows.

    compare.py BENCH_JSON PYTORCH_JSON [--report REPORT_JSON] [--cpu-report CPU_REPORT_JSON] > summary.md
    compare.py --cpu-report CPU_REPORT_JSON > summary.md      # the CPU reference's rows only

BENCH_JSON is Google Benchmark's --benchmark_out file; REPORT_JSON (dmltool bench --report-json) gives the copy
probe that "% of copy" divides by (and the row's % of roofline), and the throttle probes run right before and after
each case: "% of probes around" divides by the faster of those two (the clock/bandwidth the case could have had;
the slower one may come from a dip that began after it). The copy targets are judged on "% of copy, drift-adjusted":
the run's copy probe scaled by the case's probes around over the median of every case's probes around (judge()). A GPU whose
bandwidth drifts (the shared H100 ranged 1.3-2.7 TB/s within one run on 2026-11-26) must not be judged against a
start-of-run probe for a case measured in a dip; but the probes around are 64 MiB copies, which run below the 256 MiB
copy probe on a steady GPU (the H200 of 2026-11-28: 3.3 against 4.19 TB/s, cases up to 4.09), so they are the drift's
measure, never the denominator. The summary prints one count, by that rule. "% of a same-size copy" divides by the report's copy of the case's own bytes (timed like the case after all
cases); a copy-target row that misses names that copy as its measured limit. With --benchmark_repetitions, the median of the
repetitions is used. Both sides count the same logical bytes; the convolution compares operations per second
(MAC = 2). CPU_REPORT_JSON is `dmltool bench --backend cpu --report-json` on the CI-sized machine (issue 12's
CPU rows: % of the host copy, Gop/s).

The targets and what "met" means are defined once, in docs/benchmarks.md (section "Speed targets"); target_for,
cpu_target_for and judge() implement that definition, and the summary links to it.
"""
import argparse
import json
import os
import re
import statistics
import sys

COPY_TARGET = 3.6e12  # bytes/s: the copy probe's own target (docs/benchmarks.md, "Speed targets")
TARGETS_DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "benchmarks.md")
TORCH_THROTTLE_THRESHOLD = 0.10  # as dmltool bench's default --throttle-threshold


def target_for(name):
    """The speed target of a perf case (docs/benchmarks.md, "Speed targets"): (kind, value) with kind "ratio" (dmltool / PyTorch) or "copy" (% of the
    copy probe), or None where it sets none."""
    parts = name.split("/")  # perf/<op>/<variant>/<dtype>/<shape>_<parameters>
    if len(parts) < 5 or parts[0] != "perf":
        return None
    op, variant, dtype, shape = parts[1:5]
    upsample = shape.endswith("_x2")
    if op == "qlconv":
        return ("ratio", 1.0)
    if op in ("d2s", "split"):
        return ("copy", 85.0)
    if op == "resample" and variant == "nearest":
        return ("copy", 85.0) if upsample else ("ratio", 1.5)
    if op == "resample" and variant == "linear":
        if dtype == "int8":
            return ("copy", 50.0)
        return ("copy", 70.0) if upsample else ("ratio", 1.5)
    return None


def cpu_target_for(name):
    """The CPU reference's target of a perf case: ("copy", %) or ("gops", Gop/s), or None."""
    parts = name.split("/")
    if len(parts) < 5 or parts[0] != "perf":
        return None
    op, variant = parts[1:3]
    if op == "qlconv":
        return ("gops", 15.0)
    if op == "resample" and variant == "linear":
        return ("copy", 5.0)
    if op in ("d2s", "split", "resample"):
        return ("copy", 25.0)
    return None


def gpu_results(bench):
    """Case name -> (bytes/s, ops/s or None), medians over repetitions, from Google Benchmark's JSON."""
    runs = {}
    for b in bench["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        # Since issue 13 each benchmark is one Google Benchmark iteration that samples the case itself, and Google
        # Benchmark names that "/iterations:1": dropped so older and newer files read alike.
        name = re.sub(r"/iterations:\d+", "", b.get("run_name", b["name"]))
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


def verdict(value, target):
    if value is None:
        return "no baseline", None
    return ("met", True) if value >= target else ("**missed**", False)


def judge(name, mine, ratio, percent, adjusted):
    """The one verdict (docs/benchmarks.md, "Speed targets"): (target, judged value, "met"/"missed"/None).

    A ratio target is judged on dmltool / PyTorch; a copy target on the drift-adjusted share of the copy probe, or
    the plain share where the report has no probes around the cases. None: no target, or nothing to judge on."""
    target = target_for(name)
    if target is None:
        return None, None, None
    kind, value = target
    judged = ratio if kind == "ratio" else (adjusted if adjusted is not None else percent)
    if judged is None:
        return target, None, None
    return target, judged, "met" if judged >= value else "missed"


def drift(report, backend="gpu"):
    """Per case: the faster of its probes before and after, with the throttle flag; and their median over the run
    (the probes' level when the GPU is not drifting)."""
    around = {}
    for case in (report or {}).get("cases", []):
        probes = case.get("throttle", {})
        best = max(probes.get("probe_before_bytes_per_second") or 0, probes.get("probe_after_bytes_per_second") or 0)
        if case.get("backend") == backend and best > 0:
            around[case["name"]] = (best, probes.get("flagged", False))
    return around, (statistics.median(best for best, _ in around.values()) if around else None)


def targets_link(summary_dir):
    """A Markdown link to the targets' definition from the summary's folder when both are in the repository."""
    doc = os.path.realpath(TARGETS_DOC)
    if summary_dir and os.path.exists(doc):
        return f"[Speed targets]({os.path.relpath(doc, os.path.realpath(summary_dir))}#speed-targets)"
    return 'docs/benchmarks.md, "Speed targets"'


def cpu_rows(report):
    """The CPU reference's rows from a `dmltool bench --backend cpu` report; returns (lines, met, missed)."""
    copy = report["rooflines"].get("cpu", {}).get("copy_bytes_per_second")
    machine = report.get("machine", {})
    lines = [f"\nCPU reference on {machine.get('cpu_model', '?')} ({machine.get('logical_cores', '?')} logical cores); "
             f"host copy roofline {fmt_rate(copy, 'B/s')}\n",
             "| workload (CPU reference) | measured | % of host copy | target | |", "|---|---:|---:|---:|---|"]
    met = missed = 0
    for case in report["cases"]:
        if case["backend"] != "cpu":
            continue
        target = cpu_target_for(case["name"])
        if target is None:
            continue
        kind, value = target
        percent = 100 * case["bytes_per_second"] / copy if copy else None
        if kind == "gops":
            measured = case["ops_per_second"] / 1e9
            outcome, ok = verdict(measured, value)
            shown, target_text = fmt_rate(case["ops_per_second"], "op/s"), f"{value:g} Gop/s"
        else:
            outcome, ok = verdict(percent, value)
            shown, target_text = fmt_rate(case["bytes_per_second"], "B/s"), f"{value:g}% of copy"
        met += ok is True
        missed += ok is False
        lines.append(f"| {case['name']} | {shown} | {fmt_percent(percent)} | {target_text} | {outcome} |")
    return lines, met, missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", nargs="?")
    ap.add_argument("pytorch", nargs="?")
    ap.add_argument("--report")
    ap.add_argument("--cpu-report", help="dmltool bench --backend cpu --report-json of the CPU reference run")
    args = ap.parse_args()
    if not args.bench or not args.pytorch:
        if not args.cpu_report:
            ap.error("BENCH_JSON and PYTORCH_JSON, or --cpu-report, are required")
        lines, cpu_met, cpu_missed = cpu_rows(json.load(open(args.cpu_report)))
        print("\n".join(lines).lstrip("\n"))
        print(f"\nCPU targets: {cpu_met} of {cpu_met + cpu_missed} met, {cpu_missed} missed.")
        return 0
    ours = gpu_results(json.load(open(args.bench)))
    theirs_file = json.load(open(args.pytorch))
    theirs = {r["name"]: r for r in theirs_file["results"]}
    report = json.load(open(args.report)) if args.report else None

    link = targets_link(os.path.dirname(args.bench))
    print(f"dmltool vs PyTorch {theirs_file.get('torch', '?')} on {theirs_file.get('device', '?')} "
          f"(GB = 1e9 bytes; ratio = dmltool / PyTorch throughput; targets and \"met\": {link})\n")
    copy = report["rooflines"].get("gpu", {}).get("copy_bytes_per_second") if report else None
    torch_copy = theirs.get("copy/1GiB", {}).get("bytes_per_second")
    copy_verdict = "not measured" if copy is None else ("met" if copy >= COPY_TARGET else "missed")
    method = report["rooflines"].get("gpu", {}).get("copy_method", "") if report else ""
    print(f"Copy probe: {fmt_rate(copy, 'B/s')} ({method or 'no report'}) against the target 3.60 TB/s: "
          f"**{copy_verdict}**; PyTorch device-to-device copy: {fmt_rate(torch_copy, 'B/s')}\n")

    same_size = {}  # a copy of the case's own bytes on the device (dmltool bench's same-size copies)
    for case in (report or {}).get("cases", []):
        if case.get("backend") == "gpu" and (case.get("same_size_copy") or {}).get("bytes_per_second"):
            same_size[case["name"]] = case["same_size_copy"]["bytes_per_second"]
    around, around_median = drift(report)

    # PyTorch's own throttle probes (pytorch_baseline.py): a case timed more than 10% below PyTorch's best probe
    # of the run ran on a slower GPU than its peers; its ratio is marked (dmltool's side is marked as above).
    torch_around = {}
    for name, record in theirs.items():
        probes = [record.get(k) or 0 for k in ("probe_before_bytes_per_second", "probe_after_bytes_per_second")]
        if max(probes) > 0:
            torch_around[name] = max(probes)
    torch_best = max(torch_around.values(), default=0)
    torch_throttled = {name for name, p in torch_around.items() if p < (1 - TORCH_THROTTLE_THRESHOLD) * torch_best}

    print("| workload | dmltool | % of copy | % of probes around | % of copy, drift-adjusted | % of a same-size copy | "
          "PyTorch | PyTorch op | ratio | target | |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|")
    met = missed = 0
    for name, (bytes_per_second, ops_per_second) in ours.items():
        other = theirs.get(name, {})
        compute = ops_per_second is not None and name.split("/")[1:2] == ["qlconv"]
        mine = ops_per_second if compute else bytes_per_second
        unit = "op/s" if compute else "B/s"
        other_value = other.get("ops_per_second" if compute else "bytes_per_second")
        ratio = mine / other_value if other_value else None
        percent = 100 * bytes_per_second / copy if copy and not compute else None
        probe, flagged = around.get(name, (None, False))
        near = 100 * bytes_per_second / probe if probe and not compute else None
        near_text = "n/a" if near is None else f"{near:.1f}%" + (" (throttled)" if flagged else "")
        adjusted = percent * around_median / probe if percent is not None and probe else None
        same = 100 * bytes_per_second / same_size[name] if name in same_size and not compute else None
        target, _, result = judge(name, mine, ratio, percent, adjusted)
        if target is None:
            outcome, target_text = "", ""
        else:
            kind, value = target
            outcome = {"met": "met", "missed": "**missed**", None: "no baseline"}[result]
            target_text = f"{value:g}x" if kind == "ratio" else f"{value:g}% copy"
            met += result == "met"
            missed += result == "missed"
            if result == "missed" and kind == "copy" and same is not None:
                # The row names its measured limit: what a copy of as many bytes reaches on this device.
                outcome += (f" (a copy of the same bytes runs at {fmt_rate(same_size[name], 'B/s')}, "
                            f"{100 * same_size[name] / copy:.0f}% of the copy probe; the case is at {same:.0f}% of it)")
        note = other.get("not_measured") or other.get("note", "")
        print(f"| {name} | {fmt_rate(mine, unit)} | {fmt_percent(percent)} | {near_text} | {fmt_percent(adjusted)} | "
              f"{fmt_percent(same)} | "
              f"{fmt_rate(other_value, unit)} | "
              f"{other.get('torch_op', '')}{' (' + note + ')' if note else ''} | "
              f"{'n/a' if ratio is None else f'{ratio:.2f}x'}"
              f"{' (PyTorch throttled)' if ratio is not None and name in torch_throttled else ''} | {target_text} | "
              f"{outcome} |")
    print(f"\nGPU targets: {met} of {met + missed} met, {missed} missed ({link}: copy targets on the drift-adjusted "
          f"share of the copy probe, ratio targets on dmltool / PyTorch; rows without a target or a baseline are not "
          f"counted).")
    if any(flagged for _, flagged in around.values()):
        print(f"\n{sum(f for _, f in around.values())} of {len(around)} GPU cases were measured while the copy probe was "
              "more than the throttle threshold below the run's best (\"throttled\"): their absolute throughputs and "
              "PyTorch ratios (PyTorch is timed later in the same call, under whatever bandwidth the GPU then has) "
              "are not comparable with a steady machine's.")
    if torch_around:
        values = sorted(torch_around.values())
        print(f"\nPyTorch's throttle probes (64 MiB copy, warmed up, fastest of 5, before and after each case): "
              f"{fmt_rate(values[0], 'B/s')} to {fmt_rate(values[-1], 'B/s')}; {len(torch_throttled)} of "
              f"{len(torch_around)} cases more than {100 * TORCH_THROTTLE_THRESHOLD:g}% below the best "
              f"(\"PyTorch throttled\": that ratio compares dmltool with a slowed PyTorch).")
    picks = {n: r["cudnn_picks_ms"] for n, r in theirs.items() if r.get("cudnn_picks_ms")}
    if picks:
        spread = max(max(v) / min(v) for v in picks.values())
        print(f"\ncuDNN's algorithm picks: each convolution timed in {max(len(v) for v in picks.values())} processes "
              f"(each picks its own algorithm), the fastest counts; the slowest pick of a case was at most "
              f"{spread:.2f}x its fastest (pytorch.json: cudnn_picks_ms).")
    missing = sorted(set(n for n in theirs if n.startswith("perf/")) - set(ours))
    if missing:
        print(f"\nTimed by PyTorch only (no dmltool GPU result): {', '.join(missing)}")
    if args.cpu_report:
        lines, cpu_met, cpu_missed = cpu_rows(json.load(open(args.cpu_report)))
        print("\n".join(lines))
        print(f"\nCPU targets: {cpu_met} of {cpu_met + cpu_missed} met, {cpu_missed} missed.")


if __name__ == "__main__":
    sys.exit(main())
