#!/usr/bin/python3
"""The results store (docs/results-store.md) end to end, on SQLite and on a throwaway PostgreSQL server (the CTest
fixture tests/cli/pg_server.sh).

    check_results_store.py MODE DMLTOOL CASES_JSON OUT_DIR BACKEND [PG_STATE_DIR]

MODE:
  upgrade-sqlite, upgrade-postgres    a database of schema version 1 (what dmltool wrote before versions) is
                                      read, upgraded to 2 on the next append, its rows kept; a newer one is refused
  concurrent-sqlite, concurrent-postgres
                                      8 bench processes append to one fresh database at once: nothing is lost
  baseline-sqlite, baseline-postgres  the issue's done-when: two bench runs land in a fresh database, history lists
                                      both (and its filters select), a third same-speed run compared with that
                                      baseline exits 0, the same run made 1.5x slower in some cases exits 1 naming
                                      exactly those cases
  unreachable                         a database that cannot be reached: exit 3 naming the URL with its password
                                      redacted, and the run's report files still written
"""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

V1_SQLITE = """
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY, date TEXT, hostname TEXT, cpu_model TEXT, adapter TEXT, device TEXT,
  dmltool_version TEXT, git_commit TEXT, cache TEXT);
CREATE TABLE IF NOT EXISTS benchmarks(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), case_name TEXT, file TEXT, operator TEXT,
  feature_level TEXT, dtype TEXT, backend TEXT, median_seconds REAL, noise REAL, converged INTEGER,
  executions_per_sample INTEGER, samples TEXT);
CREATE INDEX IF NOT EXISTS benchmarks_by_case ON benchmarks(case_name);
"""
V1_POSTGRES = V1_SQLITE.replace("id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY").replace(
    "run_id INTEGER", "run_id BIGINT").replace("REAL", "DOUBLE PRECISION")
# psql without the sanitized suite's LD_PRELOAD (meant for dmltool's own binaries).
CLEAN_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
OLD_RUN = ("2026-11-01T09:00:00Z", "oldhost", "Old CPU", "none", "none", "0.0.9", "0123abcd", "hot")
OLD_ROWS = [("old/case_a", "cpu", 1.5e-6, "[1.4e-06, 1.5e-06, 1.6e-06]"),
            ("old/case_b", "cpu", 2.5e-6, "[2.5e-06, 2.5e-06]")]


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def run(command, expect=None, timeout=300, **kwargs):
    r = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    if expect is not None and r.returncode != expect:
        fail(f"{' '.join(command)}: exit {r.returncode}, expected {expect}", r.stdout + r.stderr)
    return r


class Store:
    """One fresh database: an SQLite file or a new PostgreSQL database on the fixture's server."""

    def __init__(self, kind, out_dir, name, pg_state):
        self.kind = kind
        if kind == "sqlite":
            self.path = os.path.join(out_dir, name + ".sqlite")
            open(self.path, "w").close()  # an empty file is an empty SQLite database (history creates no file)
            self.url = self.path
            return
        env = dict(line.strip().split("=", 1) for line in open(os.path.join(pg_state, "pg.env")) if "=" in line)
        self.psql_base = [os.path.join(env["PGBIN"], "psql"), "-h", env["PGHOST"], "-U", env["PGUSER"], "-v",
                          "ON_ERROR_STOP=1", "-qtA"]
        self.name = name.replace("-", "_")
        run(self.psql_base + ["-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {self.name}"], expect=0, env=CLEAN_ENV)
        run(self.psql_base + ["-d", "postgres", "-c", f"CREATE DATABASE {self.name}"], expect=0, env=CLEAN_ENV)
        self.url = f"postgresql://{env['PGUSER']}@/{self.name}?host={env['PGHOST']}"

    def sql(self, statements):
        """Runs SQL; returns the rows of the last statement as lists of strings."""
        if self.kind == "sqlite":
            db = sqlite3.connect(self.path)
            cursor = db.executescript(statements) if ";" in statements.strip()[:-1] else db.execute(statements)
            rows = [[str(v) for v in row] for row in cursor.fetchall()]
            db.commit()
            db.close()
            return rows
        r = run(self.psql_base + ["-d", self.name, "-F", "|", "-c", statements], expect=0, env=CLEAN_ENV)
        return [line.split("|") for line in r.stdout.splitlines() if line]


def bench(dmltool, cases, backend, report, db=None, extra=(), samples=5):
    command = [dmltool, "bench", "--backend", backend, cases, "--roofline-mib", "0", "--report-json", report,
               "--min-samples", str(samples), "--max-time", "0.2", "--benchmark_min_time=0.001", *extra]
    if db:
        command += ["--results-db", db]
    return command


