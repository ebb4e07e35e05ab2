#!/usr/bin/env python3
"""Runs one GoogleTest executable once, all its tests in one process, and judges it.

    gtest_once.py [EMULATOR ...] --exe EXE

Why: under Wine every process start costs about a second (and a D3D12 device more), so the Windows build's ctest
registers one test per executable through this script instead of one per GoogleTest test (gtest_discover_tests),
which made the Windows ctest stage 770 s for about 730 tests (docs/testing.md: CI time).

What it keeps from one process per test:
- A test that fails is run once more, alone (--gtest_filter=NAME). Passing alone, it is printed as FLAKY UNDER WINE
  and does not fail the run (the policy scripts/test_windows.sh applies to ctest tests: under Wine on two shared
  cores a test has now and then failed once without a message); failing again, it fails the run.
- A test that crashes the process (no result line after its [ RUN ]) counts as failed the same way, and the tests
  after it still run: the executable runs again without the crashed tests (at most 5 crashes, then it gives up).
- GTEST_FILTER from the environment narrows the run (scripts/test_windows.sh passes the known Wine gaps as negative
  patterns); GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX split one executable over several ctest tests. A rerun of one
  test drops the sharding (the test may belong to another shard's index in a filtered list).
- A run must say how many tests ran: an executable that exits 0 without GoogleTest's summary, or runs no test at
  all, fails (a silent early exit is not a pass).
"""
import argparse
import os
import re
import subprocess
import sys

RUN = re.compile(r"^\[ RUN      \] (\S+)")
ENDED = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+) \(")
SUMMARY = re.compile(r"^\[==========\] (\d+) tests? from \d+ test suites? ran\.")
MAX_CRASHES = 5


def run(command, env):
    """Runs the command, echoing its output; returns (exit code, output lines)."""
    process = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             errors="replace", text=True)
    sys.stdout.write(process.stdout)
    sys.stdout.flush()
    return process.returncode, process.stdout.splitlines()


def outcome(lines):
    """(failed tests, crashed test or None, tests ran per the summary or None) from one run's output."""
    failed, started, ended = [], [], set()
    ran = None
    for line in lines:
        if m := RUN.match(line):
            started.append(m.group(1))
        elif m := ENDED.match(line):
            ended.add(m.group(2))
            if m.group(1) == "FAILED" and m.group(2) not in failed:
                failed.append(m.group(2))
        elif m := SUMMARY.match(line):
            ran = int(m.group(1))
    unfinished = [name for name in started if name not in ended]
    return failed, (unfinished[-1] if unfinished else None), ran


def with_excluded(gtest_filter, names):
    """The filter with NAMES added to its negative patterns."""
    if not names:
        return gtest_filter
    positive, _, negative = gtest_filter.partition("-")
    negatives = [p for p in negative.split(":") if p] + list(names)
    return (positive or "*") + "-" + ":".join(negatives)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", required=True)
    parser.add_argument("emulator", nargs="*", help="the command that runs EXE (scripts/wine.sh), if any")
    args = parser.parse_args()
    env = dict(os.environ)
    base_filter = env.pop("GTEST_FILTER", "") or "*"
    single_env = {k: v for k, v in env.items() if k not in ("GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX")}
    command = args.emulator + [args.exe]

    suspects, crashed, total_ran = [], [], 0
    while True:
        code, lines = run(command + ["--gtest_filter=" + with_excluded(base_filter, crashed)], env)
        failed, crash, ran = outcome(lines)
        suspects += [name for name in failed if name not in suspects]
        if crash is not None and code != 0:
            print(f"gtest_once: {crash} ended the process (exit {code}) without a result", flush=True)
            crashed.append(crash)
            suspects.append(crash)
            if len(crashed) > MAX_CRASHES:
                print(f"gtest_once: more than {MAX_CRASHES} crashes; giving up on the rest", flush=True)
                return 1
            continue
        if ran is None:
            print(f"gtest_once: {args.exe} exited {code} without GoogleTest's summary line", flush=True)
            return 1
        total_ran += ran
        if code != 0 and not failed:
            print(f"gtest_once: {args.exe} exited {code} with no failed test named", flush=True)
            return 1
        break
    if total_ran + len(crashed) == 0 and "GTEST_TOTAL_SHARDS" not in env:
        print(f"gtest_once: no test ran (filter {base_filter})", flush=True)
        return 1

    real = []
    for name in suspects:
        print(f"gtest_once: rerunning {name} alone", flush=True)
        code, lines = run(command + ["--gtest_filter=" + name], single_env)
        _, _, ran = outcome(lines)
        if code != 0 or ran != 1:
            real.append(name)
    flaky = [name for name in suspects if name not in real]
    if flaky:
        print("FLAKY UNDER WINE (failed once, passed when rerun alone): " + " ".join(flaky), flush=True)
    if real:
        print("gtest_once: FAILED (failed again alone): " + " ".join(real), flush=True)
        return 1
    print(f"gtest_once: {total_ran} tests ran in one process; {len(flaky)} flaky, 0 failed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
