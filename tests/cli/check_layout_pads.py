#!/usr/bin/python3
"""compare --ab starts every round's bench with a random environment pad (DMLTOOL_LAYOUT_PAD, gate/child_process.h):
the environment's size moves the initial stack, and a fixed difference between the two builds' processes (one byte
of a report name) made a same-build gate read a memory-bound case SLOWER. Two wrapper builds record the pad each of
their processes got; over 4 rounds (8 processes) every pad must be 0-4095 bytes, both builds must get pads, and the
pads must differ (a constant pad, or none, is a fixed layout again).

    check_layout_pads.py DMLTOOL CASES_JSON OUT_DIR
"""
import os
import subprocess
import sys


def main(dmltool, cases, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    record = os.path.join(out_dir, "pads.txt")
    if os.path.exists(record):
        os.remove(record)
    wrappers = []
    for side in ("base", "new"):
        path = os.path.join(out_dir, f"{side}.sh")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\nprintf '{side} %s\\n' \"${{DMLTOOL_LAYOUT_PAD-unset}}\" | "
                    f"awk '{{print $1, ($2 == \"unset\" ? -1 : length($2))}}' >> {record}\n"
                    f"exec {os.path.abspath(dmltool)} \"$@\"\n")
        os.chmod(path, 0o755)
        wrappers.append(path)
    r = subprocess.run([dmltool, "compare", "--ab", *wrappers, "--fixed-rounds", "--rounds", "4", "--allow-undecided",
                        "--", cases, "--backend", "cpu", "--threads", "1", "--max-time", "0.01", "--min-samples", "3",
                        "--max-noise", "50", "--throttle", "off"], capture_output=True, text=True, timeout=300)
    failures = []
    if r.returncode not in (0, 1):
        failures.append(f"compare --ab exited {r.returncode}: {r.stderr.strip()[-500:]}")
    if "DMLTOOL_LAYOUT_PAD" not in r.stdout:
        failures.append("the notes must say that the processes' environments were padded:\n" + r.stdout[-800:])
    pads = []
    if os.path.exists(record):
        with open(record) as f:
            pads = [(line.split()[0], int(line.split()[1])) for line in f if line.strip()]
    lengths = [n for _, n in pads]
    if len(pads) != 8 or {side for side, _ in pads} != {"base", "new"}:
        failures.append(f"expected 8 processes, 4 of each build; found {pads}")
    if any(not 0 <= n <= 4095 for n in lengths):
        failures.append(f"every pad must be 0-4095 bytes (-1: none); found {lengths}")
    if len(set(lengths)) < 2:
        failures.append(f"the pads must be drawn per process, not one fixed size; found {lengths}")
    for f in failures:
        print(f, file=sys.stderr)
    print("check_layout_pads: " + ("FAILED" if failures else f"OK (pads {lengths})"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
