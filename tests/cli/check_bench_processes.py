#!/usr/bin/python3
"""`dmltool bench --processes N` (app/bench_processes.cpp, bench/process_merge.h): N processes merged into one report,
and a process that fails fails the bench with its message (never a partial report).

    check_bench_processes.py DMLTOOL CASES_JSON OUT_DIR
"""
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys

BENCH = ["--backend", "cpu", "--threads", "1", "--roofline-mib", "0", "--max-time", "0.05", "--min-samples", "5",
         "--max-noise", "5"]


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def main():
    dmltool, cases, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "DMLTOOL_TEST_SLOWDOWN"}

    def bench(name, *extra, environment=None):
        path = os.path.join(out, name + ".json")
        if os.path.exists(path):
            os.remove(path)
        r = subprocess.run([dmltool, "bench", cases, *BENCH, "--report-json", path, *extra], capture_output=True,
                           text=True, env=environment or env, timeout=300)
        return r, path

    # Merge: every case keeps its three processes, `seconds` is the median of their medians, samples are pooled.
    r, merged = bench("merged", "--processes", "3")
    if r.returncode != 0:
        fail(f"bench --processes 3 exited {r.returncode}", r.stdout + r.stderr)
    with open(merged) as f:
        report = json.load(f)
    if report.get("processes", {}).get("count") != 3 or report["options"].get("processes") != "3":
        fail("the merged report does not say it holds 3 processes", json.dumps(report.get("processes"))[:300])
    for c in report["cases"]:
        processes = c.get("processes", [])
        if len(processes) != 3:
            fail(f"{c['name']}: expected 3 processes, found {len(processes)}")
        medians = [statistics.median(p["samples"]) for p in processes]
        if abs(c["seconds"] - statistics.median(medians)) > 1e-12 * c["seconds"]:
            fail(f"{c['name']}: seconds {c['seconds']} is not the median of the process medians {medians}")
        if len(c["samples"]) != sum(len(p["samples"]) for p in processes):
            fail(f"{c['name']}: the pooled samples are not every process's")
    if "process 3 of 3" not in r.stdout:
        fail("bench --processes does not say which processes ran", r.stdout)

    # `store` keeps each case's process medians (schema 3), which history takes the runs' fast modes from.
    db = os.path.join(out, "processes.sqlite")
    if os.path.exists(db):
        os.remove(db)
    s = subprocess.run([dmltool, "store", merged, "--results-db", db], capture_output=True, text=True)
    if s.returncode != 0:
        fail(f"store of the merged report exited {s.returncode}", s.stdout + s.stderr)
    with sqlite3.connect(db) as connection:
        stored = dict(connection.execute("SELECT case_name || ' ' || backend, process_medians FROM benchmarks"))
    for c in report["cases"]:
        want = [p["seconds"] for p in c["processes"]]
        got = json.loads(stored.get(f"{c['name']} {c['backend']}") or "null")
        if got != want:
            fail(f"{c['name']}: stored process medians {got}, expected the report's {want}")

    # Two such runs are compared process by process, and the notes say so.
    r2, second = bench("second", "--processes", "3")
    if r2.returncode != 0:
        fail(f"the second bench --processes 3 exited {r2.returncode}", r2.stderr)
    c = subprocess.run([dmltool, "compare", merged, second, "--format", "json"], capture_output=True, text=True)
    if c.returncode not in (0, 1, 4):
        fail(f"compare of two merged reports exited {c.returncode}", c.stderr)
    notes = " ".join(json.loads(c.stdout).get("notes", []))
    if "judged by processes" not in notes:
        fail("compare of two 3-process reports did not judge by processes", notes)

    # A failing process fails the bench with its own message, exit as it exited, and no merged report is written.
    bad = dict(env, DMLTOOL_TEST_SLOWDOWN="gate:0.5")
    r, path = bench("failed", "--processes", "3", environment=bad)
    lines = r.stderr.strip().splitlines()
    if r.returncode != 2 or not lines or "process 1 of 3 exited 2" not in lines[-1] or \
            "DMLTOOL_TEST_SLOWDOWN" not in lines[-1]:
        fail(f"a failing process: expected exit 2 naming process 1 and its message, found exit {r.returncode}", r.stderr)
    if os.path.exists(path):
        fail("a failing process left a merged report behind")
    # The failed process's log is kept for the user (named in the message); this test removes what it made.
    match = re.search(r"full output in (\S+)/process1\.log\)", lines[-1])
    if not match or not os.path.isdir(match.group(1)):
        fail("a failing process: the message names no kept log", lines[-1])
    shutil.rmtree(match.group(1))

    # The merged report is the product: --processes without --report-json is refused, on one line.
    r = subprocess.run([dmltool, "bench", cases, *BENCH, "--processes", "2"], capture_output=True, text=True, env=env)
    if r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or "--report-json" not in r.stderr:
        fail(f"--processes without --report-json: expected one line and exit 2, found exit {r.returncode}", r.stderr)
    print("bench --processes: merged, compared by processes, a failing process fails the bench, refusals one line")


if __name__ == "__main__":
    main()
