#!/usr/bin/env python3
"""The rough edges of `dmltool run` a first user hits (issue 30), each checked where a regex on the console is not
enough.

    check_run_edges.py DMLTOOL CASES_DIR WORKDIR

1. A case with nothing to compare (no expected outputs, --backend cpu) is SKIPPED before its inputs are built: its
   16 MiB random input is never generated and the reference never runs (the JSON report's reference_ms is exactly
   0; before, every such case paid for both), and the run exits 5 (it tested nothing).
2. The run's header line names the backends; its JSON report carries date, version, git commit, files, options and
   adapter as bench's report does; a JUnit testcase's time is the case's time (case_ms), not the reference's.
Exit 0 when all holds, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(dmltool, args, cwd):
    return subprocess.run([dmltool] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          check=False)


def main():
    dmltool, cases, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)

    report = os.path.join(work, "skipped.json")
    if os.path.exists(report):
        os.remove(report)
    result = run(dmltool, ["run", "--backend", "cpu", "--json", report, "nothing_to_compare.json"], cases)
    if result.returncode != 5:
        fail(f"nothing to compare: exit {result.returncode}, expected 5:\n{result.stdout}")
    with open(report, encoding="utf-8") as f:
        (case,) = json.load(f)["cases"]
    if case["status"] != "SKIPPED" or case["reference_ms"] != 0 or "backend_ms" in case:
        fail(f"a SKIPPED case built its inputs and ran the reference: {json.dumps(case)[:800]}")
    print("check_run_edges: SKIPPED before the inputs are built")

    report, junit = os.path.join(work, "run.json"), os.path.join(work, "run.xml")
    for path in (report, junit):
        if os.path.exists(path):
            os.remove(path)
    result = run(dmltool, ["run", "--backend", "cpu", "--filter", "d2s", "--json", report, "--junit", junit,
                           "pass.json", "fail.json"], cases)
    if result.returncode != 1:
        fail(f"pass.json fail.json: exit {result.returncode}, expected 1:\n{result.stdout}")
    header = "dmltool run: backends cpu (reference): 2 cases from 2 files"
    if result.stdout.splitlines()[0] != header:
        fail(f"the first line is not the header '{header}':\n{result.stdout}")
    with open(report, encoding="utf-8") as f:
        root = json.load(f)
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(root.get("date"))):
        fail(f"the run report has no UTC date: {root.get('date')!r}")
    for key in ("version", "git_commit"):
        if not root.get(key):
            fail(f"the run report has no {key}")
    if root.get("adapter") != "none" or root.get("backend") != "cpu reference":
        fail(f"adapter/backend: {root.get('adapter')!r} {root.get('backend')!r}")
    if root.get("files") != ["pass.json", "fail.json"]:
        fail(f"files: {root.get('files')!r}")
    options = root.get("options", {})
    if options.get("backend") != "cpu" or options.get("filter") != "d2s":
        fail(f"options: {options!r}")
    times = {c["name"]: c["case_ms"] / 1000 for c in root["cases"]}
    for testcase in ET.parse(junit).getroot().iter("testcase"):
        case_seconds = times[testcase.get("name")]
        if abs(float(testcase.get("time")) - case_seconds) > 1e-5 * case_seconds + 1e-9:
            fail(f"JUnit time {testcase.get('time')} of {testcase.get('name')} is not the case's {case_seconds}")
    print("check_run_edges: header line, run report metadata, JUnit case times")

    # A run report given to compare (issue 41 item 7): named as one, with what to pass instead, exit 2.
    result = run(dmltool, ["compare", report, report], cases)
    expected = (f"dmltool: error: {report}: a run report (dmltool run --report-json): it holds verdicts, not timings; "
                "compare takes bench reports (dmltool bench --report-json FILE)")
    if result.returncode != 2 or result.stdout.strip() != expected:
        fail(f"compare RUN_REPORT RUN_REPORT: exit {result.returncode}, expected 2 and '{expected}':\n{result.stdout}")

    # A bench report compared with itself is SAME even when it did not converge (issue 41 item 7): the same samples
    # cannot differ. --max-noise 0 guarantees a run that does not converge (convergence is noise < --max-noise); 0.001%
    # did not under Wine, whose 100 ns timer ticks gave a batch of sub-microsecond executions near-identical samples.
    bench_report = os.path.join(work, "bench.json")
    result = run(dmltool, ["bench", "--backend", "cpu", "--max-time", "0.05", "--max-noise", "0", "--roofline-mib",
                           "0", "--report-json", bench_report, "pass.json"], cases)
    if result.returncode != 0 or "not converged" not in result.stdout:
        fail(f"bench: exit {result.returncode}, expected 0 and a case that did not converge:\n{result.stdout}")
    result = run(dmltool, ["compare", bench_report, bench_report], cases)
    if result.returncode != 0 or "0 slower, 0 faster, 1 same, 0 noisy of 1 compared" not in result.stdout:
        fail(f"compare REPORT REPORT: exit {result.returncode}, expected 0 and SAME:\n{result.stdout}")
    print("check_run_edges: a run report refused by compare; a report compared with itself is SAME")
    return 0


if __name__ == "__main__":
    sys.exit(main())
