#!/usr/bin/env python3
"""Table of `dmltool bench` GPU throughput (Google Benchmark JSON) against pytorch_baseline.py's, per workload.

    compare.py bench.json pytorch.json > table.md

Both sides count the same logical bytes (inputs read once, outputs written once); convolutions also compare
integer/float operations per second (MAC = 2).
"""
import json
import sys


def workload_key(benchmark_name):
    # ".../perf/<op>/<variant>/<dtype-or-shape>/.../gpu/manual_time" -> "<op>/<variant>/<dtype-or-shape>"
    return "/".join(benchmark_name.split("/perf/")[1].split("/")[:3])


def main(bench_path, torch_path):
    bench = json.load(open(bench_path))
    torch = {r["name"]: r for r in json.load(open(torch_path))["results"]}
    print("| workload | dmltool | PyTorch | dmltool / PyTorch |")
    print("|---|---:|---:|---:|")
    for b in bench["benchmarks"]:
        if b.get("run_type") != "iteration" or not b["name"].endswith("/gpu/manual_time"):
            continue
        key = workload_key(b["name"])
        theirs = torch.get(key)
        if "ops_per_second" in b and theirs and "TOPS" in theirs:
            ours, other, unit = b["ops_per_second"] / 1e12, theirs["TOPS"], "TOPS"
        else:
            ours, other, unit = b["bytes_per_second"] / 1e9, theirs["GBps"] if theirs else None, "GB/s"
        if other:
            print(f"| {key} | {ours:.1f} {unit} | {other:.1f} {unit} | {ours / other:.2f}x |")
        else:
            print(f"| {key} | {ours:.1f} {unit} | not measured | |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
