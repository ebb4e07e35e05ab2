#!/usr/bin/python3
"""The tuner's clock settling, seen through DMLTOOL_TUNING_TRACE=1 (every timed batch on stderr): before the first
candidate is timed, the heuristic plan must have run for at least 0.5 s of device time (kSettleMinSeconds in
gpu/gpu_backend_tuning.cpp; the H100 ran ~150 ms in a slow state whose batches agreed before full clocks), and every
offered variant (here RESAMPLE's upsample/vectors and upsample/pieces) is timed in each of the 3 rounds; then the
heuristic plan and the fastest variants (here both: kFinalists is 4) are timed 5 more times each ("confirm: "), after
every screening batch.

    check_tuning_trace.py DMLTOOL OUT_DIR
"""
import json
import os
import re
import subprocess
import sys

CASE = {"cases": [{
    "name": "trace/nearest_x2_int8",
    "operator": {"type": "DML_OPERATOR_RESAMPLE", "desc": {
        "InputTensor": {"DataType": "INT8", "Sizes": [2, 3, 8, 64]},
        "InterpolationMode": "NEAREST_NEIGHBOR", "Scales": [1, 1, 2, 2]}},
    "inputs": {"InputTensor": {"random": {}}}}]}
LINE = re.compile(r"tuning trace: (.+?): (\d+) executions: mean ([\d.]+) us")


def main(dmltool, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    cases = os.path.join(out_dir, "trace.json")
    with open(cases, "w") as f:
        json.dump(CASE, f)
    cache = os.path.join(out_dir, "tuning_cache.json")
    if os.path.exists(cache):
        os.remove(cache)  # a cached winner would skip tuning
    command = [dmltool, "bench", cases, "--roofline-mib", "0", "--throttle", "off", "--min-samples", "3",
               "--max-time", "0.05", "--benchmark_min_time=0.001", "--tuning-cache", cache]
    r = subprocess.run(command, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "DMLTOOL_TUNING_TRACE": "1"})
    batches = [(m.group(1), int(m.group(2)), float(m.group(3))) for m in LINE.finditer(r.stderr)]
    failures = []
    if r.returncode != 0:
        failures.append(f"bench exited {r.returncode}")
    settling = 0.0
    for name, executions, mean_us in batches:
        if name != "(settling)":
            break
        settling += executions * mean_us * 1e-6
    if settling < 0.5:
        failures.append(f"settled after {settling:.3f} s of device time, expected at least 0.5 s")
    timed = [name for name, _, _ in batches if name != "(settling)"]
    for variant in ("heuristic", "upsample/vectors", "upsample/pieces"):
        if timed.count(variant) != 3:
            failures.append(f"{variant}: timed {timed.count(variant)} times, expected once per round (3)")
        if timed.count("confirm: " + variant) != 5:
            failures.append(f"{variant}: confirmed {timed.count('confirm: ' + variant)} times, expected 5")
    confirms = [i for i, name in enumerate(timed) if name.startswith("confirm: ")]
    screens = [i for i, name in enumerate(timed) if not name.startswith("confirm: ")]
    if confirms and screens and min(confirms) < max(screens):
        failures.append("a confirmation batch ran before the last screening batch")
    if failures:
        print(f"command: {' '.join(command)}\nstderr:\n{r.stderr[-3000:]}")
        print("\n".join(failures))
        return 1
    print(f"settled after {settling:.2f} s of device time; {len(timed)} candidate batches")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
