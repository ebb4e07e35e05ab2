#!/usr/bin/env python3
"""`dmltool generate` writes no case whose expectation cannot discriminate: run on the GPU kernels against the
reference, no generated case may be MISTRUSTED (a constant expectation, or a constant output that every element
accepts; core/compare.h's zero-trust rule). The operators are those whose draws were MISTRUSTED before generate
redrew such cases (lavapipe campaign, results/lavapipe_element_wise_campaign_2026-11-29.txt: 19 at --count 300 seed
20261201, 158 at --count 3000 seed 20261203), over a range of seeds.

    check_generate_discriminates.py DMLTOOL WORKDIR [--count N] [--seeds S1,S2,...]

Exit 0 when no case is MISTRUSTED and every case ran, 1 otherwise.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

OPERATORS = ["ACTIVATION_HARD_SIGMOID", "ACTIVATION_PARAMETRIC_SOFTPLUS", "ACTIVATION_SOFTPLUS", "ACTIVATION_GELU",
             "ELEMENT_WISE_COS", "ELEMENT_WISE_SIN", "ELEMENT_WISE_TAN", "ELEMENT_WISE_ACOSH", "ELEMENT_WISE_COSH",
             "ELEMENT_WISE_QUANTIZE_LINEAR"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dmltool")
    parser.add_argument("workdir")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seeds", default="20261201,20261202")
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    mistrusted, total = [], 0
    for seed in args.seeds.split(","):
        out = os.path.join(args.workdir, seed)
        for op in OPERATORS:
            result = subprocess.run([args.dmltool, "generate", "--operator", op, "--count", str(args.count), "--seed", seed,
                                     out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
            if result.returncode != 0:
                sys.exit(f"FAIL: generate {op} seed {seed}: exit {result.returncode}:\n{result.stdout[-2000:]}")
        files = sorted(os.path.join(out, f) for f in os.listdir(out))
        report = os.path.join(args.workdir, f"report_{seed}.json")
        result = subprocess.run([args.dmltool, "run", "--backend", "both", "--allow-unsupported", "--json", report] + files,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        try:
            with open(report, encoding="utf-8") as f:
                cases = json.load(f)["cases"]
        except (OSError, ValueError, KeyError) as error:
            sys.exit(f"FAIL: run wrote no report ({error}), exit {result.returncode}:\n{result.stdout[-4000:]}")
        total += len(cases)
        mistrusted += [x for x in cases if x["status"] == "MISTRUSTED"]
        if len(cases) != len(OPERATORS) * args.count:
            sys.exit(f"FAIL: seed {seed}: the report has {len(cases)} cases, expected {len(OPERATORS) * args.count}")
    for x in mistrusted:
        print(f"FAIL: MISTRUSTED {x['name']}: {x.get('reason', '')[:300]}")
    print(f"check_generate_discriminates: {total} cases, {len(mistrusted)} mistrusted")
    return 1 if mistrusted else 0


if __name__ == "__main__":
    sys.exit(main())
