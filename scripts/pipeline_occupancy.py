#!/usr/bin/python3
"""Occupancy of each kernel from dmltool_pipeline_stats --json (NVIDIA's statistics), per multiprocessor.

The driver reports registers per thread ("Register Count") and groupshared bytes per group ("Shared Memory Size");
with the thread-group size and the multiprocessor's limits that fixes how many groups, and so warps, can be resident
at once. Registers are allocated per warp in units of 256 (8 per thread); each group also reserves 1 KiB of shared
memory. Defaults are Hopper's (H100 / H200, compute capability 9.0): 65536 registers, 228 KiB of shared memory,
64 warps and 32 groups per multiprocessor.

    pipeline_occupancy.py STATS.json[.gz] [--label-suffix /conv] [--case REGEX] [--markdown]
"""
import argparse
import gzip
import json
import math
import re
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def occupancy(threads, registers, shared_bytes, limits):
    """(groups, warps) resident per multiprocessor, and the limiting resource."""
    warps = math.ceil(threads / 32)
    by = {"warps": limits.warps // warps, "groups": limits.groups}
    if registers:
        by["registers"] = (limits.registers // (math.ceil(registers / 8) * 8 * 32)) // warps
    if shared_bytes:
        by["shared memory"] = limits.shared_bytes // (shared_bytes + 1024)
    limit = min(by, key=by.get)
    return by[limit], by[limit] * warps, limit


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("stats")
    p.add_argument("--label-suffix", default="", help="only dispatches whose label ends so (e.g. /conv)")
    p.add_argument("--case", default="", help="only cases matching this regex")
    p.add_argument("--registers", type=int, default=65536)
    p.add_argument("--shared-kib", type=int, default=228)
    p.add_argument("--warps", type=int, default=64)
    p.add_argument("--groups", type=int, default=32)
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args()
    limits = argparse.Namespace(registers=a.registers, shared_bytes=a.shared_kib * 1024, warps=a.warps,
                                groups=a.groups)
    data = load(a.stats)
    header = ["case", "plan", "dispatch", "group", "threads", "registers", "shared B", "groups/SM", "warps/SM",
              "limited by"]
    rows = []
    for d in data["dispatches"]:
        if not d["label"].endswith(a.label_suffix) or not re.search(a.case, d["case"]):
            continue
        for exe in d["executables"]:
            stats = {s["name"]: s["value"] for s in exe["statistics"]}
            registers = stats.get("Register Count")
            shared = stats.get("Shared Memory Size", 0)
            size = d["thread_group_size"]
            threads = size[0] * size[1] * size[2]
            if registers is None:
                groups, warps, limit = "n/a", "n/a", "no Register Count statistic"
            else:
                groups, warps, limit = occupancy(threads, registers, shared, limits)
            rows.append([d["case"], d.get("plan") or "", d["label"].rsplit("/", 1)[-1], "x".join(map(str, size)),
                         threads, registers, shared, groups, warps, limit])
    if not rows:
        print("pipeline_occupancy: no dispatch matched", file=sys.stderr)
        return 2
    print(f"# {data.get('device', {}).get('name', 'device')}: limits per multiprocessor {a.registers} registers, "
          f"{a.shared_kib} KiB shared memory, {a.warps} warps, {a.groups} groups")
    if a.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(map(str, r)) + " |")
    else:
        for r in [header] + rows:
            print("  ".join(str(v) for v in r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
