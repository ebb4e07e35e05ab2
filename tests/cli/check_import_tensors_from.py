#!/usr/bin/env python3
"""`dmltool import --tensors-from` through the CLI, without ONNX Runtime: a two-node model built here (QLinearAdd of
an activation and a broadcast activation, then MaxPool), its tensors computed in numpy; the import writes one case
per node with the tensors as inputs and expected outputs, and `dmltool run --backend cpu` passes them. A planted
wrong output fails the run. Bad tensors files (missing, not HDF5, a dataset missing, of another type, of another
shape) are one-line errors naming the flag, the file, the ONNX tensor and what was expected and found, exit 2.

    check_import_tensors_from.py DMLTOOL WORKDIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
from ort_per_layer import tensor_dataset  # noqa: E402  (the importer's dataset names)


def run(command, expect_rc):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if result.returncode != expect_rc:
        sys.exit(f"FAIL: {' '.join(command)}: exit {result.returncode}, expected {expect_rc}:\n{result.stdout[-3000:]}")
    return result.stdout


def build_model(path):
    scalars = {"a_scale": 0.05, "b_scale": 0.1, "y_scale": 0.12}
    inits = [numpy_helper.from_array(np.array(v, np.float32), k) for k, v in scalars.items()]
    inits += [numpy_helper.from_array(np.array(z, np.uint8), k) for k, z in (("a_zp", 128), ("b_zp", 100),
                                                                            ("y_zp", 90))]
    add = helper.make_node("QLinearAdd", ["a/in", "a_scale", "a_zp", "b.in", "b_scale", "b_zp", "y_scale", "y_zp"],
                           ["sum"], name="add", domain="com.microsoft")
    pool = helper.make_node("MaxPool", ["sum"], ["pooled"], name="pool", kernel_shape=[2, 2], strides=[2, 2])
    graph = helper.make_graph(
        [add, pool], "tiny",
        [helper.make_tensor_value_info("a/in", TensorProto.UINT8, [1, 3, 4, 4]),
         helper.make_tensor_value_info("b.in", TensorProto.UINT8, [1, 3, 1, 1])],
        [helper.make_tensor_value_info("pooled", TensorProto.UINT8, [1, 3, 2, 2])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                    helper.make_opsetid("com.microsoft", 1)])
    onnx.save(model, path)


def tensors(path, drop=None, retype=None, reshape=None):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 256, (1, 3, 4, 4), dtype=np.uint8)
    b = rng.integers(0, 256, (1, 3, 1, 1), dtype=np.uint8)
    exact = ((a.astype(np.float64) - 128) * np.float32(0.05) + (b.astype(np.float64) - 100) * np.float32(0.1)) \
        / np.float32(0.12)
    total = np.clip(np.rint(exact) + 90, 0, 255).astype(np.uint8)
    pooled = total.reshape(1, 3, 2, 2, 2, 2).max(axis=(3, 5))
    data = {"a/in": a, "b.in": b, "sum": total, "pooled": pooled}
    with h5py.File(path, "w") as f:
        for name, value in data.items():
            if name == drop:
                continue
            if name == retype:
                value = value.astype(np.float32)
            if name == reshape:
                value = value.reshape(1, 3, 16)
            f[tensor_dataset(name)] = value
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dmltool")
    ap.add_argument("workdir")
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    model = os.path.join(args.workdir, "tiny.onnx")
    build_model(model)
    out = os.path.join(args.workdir, "out")
    good = tensors(os.path.join(args.workdir, "good.h5"))
    run([args.dmltool, "import", model, "--out", out, "--tensors-from", good], 0)
    case_file = os.path.join(out, "tiny.json")
    with open(case_file) as f:
        cases = json.load(f)["cases"]
    if [c["name"] for c in cases] != ["tiny/element_wise_quantized_linear_add/add", "tiny/max_pooling2/pool"] or \
            any("expected" not in c or "tensors-from" not in c["tags"] for c in cases):
        sys.exit(f"FAIL: expected two cases with expected outputs, found {json.dumps(cases)[:2000]}")
    run([args.dmltool, "run", "--backend", "cpu", case_file], 0)
    # A planted wrong output: the reference must fail it.
    with h5py.File(os.path.join(out, "tiny.h5"), "r+") as f:
        f["/tiny/max_pooling2/pool/expected/OutputTensor"][0, 1, 1, 1] += 3
    run([args.dmltool, "run", "--backend", "cpu", case_file], 1)

    bad = {
        "absent.h5": (None, "expected an HDF5 file of the network's tensors, found no such file"),
        "not_hdf5.h5": ("text", "not an HDF5 file"),
        "no_sum.h5": (dict(drop="sum"), "ONNX tensor 'sum' (output 'OutputTensor' of node 'add'): HDF5 file"),
        "float_b.h5": (dict(retype="b.in"), "ONNX tensor 'b.in' (input 'BTensor' of node 'add'): HDF5 file "),
        "flat_sum.h5": (dict(reshape="sum"), "expected shape {1,3,4,4} (or 1-D with 48 elements), found {1,3,16}"),
    }
    for name, (content, expected) in bad.items():
        path = os.path.join(args.workdir, name)
        if content == "text":
            with open(path, "w") as f:
                f.write("not HDF5\n")
        elif content is not None:
            tensors(path, **content)
        output = run([args.dmltool, "import", model, "--out", out, "--tensors-from", path], 2)
        lines = output.strip().splitlines()
        if name == "float_b.h5":
            expected_too = "expected UINT8 elements (the tensor's DataType), found float32"
            if expected_too not in output:
                sys.exit(f"FAIL: --tensors-from {name}: expected '{expected_too}', found:\n{output}")
        if len(lines) != 1 or not lines[0].startswith(f"dmltool: error: --tensors-from {path}") or expected not in lines[0]:
            sys.exit(f"FAIL: --tensors-from {name}: expected one line naming the file with '{expected}', found:\n{output}")
    print(f"check_import_tensors_from: the cases pass, a planted wrong output fails, {len(bad)} bad tensors files refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
