#!/usr/bin/python3
"""`dmltool history` selects cases by name or by regular expression, and `--list` names what the store holds
(issue 30: a first user had to know a case's exact name to see its history).

    check_history_select.py DMLTOOL OUT_DIR

Writes a small SQLite store of schema version 1 (history reads and upgrades it) with three cases on two runs.
"""
import os
import sqlite3
import subprocess
import sys

SCHEMA = """
CREATE TABLE runs(id INTEGER PRIMARY KEY, date TEXT, hostname TEXT, cpu_model TEXT, adapter TEXT, device TEXT,
  dmltool_version TEXT, git_commit TEXT, cache TEXT);
CREATE TABLE benchmarks(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), case_name TEXT,
  file TEXT, operator TEXT, feature_level TEXT, dtype TEXT, backend TEXT, median_seconds REAL, noise REAL,
  converged INTEGER, executions_per_sample INTEGER, samples TEXT);
"""
RUNS = [("2026-11-01T09:00:00Z", "h", "Old CPU", "llvmpipe (LLVM 15)", "lavapipe", "0.1", "0123abcd", "hot"),
        ("2026-11-02T09:00:00Z", "h", "Old CPU", "llvmpipe (LLVM 15)", "lavapipe", "0.1", "4567cdef", "hot")]
ROWS = [(1, "perf/split/a", "cpu"), (1, "perf/split/ab", "gpu"), (1, "perf/d2s/b", "gpu"),
        (2, "perf/split/a", "cpu"), (2, "perf/split/ab", "gpu")]


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def history(dmltool, db, *args, expect=0):
    r = subprocess.run([dmltool, "history", "--results-db", db, *args], capture_output=True, text=True, timeout=60)
    if r.returncode != expect:
        fail(f"history {' '.join(args)}: exit {r.returncode}, expected {expect}", r.stdout + r.stderr)
    return r


def main():
    dmltool, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    db = os.path.join(out_dir, "history.sqlite")
    if os.path.exists(db):
        os.remove(db)
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO runs(date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache) "
                    "VALUES(?, ?, ?, ?, ?, ?, ?, ?)", RUNS)
    con.executemany("INSERT INTO benchmarks(run_id, case_name, file, operator, feature_level, dtype, backend, "
                    "median_seconds, noise, converged, executions_per_sample, samples) "
                    "VALUES(?, ?, 'p.json', 'SPLIT', '2_1', 'INT8', ?, 1e-6, 0.01, 1, 20, '[1e-06, 1e-06]')", ROWS)
    con.commit()
    con.close()

    def cases_of(*args):
        lines = history(dmltool, db, "--format", "csv", *args).stdout.strip().splitlines()[1:]
        return sorted({line.rsplit(",", 1)[1].strip('"') for line in lines}), len(lines)

    # An exact name selects that case only, though as a pattern it would also match perf/split/ab.
    if cases_of("perf/split/a") != (["perf/split/a"], 2):
        fail("history perf/split/a must list that case's 2 benchmarks only", str(cases_of("perf/split/a")))
    # Not a name: a regular expression, searched.
    if cases_of("split") != (["perf/split/a", "perf/split/ab"], 4):
        fail("history split must list both split cases", str(cases_of("split")))
    if cases_of("^perf/(d2s|split)/a?b$") != (["perf/d2s/b", "perf/split/ab"], 3):
        fail("history ^perf/(d2s|split)/a?b$ must list perf/d2s/b and perf/split/ab", str(cases_of("^perf/(d2s|split)/a?b$")))
    r = history(dmltool, db, "nothing/like/this", expect=2)
    if "history --list" not in r.stderr:
        fail("a name that matches nothing must point at history --list", r.stderr)
    r = history(dmltool, db, "(", expect=2)
    if "dmltool: error: history: CASE: expected a case name or a regular expression (ECMAScript), found '('" not in r.stderr:
        fail("a broken regular expression must be a one-line usage error", r.stderr)

    listed = history(dmltool, db, "--list").stdout
    expected = ("cases (3):\n"
                "  perf/split/a: 2 benchmarks, last 2026-11-02T09:00:00Z\n"
                "  perf/split/ab: 2 benchmarks, last 2026-11-02T09:00:00Z\n"
                "  perf/d2s/b: 1 benchmarks, last 2026-11-01T09:00:00Z\n"
                "adapters (2):\n"
                "  Old CPU: 2 benchmarks, last 2026-11-02T09:00:00Z\n"
                "  llvmpipe (LLVM 15): 3 benchmarks, last 2026-11-02T09:00:00Z\n")
    if listed != expected:
        fail("history --list", f"got:\n{listed}\nexpected:\n{expected}")
    filtered = history(dmltool, db, "--list", "d2s").stdout
    if not filtered.startswith("cases (1):\n  perf/d2s/b: 1 benchmarks"):
        fail("history --list d2s must list perf/d2s/b only", filtered)
    print("check_history_select: exact name, regular expression, --list: as expected")


if __name__ == "__main__":
    main()
