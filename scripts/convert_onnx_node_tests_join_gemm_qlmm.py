#!/usr/bin/python3
"""Convert ONNX backend node tests of Concat, Gemm and QLinearMatMul into dmltool cases (JOIN, GEMM,
QUANTIZED_LINEAR_MATRIX_MULTIPLY).

Source: the ONNX project's backend node tests (onnx/backend/test/data/node/<test>/model.onnx and
test_data_set_0/{input,output}_N.pb), as Debian ships them in libonnx-testdata (ONNX 1.12.0), read with Debian's
python3-onnx. Only the converted data is committed: cases/onnx_node_tests_join_gemm_qlmm.json and its HDF5 file.
The expected outputs are ONNX's own (computed by ONNX's numpy reference), a second independent oracle beside
scripts/dml_oracle.py.

Each single-node model becomes one DirectML desc the way ONNX Runtime's DirectML execution provider maps it:
- Concat -> JOIN (DmlOperatorConcat.cpp): Axis with negative values counted from the end; the tensors keep their
  ONNX ranks (1 to 3: feature level 4_1).
- Gemm -> GEMM (DmlOperatorGemm.cpp): 2-D A and B with transA/transB -> TransA/TransB, alpha/beta -> Alpha/Beta;
  C (a matrix, a row vector, a scalar or one element) takes the output's sizes, read with stride 0 along the
  dimensions it broadcasts (feature level 4_0).
- QLinearMatMul -> QUANTIZED_LINEAR_MATRIX_MULTIPLY (DmlOperatorQLinearMatMul.cpp): per-tensor scales and zero
  points as one-element tensors of the operands' rank.

    convert_onnx_node_tests_join_gemm_qlmm.py            write the case file
    convert_onnx_node_tests_join_gemm_qlmm.py --check    convert into a temporary directory and compare (exit 1 on
                                                         a difference, 77 when the ONNX test data is not installed)
"""

import argparse
import importlib.util
import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import gen_cases as gc  # noqa: E402

NODE_DIR = "/usr/share/libonnx-testdata/data/node"
STEM = "onnx_node_tests_join_gemm_qlmm"
ONNX_OPS = {"Concat", "Gemm", "QLinearMatMul"}


def load_test(test_dir):
    import onnx
    from onnx import numpy_helper
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    if len(model.graph.node) != 1 or model.graph.node[0].op_type not in ONNX_OPS:
        return None
    node = model.graph.node[0]
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    data_dir = os.path.join(test_dir, "test_data_set_0")

    def read(prefix, count):
        arrays = []
        for i in range(count):
            tensor = onnx.TensorProto()
            with open(os.path.join(data_dir, f"{prefix}_{i}.pb"), "rb") as f:
                tensor.ParseFromString(f.read())
            arrays.append(numpy_helper.to_array(tensor))
        return arrays

    return node.op_type, attrs, read("input", len([n for n in node.input if n])), read("output", 1)[0]


def dtype_name(arr):
    return next(k for k, v in gc.DTYPES.items() if np.dtype(v) == arr.dtype)