def history_csv(dmltool, db, *args, expect=0):
    r = run([dmltool, "history", "--results-db", db, "--format", "csv", *args], expect=expect)
    return [line for line in r.stdout.strip().splitlines()[1:]]


def upgrade(dmltool, cases, out_dir, backend, kind, pg_state):
    store = Store(kind, out_dir, f"upgrade_{kind}", pg_state)
    store.sql(V1_SQLITE if kind == "sqlite" else V1_POSTGRES)
    store.sql("INSERT INTO runs(date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache) "
              "VALUES(" + ", ".join(f"'{v}'" for v in OLD_RUN) + ")")
    for name, b, median, samples in OLD_ROWS:
        store.sql("INSERT INTO benchmarks(run_id, case_name, file, operator, feature_level, dtype, backend, "
                  "median_seconds, noise, converged, executions_per_sample, samples) VALUES(1, "
                  f"'{name}', 'old.json', 'SPLIT', '2_1', 'INT8', '{b}', {median}, 0.01, 1, 20, '{samples}')")
    # Read first: the old rows come back as they were (history upgrades the schema when it opens the database).
    rows = history_csv(dmltool, store.url, "old/case_a")
    if len(rows) != 1 or not rows[0].startswith("2026-11-01T09:00:00Z,0123abcd,cpu,\"Old CPU\",\"none\",hot,1.5e-06,"):
        fail(f"{kind}: the schema-1 row of old/case_a read back wrong", "\n".join(rows))
    run(bench(dmltool, cases, "cpu", os.path.join(out_dir, f"upgrade_{kind}.json"), store.url), expect=0)
    version = store.sql("SELECT version FROM dmltool_schema")
    if version != [["2"]]:
        fail(f"{kind}: schema version after the upgrade: {version}, expected [['2']]")
    kept = store.sql("SELECT r.hostname, r.stable_power_state, r.shard, b.case_name, b.samples, b.bytes IS NULL "
                     "FROM benchmarks b JOIN runs r ON r.id = b.run_id WHERE r.id = 1 ORDER BY b.id")
    expected = [["oldhost", "off", "", n, s, "1" if kind == "sqlite" else "t"] for n, _, _, s in OLD_ROWS]
    if kept != expected:
        fail(f"{kind}: the schema-1 rows after the upgrade: {kept}, expected {expected}")
    new = store.sql("SELECT count(*), min(r.shard), min(b.bytes) FROM benchmarks b JOIN runs r ON r.id = b.run_id "
                    "WHERE r.id > 1")
    if int(new[0][0]) < 1 or new[0][1] != "0/1" or float(new[0][2]) <= 0:
        fail(f"{kind}: the new run's rows: {new}, expected benchmarks with shard 0/1 and their bytes")
    # A database from a newer dmltool is refused, not misread.
    store.sql("UPDATE dmltool_schema SET version = 99")
    r = run([dmltool, "history", "--results-db", store.url], expect=2)
    if "schema version 99 is newer than this dmltool's 2" not in r.stderr:
        fail(f"{kind}: a newer schema must be refused by name", r.stderr)
    print(f"check_results_store: {kind}: schema 1 read, upgraded to 2 with its rows kept, schema 99 refused")


