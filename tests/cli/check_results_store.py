#!/usr/bin/python3
"""The results store (docs/results-store.md) end to end, on SQLite and on a throwaway PostgreSQL server (the CTest
fixture tests/cli/pg_server.sh).

    check_results_store.py MODE DMLTOOL CASES_JSON OUT_DIR BACKEND [PG_STATE_DIR]

MODE:
  upgrade-sqlite, upgrade-postgres    a database of schema version 1 (what dmltool wrote before versions) is
                                      read by history without changing it (read-only), upgraded to 2 on the next
                                      append, its rows kept; a newer one is refused
  concurrent-sqlite, concurrent-postgres
                                      8 bench processes append to one fresh database at once: nothing is lost
  baseline-sqlite, baseline-postgres  the issue's done-when: two bench runs land in a fresh database, history lists
                                      both (and its filters select), a third same-speed run compared with that
                                      baseline exits 0, the same run made 1.5x slower in some cases exits 1 naming
                                      exactly those cases
  unreachable                         a database that cannot be reached: bench exits 3 before benchmarking
                                      (no report file), naming the URL with its password redacted; a libpq keyword
                                      string is PostgreSQL and its password redacted; an unopenable SQLite path exits 3
  store-sqlite                        bench prints the stored run's id; `dmltool store` of its report is "already
                                      held" (one run); a report benched without a database is stored later, once
  restart-postgres                    a server of its own (tests/cli/pg_server.sh): stopped, a bench refused by it
                                      fails before benchmarking; `store` while it is down retries and lands once it
                                      is started again (nothing lost); storing the same report again adds nothing
"""
import csv
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

    def has_table(self, name):
        if self.kind == "sqlite":
            return self.sql(f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '{name}'") != [["0"]]
        return self.sql(f"SELECT to_regclass('{name}') IS NOT NULL") == [["t"]]

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
    # Read first: the old rows come back as they were, and the read-only command leaves the schema as it found it
    # (issue 40: history, compare --baseline-db and report never upgrade a schema; bench and store do).
    rows = history_csv(dmltool, store.url, "old/case_a")
    if len(rows) != 1 or not rows[0].startswith("2026-11-01T09:00:00Z,0123abcd,cpu,\"Old CPU\",\"none\",hot,1.5e-06,"):
        fail(f"{kind}: the schema-1 row of old/case_a read back wrong", "\n".join(rows))
    if store.has_table("dmltool_schema"):
        fail(f"{kind}: history (read-only) upgraded a schema-1 database")
    run(bench(dmltool, cases, "cpu", os.path.join(out_dir, f"upgrade_{kind}.json"), store.url), expect=0)
    version = store.sql("SELECT version FROM dmltool_schema")
    if version != [["4"]]:
        fail(f"{kind}: schema version after the upgrade: {version}, expected [['4']]")
    kept = store.sql("SELECT r.hostname, r.stable_power_state, r.shard, r.timer, b.case_name, b.samples, "
                     "b.bytes IS NULL FROM benchmarks b JOIN runs r ON r.id = b.run_id WHERE r.id = 1 ORDER BY b.id")
    expected = [["oldhost", "off", "", "wall", n, s, "1" if kind == "sqlite" else "t"] for n, _, _, s in OLD_ROWS]
    if kept != expected:
        fail(f"{kind}: the schema-1 rows after the upgrade: {kept}, expected {expected}")
    new = store.sql("SELECT count(*), min(r.shard), min(b.bytes) FROM benchmarks b JOIN runs r ON r.id = b.run_id "
                    "WHERE r.id > 1")
    if int(new[0][0]) < 1 or new[0][1] != "0/1" or float(new[0][2]) <= 0:
        fail(f"{kind}: the new run's rows: {new}, expected benchmarks with shard 0/1 and their bytes")
    # A database from a newer dmltool is refused, not misread.
    store.sql("UPDATE dmltool_schema SET version = 99")
    r = run([dmltool, "history", "--results-db", store.url], expect=2)
    if "schema version 99 is newer than this dmltool's 4" not in r.stderr:
        fail(f"{kind}: a newer schema must be refused by name", r.stderr)
    print(f"check_results_store: {kind}: schema 1 read, upgraded to 4 with its rows kept, schema 99 refused")


def concurrent(dmltool, cases, out_dir, backend, kind, pg_state):
    # 8 `history` processes on a fresh database at once (3 rounds): each finds it empty and, being read-only,
    # creates nothing (before issue 40 they raced to create the schema).
    for round in range(3):
        store = Store(kind, out_dir, f"race_{kind}", pg_state)
        procs = [subprocess.Popen([dmltool, "history", "--results-db", store.url], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(8)]
        for i, p in enumerate(procs):
            out, err = p.communicate(timeout=120)
            if p.returncode != 2 or "no benchmark matches the filters" not in err:
                fail(f"{kind}: round {round}, history {i} on a fresh database opened by 8 at once: exit "
                     f"{p.returncode}, expected 2 with an empty history", err)
        if store.has_table("runs") or store.has_table("dmltool_schema"):
            fail(f"{kind}: 8 read-only history processes created tables in a fresh database")
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
    # --adapter filters what history shows (the CSV's adapter column): the CPU model for the CPU reference's rows,
    # the GPU's name otherwise (it filtered runs.adapter, which a CPU row does not show).
    shown = [row for row in csv.reader(everything) if adapter in row[3]]
    for args, count in ((["--adapter", adapter], len(shown)), (["--driver", a["device"]], len(everything)),
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
    kept = os.path.join(out_dir, "unreachable_kept.json")
    run(bench(dmltool, cases, "cpu", kept, None, ["--filter", "split"]), expect=0)
    for command in ([dmltool, "history", "--results-db", url],
                    [dmltool, "compare", "--baseline-db", url, kept],
                    [dmltool, "store", kept, "--results-db", url, "--results-db-retry", "0"]):
        r2 = run(command, expect=3)
        if shown not in r2.stderr or "s3cret" in r2.stderr:
            fail(f"{command[1]} with an unreachable database: the redacted URL, never the password", r2.stderr)
    if f"cannot connect to the results database {shown}" not in r.stderr or "s3cret" in r.stdout + r.stderr:
        fail("bench with an unreachable database: expected the redacted URL, never the password", r.stderr)
    # Checked before benchmarking (issue 40): nothing was timed, so no report exists to lose.
    if os.path.exists(report) or os.path.exists(csv) or "Per case" in r.stdout:
        fail("bench with an unreachable database must fail before benchmarking (no report files)", r.stdout + r.stderr)
    # A libpq keyword string is PostgreSQL, not an SQLite path, and its password is never printed (issue 40).
    keywords = f"host={out_dir}/no-server-here dbname=results password=s3cret connect_timeout=5"
    r3 = run([dmltool, "history", "--results-db", keywords], expect=3)
    if "password=***" not in r3.stderr or "s3cret" in r3.stderr or "cannot connect" not in r3.stderr:
        fail("history with an unreachable keyword-string database: exit 3, the password as ***", r3.stderr)
    # An SQLite file that cannot be opened: exit 3 as documented (it was 2).
    r4 = run([dmltool, "history", "--results-db", os.path.join(out_dir, "no", "such", "dir", "h.sqlite")], expect=3)
    if "cannot open the results database" not in r4.stderr or r4.stderr.count("\n") != 1:
        fail("history with an unopenable SQLite path: one line, exit 3", r4.stderr)
    print("check_results_store: unreachable database: exit 3 before benchmarking, URL redacted")


def stored_id(text, what):
    m = re.search(r"(stored as|already held as) run (\d+)", text)
    if not m:
        fail(f"{what}: expected 'stored as run N' or 'already held as run N'", text)
    return m.group(1), int(m.group(2))


def runs_in(dmltool, url, cases_in_report):
    rows = history_csv(dmltool, url)
    return len(rows) // cases_in_report


def store_twice(dmltool, cases, out_dir, backend, url, tag):
    """bench stores and names its run; store of that report adds nothing; a report benched without the database is
    stored once by store, whatever the number of times."""
    first = os.path.join(out_dir, f"{tag}_first.json")
    r = run(bench(dmltool, cases, backend, first, url), expect=0)
    kind, first_id = stored_id(r.stdout, "bench --results-db")
    r = run([dmltool, "store", first, "--results-db", url], expect=0)
    if stored_id(r.stdout, "store of a stored report") != ("already held as", first_id):
        fail(f"store of the report bench stored: expected 'already held as run {first_id}'", r.stdout)
    later = os.path.join(out_dir, f"{tag}_later.json")
    run(bench(dmltool, cases, backend, later), expect=0)
    return first, later, first_id, len(json.load(open(first))["cases"])


def store(dmltool, cases, out_dir, backend, kind, pg_state):
    db = Store(kind, out_dir, f"store_{kind}", pg_state)
    first, later, first_id, count = store_twice(dmltool, cases, out_dir, backend, db.url, f"store_{kind}")
    ids = [stored_id(run([dmltool, "store", later, "--results-db", db.url], expect=0).stdout, "store")
           for _ in range(2)]
    if ids[0][0] != "stored as" or ids[1] != ("already held as", ids[0][1]) or ids[0][1] == first_id:
        fail(f"store of a new report twice: expected a new run, then the same one, got {ids}")
    if runs_in(dmltool, db.url, count) != 2:
        fail("history after bench, store, store, store: expected 2 runs", "\n".join(history_csv(dmltool, db.url)))
    bad = os.path.join(out_dir, f"store_{kind}_bad.json")
    report = json.load(open(later))
    report["cases"][0]["samples"] = "none"
    json.dump(report, open(bad, "w"))
    r = run([dmltool, "store", bad, "--results-db", db.url], expect=2)
    if "/cases/0/samples: expected an array of seconds" not in r.stderr or r.stderr.count("\n") != 1:
        fail("store of a broken report: one line naming the field, exit 2", r.stderr)
    print(f"check_results_store: {kind}: bench printed run {first_id}, store of it already held, a later report "
          "stored once of three times")


def restart(dmltool, cases, out_dir, backend, kind, pg_state):
    """A PostgreSQL server of this test's own, stopped and started again around the writes."""
    import threading
    import time
    state = os.path.join(out_dir, "restart_pg")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pg_server.sh")
    run([script, "start", state], expect=0, env=CLEAN_ENV)
    try:
        env = dict(line.strip().split("=", 1) for line in open(os.path.join(state, "pg.env")) if "=" in line)
        owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        pg_ctl = owner + [os.path.join(env["PGBIN"], "pg_ctl"), "-D", os.path.join(env["PGHOST"], "data")]
        def stop():
            run(pg_ctl + ["-m", "fast", "-w", "stop"], expect=0, env=CLEAN_ENV)
        def start():
            run(pg_ctl + ["-l", os.path.join(env["PGHOST"], "server.log"), "-w", "-t", "60", "-o",
                          f"-c listen_addresses='' -k {env['PGHOST']} -c fsync=off", "start"], expect=0, env=CLEAN_ENV)
        url = f"postgresql://{env['PGUSER']}@/postgres?host={env['PGHOST']}&connect_timeout=5"
        first, later, first_id, count = store_twice(dmltool, cases, out_dir, backend, url, "restart")
        stop()
        # Refused: bench fails at once, before any benchmark (no report written).
        refused = os.path.join(out_dir, "restart_refused.json")
        started = time.monotonic()
        r = run(bench(dmltool, cases, backend, refused, url), expect=3)
        if os.path.exists(refused) or "cannot connect to the results database" not in r.stderr:
            fail("bench with its database down: exit 3 before benchmarking", r.stdout + r.stderr)
        refused_seconds = time.monotonic() - started
        # The server comes back 3 s into store's retries: the run lands, nothing lost.
        restarter = threading.Timer(3.0, start)
        restarter.start()
        r = run([dmltool, "store", later, "--results-db", url, "--results-db-retry", "60"], expect=0)
        restarter.join()
        if "retrying in" not in r.stderr or stored_id(r.stdout, "store across a restart")[0] != "stored as":
            fail("store while the server restarts: expected retries, then 'stored as run N'", r.stdout + r.stderr)
        if stored_id(run([dmltool, "store", later, "--results-db", url], expect=0).stdout, "store")[0] != "already held as":
            fail("store of the same report after the restart must add nothing")
        if runs_in(dmltool, url, count) != 2:
            fail("history after the restart: expected 2 runs", "\n".join(history_csv(dmltool, url)))
    finally:
        subprocess.run([script, "stop", state], env=CLEAN_ENV)
    print(f"check_results_store: restart: refused bench exit 3 in {refused_seconds:.1f} s before benchmarking; "
          "store retried across a server restart and stored once")


if __name__ == "__main__":
    mode, dmltool, cases, out_dir, backend = sys.argv[1:6]
    pg_state = sys.argv[6] if len(sys.argv) > 6 else ""
    os.makedirs(out_dir, exist_ok=True)
    name, _, kind = mode.partition("-")
    {"upgrade": upgrade, "concurrent": concurrent, "baseline": baseline, "unreachable": unreachable, "store": store,
     "restart": restart}[name](
        dmltool, cases, out_dir, backend, kind, pg_state)
