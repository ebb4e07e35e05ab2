#!/usr/bin/env python3
"""scripts/gpu_machine/directml_table.py on synthetic bench reports (the GPU machine's runs are not reproducible
here): medians in µs, ratios the other side's time over dmltool's (> 1: dmltool faster), the tally of cases where
dmltool is at least as fast as DirectML (a DirectML-faster case is counted as such), a not-timed case with its
reason, the Linux/PyTorch columns, DirectML over the Linux build (and its tally) and a --directml-also column; a missing DirectML report is an error (exit 2).

    check_gpu_machine_directml_table.py OUT_DIR
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "..", "scripts", "gpu_machine", "directml_table.py")


def report(backend, cases, not_benchmarked=()):
    return {"adapter": "Synthetic GPU", "cases": [{"name": n, "backend": backend, "seconds": s, "converged": True}
                                                  for n, s in cases.items()],
            "not_benchmarked": [{"name": n, "reason": r} for n, r in not_benchmarked]}


def write(path, data):
    with open(path, "w") as f:
        json.dump(data, f)


def main():
    out = sys.argv[1]
    wine, also = os.path.join(out, "wine"), os.path.join(out, "also")
    os.makedirs(wine, exist_ok=True)
    os.makedirs(also, exist_ok=True)
    write(os.path.join(wine, "directml_d2s_report.json"),
          report("directml", {"perf/d2s/a": 400e-6, "perf/d2s/b": 50e-6}, [("perf/d2s/c", "FAILED")]))
    write(os.path.join(wine, "wine_gpu_d2s_report.json"), report("gpu", {"perf/d2s/a": 100e-6, "perf/d2s/b": 100e-6}))
    write(os.path.join(also, "directml_d2s_report.json"), report("directml", {"perf/d2s/a": 200e-6}))
    linux = os.path.join(out, "linux.json")
    write(linux, report("gpu", {"perf/d2s/a": 110e-6}))
    torch = os.path.join(out, "torch.json")
    write(torch, {"results": [{"name": "perf/d2s/a", "median_ms": 0.33}, {"name": "perf/d2s/b"}]})
    run = subprocess.run([sys.executable, TABLE, wine, "--linux-report", linux, "--pytorch", torch,
                          "--directml-also", f"vh={also}"], capture_output=True, text=True)
    problems = []
    if run.returncode != 0:
        problems.append(f"exit {run.returncode}: {run.stderr}")
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in run.stdout.splitlines() if line.startswith("| perf/")}
    expect = {"perf/d2s/a": ["400.0", "100.0", "110.0", "330.0", "4.00", "3.00", "3.64", "200.0", "2.00"],
              "perf/d2s/b": ["50.0", "100.0", "-", "-", "0.50", "-", "-", "-", "-"]}
    for name, cells in expect.items():
        if rows.get(name) != cells:
            problems.append(f"{name}: expected {cells}, found {rows.get(name)}")
    if not rows.get("perf/d2s/c", [""])[0].startswith("not timed: FAILED"):
        problems.append(f"perf/d2s/c: expected 'not timed: FAILED', found {rows.get('perf/d2s/c')}")
    if "at least as fast as DirectML (same Wine, medians): 1 of 2 cases; DirectML faster: 1." not in run.stdout:
        problems.append("tally: expected 1 of 2 cases, DirectML faster 1")
    if "(Linux build) at least as fast as DirectML (Wine), medians: 1 of 1 cases; DirectML faster: 0." not in run.stdout:
        problems.append("Linux tally: expected 1 of 1 cases, DirectML faster 0")
    empty = os.path.join(out, "empty")
    os.makedirs(empty, exist_ok=True)
    missing = subprocess.run([sys.executable, TABLE, empty], capture_output=True, text=True)
    if missing.returncode != 2 or "no directml_*_report.json" not in missing.stderr:
        problems.append(f"no reports: expected exit 2 naming the files, found {missing.returncode}: {missing.stderr}")
    for p in problems:
        print("FAIL:", p)
    if problems:
        print(run.stdout)
        return 1
    print("directml_table.py: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