def concurrent(dmltool, cases, out_dir, backend, kind, pg_state):
    # The schema's creation itself, raced: bench opens the database only after its timing, so its writers rarely
    # meet there; 8 `history` processes on a fresh database all upgrade it at once (3 rounds). Each must find the
    # database empty, never fail on another's half-made schema.
    for round in range(3):
        store = Store(kind, out_dir, f"race_{kind}", pg_state)
        procs = [subprocess.Popen([dmltool, "history", "--results-db", store.url], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(8)]
        for i, p in enumerate(procs):
            out, err = p.communicate(timeout=120)
            if p.returncode != 2 or "no benchmark matches the filters" not in err:
                fail(f"{kind}: round {round}, history {i} on a fresh database opened by 8 at once: exit "
                     f"{p.returncode}, expected 2 with an empty history", err)
        if store.sql("SELECT version FROM dmltool_schema") != [["2"]]:
            fail(f"{kind}: after the race the schema version must be 2 (one row)")
    store = Store(kind, out_dir, f"concurrent_{kind}", pg_state)
    # Fresh database: the writers also race to create the schema. One small case each, on the CPU reference.
    procs = [subprocess.Popen(bench(dmltool, cases, "cpu", os.path.join(out_dir, f"concurrent_{kind}_{i}.json"),
                                    store.url, ["--filter", "split", "--shard", "0/1"]),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(8)]
    for i, p in enumerate(procs):
        out, err = p.communicate(timeout=300)
        if p.returncode != 0:
            fail(f"{kind}: concurrent writer {i}: exit {p.returncode}", err)
    expected = json.load(open(os.path.join(out_dir, f"concurrent_{kind}_0.json")))["cases"]
    runs = store.sql("SELECT count(*) FROM runs")
    if runs != [["8"]]:
        fail(f"{kind}: {runs} runs stored by 8 concurrent writers, expected 8")
    per_run = store.sql("SELECT run_id, count(*) FROM benchmarks GROUP BY run_id ORDER BY run_id")
    if len(per_run) != 8 or any(int(n) != len(expected) for _, n in per_run):
        fail(f"{kind}: benchmarks per run {per_run}, expected {len(expected)} in each of 8 runs")
    for c in expected:
        if len([r for r in history_csv(dmltool, store.url, c["name"]) if r.split(",")[2] == c["backend"]]) != 8:
            fail(f"{kind}: history of {c['name']} [{c['backend']}] must list 8 runs")
    print(f"check_results_store: {kind}: 8 concurrent writers, 8 runs of {len(expected)} benchmarks stored")


def baseline(dmltool, cases, out_dir, backend, kind, pg_state):
    store = Store(kind, out_dir, f"baseline_{kind}", pg_state)
    reports = [os.path.join(out_dir, f"baseline_{kind}_{n}.json") for n in ("a", "b", "c")]
    # 20 samples: the noise estimate (order statistics around the median) then ignores a busy machine's outliers,
    # so that 1.5x stays beyond the noise margin.
    for report in reports[:2]:
        run(bench(dmltool, cases, backend, report, store.url, samples=20), expect=0)
    a, b = (json.load(open(p)) for p in reports[:2])
    for c in a["cases"]:
        rows = [r for r in history_csv(dmltool, store.url, c["name"]) if r.split(",")[2] == c["backend"]]
        if len(rows) != 2:
            fail(f"{kind}: history of {c['name']} [{c['backend']}]: {len(rows)} runs, expected both", "\n".join(rows))
    # The filters, on the adapter, the driver (device) and the date.
    day = a["date"][:10]
    everything = history_csv(dmltool, store.url)
    if len(everything) != 2 * len(a["cases"]):
        fail(f"{kind}: history without a case lists {len(everything)} benchmarks, expected {2 * len(a['cases'])}")
    adapter = a["adapter"] if a["adapter"] != "none" else a["machine"]["cpu_model"]
    for args, count in ((["--adapter", a["adapter"]], len(everything)), (["--driver", a["device"]], len(everything)),
                        (["--since", day, "--until", day], len(everything)), (["--since", a["date"]], None)):
        got = history_csv(dmltool, store.url, *args)
        if (count is not None and len(got) != count) or not got:
            fail(f"{kind}: history {' '.join(args)}: {len(got)} benchmarks, expected {count or 'some'}")
    for args in (["--adapter", "no such adapter"], ["--driver", "no such driver"], ["--since", "2999-01-01"],
                 ["--until", "2000-01-01"]):
        r = run([dmltool, "history", "--results-db", store.url, *args], expect=2)
        if "no benchmark matches the filters" not in r.stderr:
            fail(f"{kind}: history {' '.join(args)} must select nothing", r.stderr)
    # The third run. Its times are made deterministic (a shared 2-core machine cannot promise two runs of the same
    # speed): same speed = run b's samples; slower = those samples x 1.5 in the cases matching `slow`.
    run(bench(dmltool, cases, backend, reports[2], samples=20), expect=0)
    third = json.load(open(reports[2]))
    samples_b = {(c["name"], c["backend"]): c["samples"] for c in b["cases"]}
    for c in third["cases"]:
        c["samples"] = samples_b[(c["name"], c["backend"])]
        c["converged"] = True
    same = os.path.join(out_dir, f"baseline_{kind}_same.json")
    json.dump(third, open(same, "w"))
    r = run([dmltool, "compare", "--baseline-db", store.url, "--baseline", "last:1", same], expect=0)
    if not re.search(r"^0 slower, 0 faster, \d+ same, \d+ noisy of " + str(len(third["cases"])) + " compared$", r.stdout, re.M):
        fail(f"{kind}: same-speed run against its baseline", r.stdout)
    # Slowed: the split and d2s cases whose baseline run measured them within 10% noise. compare judges a change
    # only beyond the runs' own noise (1.96 x their combined standard errors), so a case that a loaded machine timed
    # with 20% noise could not show 1.5x as SLOWER; at least one case is always slowed (the quietest).
    slow = re.compile(r"/split/|/d2s/")
    noise_b = {(c["name"], c["backend"]): c["statistics"]["noise"] or 1.0 for c in b["cases"]}
    chosen = {k for k in noise_b if slow.search(k[0]) and noise_b[k] < 0.1} or {min(noise_b, key=noise_b.get)}
    slowed = set()
    for c in third["cases"]:
        if (c["name"], c["backend"]) in chosen:
            c["samples"] = [s * 1.5 for s in c["samples"]]
            slowed.add((c["name"], c["backend"]))
    if not slowed or len(slowed) == len(third["cases"]):
        fail(f"{kind}: the slowed cases must be some of the cases, not {len(slowed)}")
    slower_path = os.path.join(out_dir, f"baseline_{kind}_slower.json")
    json.dump(third, open(slower_path, "w"))
    r = run([dmltool, "compare", "--baseline-db", store.url, "--baseline", "last:1", slower_path], expect=1)
    named = {(m.group(2), m.group(1)) for m in re.finditer(r"^SLOWER +(\S+) +(\S+)", r.stdout, re.M)}
    if named != slowed:
        fail(f"{kind}: SLOWER named {sorted(named)}, expected {sorted(slowed)}", r.stdout)
    # last:2, since: and commit: select both runs; two runs are too few to estimate the spread between runs
    # (docs/compare-gate.md), so each case is judged by the two-run test against the most recent run (b), and the
    # comparison says so. The history's runs are never pooled into one base.
    commit = a["tool"]["git_commit"][:7]
    selectors = ["last:2", "since:" + a["date"][:10]]
    if re.fullmatch(r"[0-9a-f]{7}", commit):  # a build outside git records no commit
        selectors.append("commit:" + commit)
    for selector in selectors:
        r = run([dmltool, "compare", "--baseline-db", store.url, "--baseline", selector, same, "--format", "json"])
        result = json.loads(r.stdout)
        counts = {(c["name"], c["backend"]): c["base"]["count"] for c in result["cases"]}
        want = {k: len(v) for k, v in samples_b.items()}
        said = any("fewer than 3 runs" in n for n in result["notes"])
        if r.returncode not in (0, 1) or counts != want or not said:
            fail(f"{kind}: --baseline {selector}: base sample counts {counts}, expected run b's {want} and a note "
                 "that two runs are too few for the history model", r.stdout + r.stderr)
    # No matching history: another driver, a later date, a bad selector.
    other = dict(third, device="gpu (another driver)")
    other_path = os.path.join(out_dir, f"baseline_{kind}_other.json")
    json.dump(other, open(other_path, "w"))
    for selector, report, message in (("last:5", other_path, "no baseline for .*driver 'gpu \\(another driver\\)'"),
                                      ("since:2999-01-01", same, "no baseline for .*since:2999-01-01"),
                                      ("last:0", same, "--baseline: expected last:N \\(N >= 1\\), commit:SHA or since:DATE, found 'last:0'")):
        r = run([dmltool, "compare", "--baseline-db", store.url, "--baseline", selector, report], expect=2)
        if not re.search(message, r.stderr) or r.stderr.count("\n") != 1:
            fail(f"{kind}: --baseline {selector} on {report}: expected one line matching {message}", r.stderr)
    print(f"check_results_store: {kind}: 2 runs stored and listed, same speed exit 0, "
          f"{len(slowed)} slowed cases named SLOWER, exit 1")


def unreachable(dmltool, cases, out_dir, backend, *_):
    url = f"postgresql://fleet:s3cret@/results?host={out_dir}/no-server-here&connect_timeout=5"
    shown = f"postgresql://fleet:***@/results?host={out_dir}/no-server-here&connect_timeout=5"
    report = os.path.join(out_dir, "unreachable.json")
    csv = os.path.join(out_dir, "unreachable.csv")
    for path in (report, csv):
        if os.path.exists(path):
            os.remove(path)
    r = run(bench(dmltool, cases, "cpu", report, url, ["--report-csv", csv, "--filter", "split"]), expect=3)
    for command in ([dmltool, "history", "--results-db", url],
                    [dmltool, "compare", "--baseline-db", url, report]):
        r2 = run(command, expect=3)
        if shown not in r2.stderr or "s3cret" in r2.stderr:
            fail(f"{command[1]} with an unreachable database: the redacted URL, never the password", r2.stderr)
    if f"cannot connect to the results database {shown}" not in r.stderr or "s3cret" in r.stdout + r.stderr:
        fail("bench with an unreachable database: expected the redacted URL, never the password", r.stderr)
    if not os.path.getsize(report) or not os.path.getsize(csv):
        fail("bench with an unreachable database must still write its report files")
    print("check_results_store: unreachable database: exit 3, URL redacted, report files written")


if __name__ == "__main__":
    mode, dmltool, cases, out_dir, backend = sys.argv[1:6]
    pg_state = sys.argv[6] if len(sys.argv) > 6 else ""
    os.makedirs(out_dir, exist_ok=True)
    name, _, kind = mode.partition("-")
    {"upgrade": upgrade, "concurrent": concurrent, "baseline": baseline, "unreachable": unreachable}[name](
        dmltool, cases, out_dir, backend, kind, pg_state)