def convert(op_type, attrs, inputs, output):
    """-> (DML operator, [(member or (array member, index), array, layout)], scalar attributes, feature level)."""
    if op_type == "Concat":
        axis = int(attrs["axis"])
        if axis < 0:
            axis += output.ndim
        tensors = [(("InputTensors", i), x, gc.PACKED) for i, x in enumerate(inputs)]
        return "JOIN", tensors, {"Axis": axis}, "4_1"
    if op_type == "Gemm":
        a, b = inputs[0], inputs[1]
        tensors = [("ATensor", a, gc.PACKED), ("BTensor", b, gc.PACKED)]
        if len(inputs) > 2:
            c = inputs[2].reshape([1] * (2 - inputs[2].ndim) + list(inputs[2].shape))
            bcast = [d for d in range(2) if c.shape[d] == 1 and output.shape[d] != 1]
            tensors.append(("CTensor", np.ascontiguousarray(np.broadcast_to(c, output.shape)),
                            gc.Layout(bcast=bcast) if bcast else gc.PACKED))
        scalars = {"TransA": "DML_MATRIX_TRANSFORM_" + ("TRANSPOSE" if attrs.get("transA", 0) else "NONE"),
                   "TransB": "DML_MATRIX_TRANSFORM_" + ("TRANSPOSE" if attrs.get("transB", 0) else "NONE"),
                   "Alpha": float(attrs.get("alpha", 1.0)), "Beta": float(attrs.get("beta", 1.0))}
        return "GEMM", tensors, scalars, "4_0"
    # QLinearMatMul: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
    a, a_scale, az, b, b_scale, bz, y_scale, yz = inputs
    one = [1] * a.ndim
    tensors = [("ATensor", a, gc.PACKED), ("AScaleTensor", a_scale.reshape(one), gc.PACKED),
               ("AZeroPointTensor", az.reshape(one), gc.PACKED), ("BTensor", b, gc.PACKED),
               ("BScaleTensor", b_scale.reshape(one), gc.PACKED), ("BZeroPointTensor", bz.reshape(one), gc.PACKED),
               ("OutputScaleTensor", y_scale.reshape(one), gc.PACKED),
               ("OutputZeroPointTensor", yz.reshape(one), gc.PACKED)]
    return "QUANTIZED_LINEAR_MATRIX_MULTIPLY", tensors, {}, "2_1" if a.ndim == 4 else "4_0"


def build(node_dir):
    cf = gc.CaseFile(STEM)
    for test in sorted(os.listdir(node_dir)):
        if test.endswith("_expanded"):
            continue
        loaded = load_test(os.path.join(node_dir, test))
        if loaded is None:
            continue
        op_type, attrs, inputs, output = loaded
        op, tensors, scalars, fl = convert(op_type, attrs, inputs, output)
        name = f"onnx/{test}"
        desc, sources = {}, {}
        for member, arr, layout in tensors:
            tensor = gc.tensor_desc(dtype_name(arr), list(arr.shape), layout)
            if isinstance(member, tuple):
                key, index = member
                desc.setdefault(key, []).append(tensor)
                sources.setdefault(key, []).append(cf.h5(f"/{name}/{key}/{index}", arr))
            else:
                desc[member] = tensor
                sources[member] = cf.h5(f"/{name}/{member}", arr)
        desc["OutputTensor"] = gc.tensor_desc(dtype_name(output), list(output.shape), is_output=True)
        desc.update(scalars)
        cf.cases.append({"name": name, "description": f"ONNX backend node test {test} ({op_type})",
                         "featureLevel": fl, "operator": {"type": f"DML_OPERATOR_{op}", "desc": desc},
                         "inputs": sources, "expected": {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", output)},
                         "tags": ["onnx-node-test"]})
    return cf


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--node-dir", default=NODE_DIR, help="ONNX node test directory (default: Debian's)")
    ap.add_argument("--out", default=gc.REPO_CASES, help="output directory (default: the repository's cases/)")
    ap.add_argument("--check", action="store_true", help="compare a fresh conversion with --out")
    args = ap.parse_args()
    if importlib.util.find_spec("onnx") is None or not os.path.isdir(args.node_dir):
        print(f"{os.path.basename(__file__)}: python3-onnx or {args.node_dir} is missing (apt-get install "
              "python3-onnx libonnx-testdata)", file=sys.stderr)
        return 77 if args.check else 2
    cf = build(args.node_dir)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            cf.write(tmp)
            problems = gc.compare(tmp, args.out, [cf])
        if problems:
            print(f"{os.path.basename(__file__)} --check: out of date:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 1
        print(f"{os.path.basename(__file__)} --check: {len(cf.cases)} cases match")
        return 0
    cf.write(args.out)
    print(f"{STEM}.json: {len(cf.cases)} cases converted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
