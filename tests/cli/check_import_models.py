#!/usr/bin/env python3
"""`dmltool import` end to end on the generated test models (scripts/models/make_models.py): each import's summary
line is the expected one (tests/cli/import_summaries.txt: what dmltool maps today; an operator that lands changes
it), every written case validates, a sample of layers passes on the GPU kernels against the CPU reference, and a
truncated or foreign model is a one-line error with exit 2.

    check_import_models.py DMLTOOL WORKDIR [--regenerate]

--regenerate rewrites import_summaries.txt from this run (after adding an operator; review the diff).
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SUMMARIES = os.path.join(HERE, "import_summaries.txt")
MODELS = ["resnet50_v1.5_int8", "mobilenetv2_int8", "detector_neck_fp32"]
# A few layers of each model on --backend both: the stem, a bottleneck, a residual add, the (de)quantization, the pooling
# (max after the stem, the quantized global average) and the classifier (GEMM) of ResNet, a depthwise block, the global
# average pool and the classifier (QLinearMatMul) of MobileNetV2, everything the neck maps (small enough for lavapipe in CI).
SAMPLES = {"resnet50_v1.5_int8": "conv1|res5a_branch2b|res5c_add|quantize|pool|/gemm/",
           "mobilenetv2_int8": "block16_|/pool$|/quantized_linear_matrix_multiply/",
           "detector_neck_fp32": "."}


def run(command, expect_rc=0):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if result.returncode != expect_rc:
        sys.exit(f"FAIL: {' '.join(command)}: exit {result.returncode}, expected {expect_rc}:\n{result.stdout[-4000:]}")
    return result.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dmltool")
    ap.add_argument("workdir")
    ap.add_argument("--regenerate", action="store_true")
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    models, out = os.path.join(args.workdir, "models"), os.path.join(args.workdir, "imported")
    run(["/usr/bin/python3", os.path.join(REPO, "scripts", "models", "make_models.py"), "--out", models])

    lines = []
    for name in MODELS:
        output = run([args.dmltool, "import", os.path.join(models, name + ".onnx"), "--out", out, "--batch", "1"])
        last = output.strip().splitlines()[-1]
        if not last.startswith("import: " + name + ": "):
            sys.exit(f"FAIL: import {name}: the last line is not the summary: {last!r}")
        lines.append(last)
    if args.regenerate:
        with open(SUMMARIES, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {SUMMARIES}")
    else:
        with open(SUMMARIES) as f:
            expected = f.read().strip().splitlines()
        if lines != expected:
            sys.exit("FAIL: import summaries differ from tests/cli/import_summaries.txt (--regenerate after a reviewed "
                     "change):\n  got      " + "\n  got      ".join(lines) + "\n  expected " + "\n  expected ".join(expected))

    # --strict fails when anything is unsupported; exit 0 only when every node maps.
    strict_rc = 0 if " 0 unsupported" in lines[0] else 1
    run([args.dmltool, "import", os.path.join(models, MODELS[0] + ".onnx"), "--out", out, "--batch", "1", "--strict"],
        expect_rc=strict_rc)

    for name in MODELS:
        case_file = os.path.join(out, name + ".json")
        run([args.dmltool, "validate", case_file])
        summary = run([args.dmltool, "run", case_file, "--backend", "both", "--filter", SAMPLES[name]])
        if " 0 failed" not in summary or " passed" not in summary:
            sys.exit(f"FAIL: run {case_file}:\n{summary[-3000:]}")

    # Bad models: one line, exit 2, naming the file.
    with open(os.path.join(models, MODELS[1] + ".onnx"), "rb") as f:
        data = f.read()
    bad = {"truncated.onnx": data[: len(data) // 3], "foreign.onnx": b"PK\x03\x04 not a model at all\n"}
    for file, content in bad.items():
        path = os.path.join(args.workdir, file)
        with open(path, "wb") as f:
            f.write(content)
        output = run([args.dmltool, "import", path, "--out", out, "--batch", "1"], expect_rc=2)
        if len(output.strip().splitlines()) != 1 or file not in output or "not an ONNX model" not in output:
            sys.exit(f"FAIL: import {file}: expected one line naming the file, found:\n{output}")
    print(f"check_import_models: {len(MODELS)} models imported as expected, cases valid, samples passed, bad models refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
