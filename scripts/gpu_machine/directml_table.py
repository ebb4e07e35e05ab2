#!/usr/bin/env python3
"""One table per perf case: DirectML's own shaders, dmltool's kernels under the same Wine (same process kind, same
vkd3d), dmltool's kernels in the Linux build (vkd3d 1.2) and PyTorch, with their ratios.

    directml_table.py DIR [DIR...] [--linux-report report.json]... [--pytorch pytorch.json]...
                      [--directml-also LABEL=DIR]... > table.md

Each DIR holds what `run.sh directml` wrote: directml_GROUP_report.json and wine_gpu_GROUP_report.json (bench
--report-json of dmltool.exe under Wine). Times are each case's median sample (a sample is the mean of a batch of
executions, docs/benchmarks.md); the ratio columns divide the other side's median by dmltool's, so > 1 means
dmltool is faster (DirectML ÷ dmltool (Linux): DirectML under Wine over the Linux build, for runs without
dmltool's own Wine bench). A case bench did not time (it failed, deviated or was unsupported) shows the reason
(not_benchmarked in the report). There are no DirectML metacommands under vkd3d: its column is DirectML's own HLSL
shaders, translated to Vulkan by Wine's vkd3d. --directml-also adds a DirectML column (and its ratio) from another
run's directml_*_report.json files, e.g. the same DLL under another vkd3d configuration.
"""
import argparse
import glob
import json
import os
import sys


def load_reports(paths):
    """Median seconds, bytes and convergence per (backend, case name), and the not-benchmarked reasons."""
    timed, skipped, meta = {}, {}, {}
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        meta.setdefault("adapter", report.get("adapter"))
        for case in report.get("cases", []):
            timed[(case["backend"], case["name"])] = case
        for entry in report.get("not_benchmarked", []):
            name = entry.get("name") if isinstance(entry, dict) else str(entry)
            skipped[name] = entry.get("reason", "") if isinstance(entry, dict) else ""
    return timed, skipped, meta


def micros(case):
    return None if case is None else case["seconds"] * 1e6


def cell(value, case=None):
    if value is None:
        return "-"
    text = f"{value:.1f}"
    if case is not None and not case.get("converged", True):
        text += " (nc)"
    return text


def ratio(numerator, denominator):
    return "-" if numerator is None or denominator is None or denominator == 0 else f"{numerator / denominator:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dirs", nargs="+", help="run.sh directml's output directories")
    parser.add_argument("--linux-report", action="append", default=[],
                        help="report.json of the Linux build's bench (run.sh bench); repeatable")
    parser.add_argument("--pytorch", action="append", default=[], help="pytorch.json of pytorch_baseline.py; repeatable")
    parser.add_argument("--directml-also", action="append", default=[], metavar="LABEL=DIR",
                        help="another DirectML run's directml_*_report.json files, as an extra column; repeatable")
    args = parser.parse_args()

    wine_paths = sorted(path for directory in args.dirs for pattern in ("directml_*_report.json", "wine_gpu_*_report.json")
                        for path in glob.glob(os.path.join(directory, pattern)))
    if not wine_paths:
        print(f"directml_table.py: no directml_*_report.json or wine_gpu_*_report.json in {' '.join(args.dirs)}",
              file=sys.stderr)
        return 2
    wine, skipped, meta = load_reports(wine_paths)
    linux = load_reports(args.linux_report)[0]
    torch = {}
    for path in args.pytorch:
        with open(path) as f:
            torch.update({r["name"]: r for r in json.load(f).get("results", [])})
    extra = []
    for spec in args.directml_also:
        label, _, directory = spec.partition("=")
        paths = sorted(glob.glob(os.path.join(directory, "directml_*_report.json")))
        if not label or not paths:
            print(f"directml_table.py: --directml-also {spec}: expected LABEL=DIR with directml_*_report.json files",
                  file=sys.stderr)
            return 2
        extra.append((label, load_reports(paths)[0]))

    names = sorted({name for (_, name) in wine} | set(skipped), key=lambda n: n)
    print(f"Adapter: {meta.get('adapter')}. Median µs per execution; ratios are the other side's time over "
          "dmltool's (under Wine), so > 1 means dmltool is faster. (nc): not converged within --max-time. "
          "No metacommands under vkd3d: DirectML runs its own HLSL shaders.\n")
    extra_heads = "".join(f" DirectML ({label}) | ÷ dmltool |" for label, _ in extra)
    print("| case | DirectML (Wine) | dmltool (Wine) | dmltool (Linux) | PyTorch | DirectML ÷ dmltool (Wine) "
          f"| PyTorch ÷ dmltool (Linux) | DirectML ÷ dmltool (Linux) |{extra_heads}")
    print("|---|---:|---:|---:|---:|---:|---:|---:|" + "---:|---:|" * len(extra))
    faster = slower = compared = 0
    linux_faster = linux_slower = linux_compared = 0
    for name in names:
        dml, ours = wine.get(("directml", name)), wine.get(("gpu", name))
        ours_linux = linux.get(("gpu", name))
        torch_us = torch[name]["median_ms"] * 1e3 if torch.get(name, {}).get("median_ms") else None
        if dml is None and ours is None and name in skipped:
            print(f"| {name} | not timed: {skipped[name]} | | | | | | |" + " | |" * len(extra))
            continue
        if dml is not None and ours is not None:
            compared += 1
            faster += micros(dml) >= micros(ours)
            slower += micros(dml) < micros(ours)
        if dml is not None and ours_linux is not None:
            linux_compared += 1
            linux_faster += micros(dml) >= micros(ours_linux)
            linux_slower += micros(dml) < micros(ours_linux)
        print(f"| {name} | {cell(micros(dml), dml)} | {cell(micros(ours), ours)} | "
              f"{cell(micros(ours_linux), ours_linux)} | {cell(torch_us)} | {ratio(micros(dml), micros(ours))} | "
              f"{ratio(torch_us, micros(ours_linux))} | {ratio(micros(dml), micros(ours_linux))} |" +
              "".join(f" {cell(micros(r.get(('directml', name))), r.get(('directml', name)))} | "
                      f"{ratio(micros(r.get(('directml', name))), micros(ours))} |" for _, r in extra))
    print(f"\ndmltool's kernels at least as fast as DirectML (same Wine, medians): {faster} of {compared} cases; "
          f"DirectML faster: {slower}.")
    print(f"dmltool's kernels (Linux build) at least as fast as DirectML (Wine), medians: {linux_faster} of "
          f"{linux_compared} cases; DirectML faster: {linux_slower}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
