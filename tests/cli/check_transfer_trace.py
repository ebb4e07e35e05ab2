#!/usr/bin/env python3
"""DMLTOOL_TRANSFER_TRACE=1 times every upload's and download's steps on stderr (a diagnostics switch for slow data
paths such as Wine's d3d12 on NVIDIA): one line per transfer naming the buffer, its bytes and each step in ms.
Without the variable nothing is printed. Usage: check_transfer_trace.py DMLTOOL OUT_DIR"""
import os
import re
import subprocess
import sys

dmltool, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
case = os.path.join(out, "identity.json")
with open(case, "w") as f:
    f.write('{"cases": [{"name": "trace/identity", "operator": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {'
            '"InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 4, 64]},'
            '"OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 4, 64]}}},'
            '"inputs": {"InputTensor": {"random": {"min": -1, "max": 1}}}}]}')


def run(env_value):
    env = dict(os.environ)
    env.pop("DMLTOOL_TRANSFER_TRACE", None)
    if env_value is not None:
        env["DMLTOOL_TRANSFER_TRACE"] = env_value
    p = subprocess.run([dmltool, "run", case, "--backend", "gpu"], env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"FAIL: dmltool run exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stderr


traced = run("1")
upload = re.compile(r"^dmltool: upload 'input 0' 1024 B: create [0-9.]+ ms map [0-9.]+ ms memcpy [0-9.]+ ms "
                    r"unmap [0-9.]+ ms copy and wait [0-9.]+ ms$", re.M)
download = re.compile(r"^dmltool: download 'output' 1024 B: host vector [0-9.]+ ms create [0-9.]+ ms "
                      r"copy and wait [0-9.]+ ms map [0-9.]+ ms memcpy [0-9.]+ ms$", re.M)
if not upload.search(traced):
    sys.exit("FAIL: no timed upload of the 1024-byte input in:\n" + traced)
if not download.search(traced):
    sys.exit("FAIL: no timed download of the 1024-byte output in:\n" + traced)
for quiet in (None, "0"):
    untraced = run(quiet)
    if "dmltool: upload" in untraced or "dmltool: download" in untraced:
        sys.exit(f"FAIL: transfers traced with DMLTOOL_TRANSFER_TRACE={quiet}")
print("PASS: transfers traced only with DMLTOOL_TRANSFER_TRACE=1")
