#!/usr/bin/python3
"""Error rates of the regression gate's separate-run and history modes (docs/compare-gate.md, issue 40).

    scripts/gate_rates.py DMLTOOL CASES_JSON OUT_DIR [--gates 20] [--busy-loop] [--planted-two REGEX] [--processes 5]
                          [--timer wall|cpu] [--ab] [--ab-only] [--ab-bench "ARGS"]

Runs GATES gates of each kind on the CPU reference with the cases of CASES_JSON (e.g. cases/perf/smoke.json):
  separate_same     compare RUN(g-1) RUN(g): two separate runs of the same build: no SLOWER, exit 0;
  separate_all      compare RUN(g-1) ALL(g): every case 1.5x slower (DMLTOOL_TEST_SLOWDOWN=.:1.5), probes
                    unchanged: SLOWER on every case, exit 1;
  separate_two      compare RUN(g-1) TWO(g): the cases matching --planted-two 1.3x slower: those SLOWER, no other;
  history_same, history_all, history_two: the same new runs against `--baseline-db DB --baseline last:5`, DB
                    holding the same build's earlier runs (5 before the first gate, then each RUN(g) is added).
With --ab, three more kinds per gate, `compare --ab` with the CI recipe's bench arguments (AB_BENCH, 30 rounds at
most, sequential looks): ab_same (a control wrapper against itself), ab_all (the control against a wrapper planting
every case 1.5x), ab_two (against one planting the --planted-two cases 1.3x); each wrapper sets
DMLTOOL_TEST_SLOWDOWN to a value of the same length (the control's factor 1.0 plants nothing), so both builds run with
environments of one size (docs/compare-gate.md: DMLTOOL_TEST_SLOWDOWN). Each A/B gate's wall time is recorded.
--ab-only runs the A/B gates alone (no separate or history runs); --ab-bench replaces AB_BENCH, e.g. with
"--backend both ..." for the GPU cases too (a planted gate then expects SLOWER on the planted cases of every
backend; the environment, e.g. LP_NUM_THREADS=0 for lavapipe, passes to every run).
With --busy-loop a process spinning on one core runs beside the whole measurement (the 2-core CI machine with
another job). Every run is `bench --processes N` (default 5; the CI recommendation, docs/compare-gate.md): a process
can run a case in one of a few speeds for its whole life, and compare judges each process as one observation, so
each process samples briefly (PROCESS_BENCH, as tests/cli/check_compare_gate_rates.py). --processes 1 measures the
single-process runs of before (BENCH: longer sampling over ten passes). --timer goes to every bench (cpu: the
process's CPU time, which other work's time slices do not count; bench/host_timer.h). The tallies, the load averages and examples
of misses go to OUT_DIR/rates.txt (and stdout); every report is kept, and every gate's compare JSON
(OUT_DIR/KINDN.compare.json).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

BENCH = ["--backend", "cpu", "--threads", "1", "--roofline-mib", "0", "--max-time", "0.5", "--min-samples", "40",
         "--max-noise", "1", "--passes", "10"]
# Per process with --processes N: the replication is the processes, so each samples a case briefly (a stable
# median of its own speed mode: 10 samples at least, over two passes).
# compare --ab: the CI recipe's bench arguments (docs/compare-gate.md: CI recipe).
AB_BENCH = ["--backend", "cpu", "--threads", "1", "--roofline-mib", "0", "--max-time", "0.03", "--min-samples", "9",
            "--max-noise", "5", "--throttle", "off"]
PROCESS_BENCH = BENCH[:BENCH.index("--max-time")] + ["--max-time", "0.1", "--min-samples", "10", "--max-noise", "1",
                                                     "--passes", "2"]


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dmltool")
    parser.add_argument("cases")
    parser.add_argument("out_dir")
    parser.add_argument("--gates", type=int, default=20)
    parser.add_argument("--busy-loop", action="store_true")
    parser.add_argument("--planted-two", default="^perf/(d2s|split)/",
                        help="regex of the cases slowed 1.3x in the 'two' gates")
    parser.add_argument("--processes", type=int, default=5, help="bench --processes for every run (1: one process)")
    parser.add_argument("--timer", choices=["wall", "cpu"], default="wall", help="bench --timer for every run")
    parser.add_argument("--ab", action="store_true", help="also compare --ab gates (ab_same, ab_all, ab_two)")
    parser.add_argument("--ab-only", action="store_true", help="only the compare --ab gates")
    parser.add_argument("--ab-bench", help="the A/B rounds' bench arguments, one string (default: AB_BENCH)")
    args = parser.parse_args()
    args.ab = args.ab or args.ab_only
    ab_bench = args.ab_bench.split() if args.ab_bench else AB_BENCH
    bench_arguments = (BENCH if args.processes == 1 else PROCESS_BENCH + ["--processes", str(args.processes)]) + \
        ["--timer", args.timer]
    os.makedirs(args.out_dir, exist_ok=True)
    db = os.path.join(args.out_dir, "history.sqlite")
    if os.path.exists(db):
        os.remove(db)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy_loop else None
    loads = [load_average()]
    started = time.monotonic()
    tallies, misses = {}, {}

    def bench(name, slowdown=None, store=False):
        path = os.path.join(args.out_dir, name + ".json")
        env = dict(os.environ)
        env.pop("DMLTOOL_TEST_SLOWDOWN", None)
        if slowdown:
            env["DMLTOOL_TEST_SLOWDOWN"] = slowdown
        command = [args.dmltool, "bench", args.cases, *bench_arguments, "--report-json", path] + (["--results-db", db] if store else [])
        r = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
        if r.returncode != 0:
            sys.exit(f"bench {name}: exit {r.returncode}\n{r.stderr}")
        return path

    ab_seconds = []

    def wrapper(name, value):  # a build for compare --ab: dmltool with DMLTOOL_TEST_SLOWDOWN=value
        path = os.path.join(args.out_dir, name + ".sh")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\nDMLTOOL_TEST_SLOWDOWN='{value}' exec {os.path.abspath(args.dmltool)} \"$@\"\n")
        os.chmod(path, 0o755)
        return path

    def gate(kind, command, planted):  # planted: None (nothing), or a regex of the case names made slower
        started_gate = time.monotonic()
        r = subprocess.run([args.dmltool, "compare", "--format", "json", *command], capture_output=True, text=True,
                           timeout=600)
        if r.returncode not in (0, 1, 4):
            sys.exit(f"{kind}: compare exited {r.returncode}\n{r.stderr}")
        if kind.startswith("ab_"):
            ab_seconds.append(time.monotonic() - started_gate)
        result = json.loads(r.stdout)
        tally = tallies.setdefault(kind, [0, 0, 0])  # right, gates, decided
        tally[1] += 1
        with open(os.path.join(args.out_dir, f"{kind}{tally[1]}.compare.json"), "w") as f:
            f.write(r.stdout)  # every gate's verdicts, kept
        # Cases by backend and name: with --backend both each name is judged twice, and both must be SLOWER.
        slower = sorted((c["backend"], c["name"]) for c in result["cases"] if c["verdict"] == "SLOWER")
        want = sorted((c["backend"], c["name"]) for c in result["cases"] if planted and re.search(planted, c["name"]))
        # Right: the planted cases SLOWER and no other (exit 1); with nothing planted, no SLOWER (exit 0, or 4 when
        # some case was undecided: the gate declined to judge, which is not a false alarm).
        ok = slower == want and (r.returncode == 1 if want else r.returncode in (0, 4))
        tally[0] += ok
        tally[2] += r.returncode != 4  # decided: no case left NOISY or INCONCLUSIVE
        if not ok:
            wrong = [f"{c['backend']} {c['name'].split('/')[1]} {c['verdict']} {100 * c['change']:+.1f}% ({c['reason']})"
                     for c in result["cases"] if ((c["backend"], c["name"]) in want) != (c["verdict"] == "SLOWER")]
            misses.setdefault(kind, []).append(f"exit {r.returncode}: " + "; ".join(wrong))

    listed = subprocess.run([args.dmltool, "list", args.cases], capture_output=True, text=True, check=True)
    names = [line.split()[0] for line in listed.stdout.splitlines() if not line.startswith("dmltool:")]
    two = [n for n in names if re.search(args.planted_two, n)]
    if len(two) != 2:
        sys.exit(f"--planted-two {args.planted_two!r}: expected 2 of the {len(names)} cases, found {two}")
    if not args.ab_only:
        for h in range(5):
            bench(f"history{h}", store=True)
        previous = bench("run0", store=True)
    if args.ab:
        control_all, planted_all = wrapper("control_all", ".:1.0"), wrapper("planted_all", ".:1.5")
        control_two = wrapper("control_two", args.planted_two + ":1.0")
        planted_two = wrapper("planted_two", args.planted_two + ":1.3")
    for g in range(1, args.gates + 1):
        if args.ab:
            for kind, base, new, planted in (("ab_same", control_all, control_all, None),
                                             ("ab_all", control_all, planted_all, "."),
                                             ("ab_two", control_two, planted_two, args.planted_two)):
                gate(kind, ["--ab", base, new, "--", args.cases, *ab_bench], planted)
            loads.append(load_average())
        if args.ab_only:
            continue
        current = bench(f"run{g}", store=True)  # compare --baseline-db leaves a report's own run out of its history
        everything = bench(f"all{g}", ".:1.5")
        both = bench(f"two{g}", args.planted_two + ":1.3")
        for kind, new, planted in (("same", current, None), ("all", everything, "."), ("two", both, args.planted_two)):
            gate("separate_" + kind, [previous, new], planted)
            gate("history_" + kind, ["--baseline-db", db, "--baseline", "last:5", new], planted)
        previous = current
        if not args.ab:
            loads.append(load_average())
    if busy:
        busy.kill()
        busy.wait()
    lines = [f"{kind}: {ok} of {total} gates as required ({decided} decided: exit 0 or 1, not 4)"
             for kind, (ok, total, decided) in sorted(tallies.items())]
    lines.append(f"cases: {len(names)} ({', '.join(names)}); planted two: {', '.join(two)}")
    if not args.ab_only:
        lines.append(f"bench --processes {args.processes}: " + " ".join(bench_arguments))
    lines.append(f"busy loop beside: {'yes' if args.busy_loop else 'no'}; 1-minute load averages per gate: "
                 f"{' '.join(loads)}; {time.monotonic() - started:.0f} s")
    if ab_seconds:
        ordered = sorted(ab_seconds)
        lines.append(f"compare --ab wall time per gate: median {ordered[len(ordered) // 2]:.1f} s, "
                     f"longest {ordered[-1]:.1f} s ({len(ordered)} gates; bench " + " ".join(ab_bench) + ")")
    for kind, details in sorted(misses.items()):
        lines.append(f"{kind} misses: " + " | ".join(details[:5]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out_dir, "rates.txt"), "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
