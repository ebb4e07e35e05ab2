#!/usr/bin/python3
"""bench's per-model view of imported cases (docs/importing-models.md: Benchmarking a model).

    check_bench_model_view.py DMLTOOL CASES_JSON OUT_DIR

Benches tests/cli/cases/model_view.json on the CPU reference (three cases: model 'tiny' with a case standing for 3
nodes and one for 1, model 'other' with one case for 2 nodes) and checks the report's model_table against the
cases' own medians: nodes summed, seconds = sum of median x nodes, each operator's share of it (shares sum to 1,
largest first), and the console's "Per model" rows.
"""
import json
import math
import os
import subprocess
import sys


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def main(dmltool, cases, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    report_path = os.path.join(out_dir, "bench.json")
    r = subprocess.run([dmltool, "bench", cases, "--backend", "cpu", "--threads", "1", "--roofline-mib", "0",
                        "--max-time", "0.05", "--min-samples", "5", "--report-json", report_path],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        fail(f"bench exited {r.returncode}", r.stdout + r.stderr)
    report = json.load(open(report_path))
    medians = {c["name"]: (c["seconds"], c["operator"]) for c in report["cases"]}
    want = {"tiny": [("tiny/d2s", 3), ("tiny/split", 1)], "other": [("other/split", 2)]}
    rows = {m["model"]: m for m in report.get("model_table", [])}
    if sorted(rows) != sorted(want):
        fail(f"model_table models {sorted(rows)}, expected {sorted(want)}", json.dumps(report.get("model_table")))
    for model, members in want.items():
        row = rows[model]
        seconds = sum(medians[n][0] * k for n, k in members)
        by_op = {}
        for n, k in members:
            by_op[medians[n][1]] = by_op.get(medians[n][1], 0) + medians[n][0] * k
        if row["nodes"] != sum(k for _, k in members) or row["cases"] != len(members):
            fail(f"{model}: {row['cases']} cases, {row['nodes']} nodes; expected {len(members)} and "
                 f"{sum(k for _, k in members)}", json.dumps(row))
        if not math.isclose(row["seconds"], seconds, rel_tol=1e-9):
            fail(f"{model}: {row['seconds']} s, expected the sum of median x nodes {seconds}", json.dumps(row))
        ops = row["operators"]
        if {o["operator"]: o["seconds"] for o in ops}.keys() != by_op.keys() or \
                any(not math.isclose(o["seconds"], by_op[o["operator"]], rel_tol=1e-9) for o in ops):
            fail(f"{model}: operator times {ops}, expected {by_op}")
        if not math.isclose(sum(o["share"] for o in ops), 1.0, rel_tol=1e-9) or \
                [o["seconds"] for o in ops] != sorted((o["seconds"] for o in ops), reverse=True):
            fail(f"{model}: shares must sum to 1, largest first: {ops}")
        line = [l for l in r.stdout.splitlines() if l.startswith("  cpu ") and f" {model} " in l and " nodes " in l]
        if len(line) != 1 or f"{row['nodes']} nodes" not in line[0]:
            fail(f"{model}: expected one 'Per model' console row", r.stdout)
    print(f"check_bench_model_view: {len(rows)} models, nodes and shares as the cases' medians say")


if __name__ == "__main__":
    main(*sys.argv[1:4])
