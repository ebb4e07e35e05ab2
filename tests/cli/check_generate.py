#!/usr/bin/env python3
"""`dmltool generate` end to end: generated cases validate and run (the CPU reference as the oracle), the same seed
writes byte-identical files, another seed other files, and one operator's stream does not depend on --count.

    check_generate.py DMLTOOL WORKDIR BACKEND [--count N] [--seed S] [--known FINDINGS]

BACKEND: `both` (the GPU kernels against the reference; lavapipe in CI) or `cpu` (no device: the cases only run on
the reference). Every case must pass except those FINDINGS (tests/cli/generate_known_findings.txt) explains: a
line `OPERATOR | STATUS | regex` matches a non-passing case of that operator and status whose every reported
mismatch ("expected X got Y") matches the regex. A finding that matches no case fails too (stale: fixed, remove it),
so the list only shrinks by fixing bugs. Exit 0 when all holds, 1 otherwise.
"""
import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys

FILES = ["depth_to_space1.json", "split.json", "join.json", "resample.json", "quantized_linear_convolution.json", "gemm.json",
         "quantized_linear_matrix_multiply.json"]


def run(command, expect_rc=0):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if result.returncode != expect_rc:
        sys.exit(f"FAIL: {' '.join(command)}: exit {result.returncode}, expected {expect_rc}:\n{result.stdout[-4000:]}")
    return result.stdout


def load_findings(path):
    findings = []
    if not path:
        return findings
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|", 2)]
            if len(fields) != 3:
                sys.exit(f"{path}:{number}: expected 'OPERATOR | STATUS | regex', found {line!r}")
            findings.append({"op": fields[0], "status": fields[1], "regex": re.compile(fields[2]), "line": number,
                             "hits": 0})
    return findings


def explained(case, findings):
    mismatches = [f"expected {m['expected']} got {m['got']}" for o in case.get("outputs", [])
                  for m in o.get("first_mismatches", [])]
    for finding in findings:
        if (finding["op"] == case["operator"] and finding["status"] == case["status"] and mismatches and
                all(finding["regex"].search(m) for m in mismatches)):
            finding["hits"] += 1
            return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dmltool")
    parser.add_argument("workdir")
    parser.add_argument("backend", choices=["both", "cpu"])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--known")
    args = parser.parse_args()
    dmltool = [args.dmltool]
    shutil.rmtree(args.workdir, ignore_errors=True)
    a, b, c, one = (os.path.join(args.workdir, x) for x in ("a", "b", "c", "one"))
    common = ["generate", "--operator", "all", "--count", str(args.count)]
    run(dmltool + common + ["--seed", str(args.seed), a])
    run(dmltool + common + ["--seed", str(args.seed), b])
    run(dmltool + common + ["--seed", str(args.seed + 1), c])
    for name in FILES:
        if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
            sys.exit(f"FAIL: seed {args.seed} wrote different {name} twice")
        if filecmp.cmp(os.path.join(a, name), os.path.join(c, name), shallow=False):
            sys.exit(f"FAIL: seeds {args.seed} and {args.seed + 1} wrote the same {name}")
    # One operator by its full name, fewer cases: the same first cases (each index has its own stream).
    run(dmltool + ["generate", "--operator", "DML_OPERATOR_SPLIT", "--count", "3", "--seed", str(args.seed), one])
    if os.listdir(one) != ["split.json"]:
        sys.exit(f"FAIL: --operator DML_OPERATOR_SPLIT wrote {os.listdir(one)}")
    with open(os.path.join(one, "split.json"), encoding="utf-8") as f1, open(os.path.join(a, "split.json"), encoding="utf-8") as f2:
        if json.load(f1)["cases"] != json.load(f2)["cases"][:3]:
            sys.exit("FAIL: --count 3 did not write the first 3 cases of --count N")

    files = [os.path.join(a, name) for name in FILES]
    total = len(FILES) * args.count
    out = run(dmltool + ["validate"] + files)
    if f"validated {total} cases: {total} valid, 0 unsupported, 0 invalid" not in out:
        sys.exit(f"FAIL: validate:\n{out[-4000:]}")
    report = os.path.join(args.workdir, "report.json")
    result = subprocess.run(dmltool + ["run", "--backend", args.backend, "--json", report] + files,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    try:
        with open(report, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"FAIL: run wrote no report ({error}), exit {result.returncode}:\n{result.stdout[-4000:]}")
    # Without a device the cases have nothing to compare (no expected outputs): SKIPPED before their inputs are
    # built (the run exits 5: it tested nothing).
    findings = load_findings(args.known) if args.backend == "both" else []
    ok = {"PASSED"} if args.backend == "both" else {"SKIPPED"}
    bad = [x for x in cases if x["status"] not in ok and not explained(x, findings)]
    for x in bad:
        print(f"FAIL: {x['status']} {x['name']}: {x.get('reason', '')[:600]}")
    stale = [f for f in findings if f["hits"] == 0]
    for f in stale:
        print(f"FAIL: {args.known}:{f['line']}: finding matches no case of this run (fixed? remove it)")
    known = sum(f["hits"] for f in findings)
    print(f"check_generate: {len(cases)} cases on --backend {args.backend}: "
          f"{sum(x['status'] in ok for x in cases)} {'passed' if args.backend == 'both' else 'skipped'}, {known} known findings, {len(bad)} unexplained")
    if len(cases) != total:
        sys.exit(f"FAIL: the report has {len(cases)} cases, expected {total}")
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
