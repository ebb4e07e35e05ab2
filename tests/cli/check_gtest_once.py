#!/usr/bin/env python3
"""scripts/gtest_once.py (one process per GoogleTest executable under Wine) judged on a fake executable.

The fake prints GoogleTest's lines for three tests A.One, A.Two, B.Three and misbehaves as FAKE_MODE says; a
state file lets a test fail on its first run only. Each scenario states the exit code gtest_once.py must give and
what its output must say: a real failure, a crash, a silent exit and an empty run must fail; a pass and a test
that failed once and passed alone (FLAKY UNDER WINE) must pass; the tests after a crash must still run; the
environment's GTEST_FILTER and the shards must reach the executable.
"""
import os
import subprocess
import sys
import tempfile

FAKE = r'''#!/usr/bin/env python3
import os, sys
tests = ["A.One", "A.Two", "B.Three"]
mode = os.environ["FAKE_MODE"]
state = os.environ["FAKE_STATE"]
flt = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--gtest_filter=")), "*")
positive, _, negative = flt.partition("-")
def match(pattern, name):
    import fnmatch
    return any(fnmatch.fnmatchcase(name, p) for p in pattern.split(":") if p)
selected = [t for t in tests if match(positive or "*", t) and not match(negative, t)]
if "GTEST_TOTAL_SHARDS" in os.environ:
    n, i = int(os.environ["GTEST_TOTAL_SHARDS"]), int(os.environ["GTEST_SHARD_INDEX"])
    selected = [t for k, t in enumerate(selected) if k % n == i]
with open(state, "a") as f:
    f.write(",".join(selected) + "\n")
if mode == "silent_exit":
    sys.exit(0)
failed = []
for t in selected:
    print(f"[ RUN      ] {t}", flush=True)
    first = len(open(state).read().splitlines()) == 1
    if (mode == "crash" and t == "A.Two" and len(selected) > 1) or (mode == "crash_always" and t == "A.Two"):
        sys.exit(3)
    if (mode == "fail" and t == "A.Two") or (mode == "fail_once" and t == "A.Two" and first):
        print(f"x.cpp:1: Failure\n[  FAILED  ] {t} (1 ms)")
        failed.append(t)
    else:
        print(f"[       OK ] {t} (1 ms)")
print(f"[==========] {len(selected)} tests from 2 test suites ran. (3 ms total)")
for t in failed:
    print(f"[  FAILED  ] {t}")
sys.exit(1 if failed else 0)
'''


def scenario(script, mode, want_code, must_say=(), env_extra=None, runs_check=None):
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "fake_tests")
        with open(fake, "w") as f:
            f.write(FAKE)
        os.chmod(fake, 0o755)
        state = os.path.join(tmp, "state")
        env = dict(os.environ, FAKE_MODE=mode, FAKE_STATE=state)
        env.pop("GTEST_FILTER", None)
        env.update(env_extra or {})
        # The fake stands in for the .exe and sys.executable for the emulator (scripts/wine.sh).
        p = subprocess.run([sys.executable, script, "--exe", fake, sys.executable], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        runs = open(state).read().splitlines() if os.path.exists(state) else []
        problems = []
        if p.returncode != want_code:
            problems.append(f"exit {p.returncode}, expected {want_code}")
        problems += [f"output lacks {s!r}" for s in must_say if s not in p.stdout]
        if runs_check and not runs_check(runs):
            problems.append(f"the executable's runs were {runs}")
        if problems:
            print(f"FAIL {mode} {env_extra or ''}: " + "; ".join(problems) + "\n--- output:\n" + p.stdout)
            return False
        print(f"ok   {mode} {env_extra or ''}: exit {p.returncode}")
        return True


def main():
    script = sys.argv[1]
    ok = all([
        scenario(script, "pass", 0, ["3 tests ran in one process"], runs_check=lambda r: r == ["A.One,A.Two,B.Three"]),
        scenario(script, "fail", 1, ["FAILED (failed again alone): A.Two"],
                 runs_check=lambda r: r == ["A.One,A.Two,B.Three", "A.Two"]),
        scenario(script, "fail_once", 0, ["FLAKY UNDER WINE", "A.Two"]),
        # The crashed test fails again alone (the fake crashes only among others, so alone it passes: flaky);
        # B.Three, after the crash, must have run.
        scenario(script, "crash", 0, ["A.Two ended the process", "FLAKY UNDER WINE"],
                 runs_check=lambda r: r[:2] == ["A.One,A.Two,B.Three", "A.One,B.Three"]),
        scenario(script, "crash_always", 1, ["FAILED (failed again alone): A.Two"],
                 runs_check=lambda r: "A.One,B.Three" in r),
        scenario(script, "silent_exit", 1, ["without GoogleTest's summary line"]),
        scenario(script, "pass", 1, ["no test ran"], env_extra={"GTEST_FILTER": "Nothing.*"}),
        scenario(script, "pass", 0, ["2 tests ran"], env_extra={"GTEST_FILTER": "-A.Two"},
                 runs_check=lambda r: r == ["A.One,B.Three"]),
        scenario(script, "pass", 0, ["1 tests ran"], env_extra={"GTEST_TOTAL_SHARDS": "2", "GTEST_SHARD_INDEX": "1"},
                 runs_check=lambda r: r == ["A.Two"]),
    ])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
