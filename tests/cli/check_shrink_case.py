#!/usr/bin/env python3
"""scripts/shrink_case.py on a planted failure that needs no device: a strided DEPTH_TO_SPACE1 case of 256 input
values, all 0 but element 200 ([1,4,2,0]), whose `expected` is the constant 0: only that element fails "reference
vs expected" on --backend cpu, and most smaller variants drop it and pass. The shrinker must keep it failing while
making it much smaller: the repro validates, still FAILS, has at most 1/8 of the input elements and used at most
--max-runs runs. A case that passes is refused (exit 1).

    check_shrink_case.py DMLTOOL SHRINK_CASE_PY WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

PLANTED = {
    "name": "planted/d2s_expected_zero",
    "operator": {"type": "DML_OPERATOR_DEPTH_TO_SPACE1", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [2, 8, 4, 4], "Strides": [160, 20, 5, 1]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 2, 8, 8], "Strides": [160, 80, 10, 1]},
        "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}},
    "inputs": {"InputTensor": {"values": [7 if i == 200 else 0 for i in range(256)]}},
    "expected": {"OutputTensor": {"constant": 0}},
}


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)


def fail(message):
    sys.exit("FAIL: " + message)


def main():
    dmltool, shrinker, workdir = sys.argv[1:4]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    planted = os.path.join(workdir, "planted.json")
    with open(planted, "w", encoding="utf-8") as f:
        json.dump({"cases": [PLANTED]}, f)
    repro = os.path.join(workdir, "repro", "planted.json")
    shrink = run([sys.executable, shrinker, "--dmltool", dmltool, "--backend", "cpu", "--max-runs", "40",
                  "--out", repro, planted])
    print(shrink.stdout)
    if shrink.returncode != 0:
        fail(f"shrink_case.py exit {shrink.returncode}")
    match = re.search(r": (\d+) runs, 256 -> (\d+) input elements", shrink.stdout)
    if not match:
        fail("no summary line")
    runs, elements = int(match.group(1)), int(match.group(2))
    if runs > 40:
        fail(f"{runs} runs, more than --max-runs 40")
    if elements > 256 // 8:
        fail(f"shrunk only to {elements} input elements")
    with open(repro, encoding="utf-8") as f:
        small = json.load(f)["cases"][0]
    if len(small["inputs"]["InputTensor"]["values"]) != elements:
        fail("the repro's values do not match its size")
    validate = run([dmltool, "validate", repro])
    if validate.returncode != 0:
        fail("the repro does not validate:\n" + validate.stdout)
    rerun = run([dmltool, "run", "--backend", "cpu", repro])
    if rerun.returncode != 1 or "[FAILED]" not in rerun.stdout:
        fail(f"the repro does not fail (exit {rerun.returncode}):\n{rerun.stdout}")
    # A case that passes has nothing to shrink.
    passing = dict(PLANTED, expected={})
    with open(planted, "w", encoding="utf-8") as f:
        json.dump({"cases": [passing]}, f)
    refused = run([sys.executable, shrinker, "--dmltool", dmltool, "--backend", "cpu", "--out", repro, planted])
    if refused.returncode != 1 or "does not fail" not in refused.stdout:
        fail(f"a passing case: exit {refused.returncode}, expected 1 with 'does not fail':\n{refused.stdout}")
    print(f"check_shrink_case: 256 -> {elements} input elements in {runs} runs; the repro still fails")
    return 0


if __name__ == "__main__":
    sys.exit(main())
