#!/usr/bin/python3
"""Convert ONNX backend node tests of element-wise/activation operators into dmltool cases.

Source: the ONNX project's backend node tests (onnx/backend/test/data/node/<test>/model.onnx and
test_data_set_0/{input,output}_N.pb), as Debian ships them in the package libonnx-testdata
(/usr/share/libonnx-testdata/data/node, ONNX 1.12.0), read with Debian's python3-onnx. Only the converted data is
committed: cases/onnx_node_tests.json and cases/data/onnx_node_tests.h5.

Each single-node ONNX model becomes one DirectML desc the way ONNX Runtime's DirectML execution provider builds it
(file onnxruntime/core/providers/dml/DmlExecutionProvider/src/Operators/...):
- DmlOperatorElementWise.cpp: Add/Sub/Mul/Div, Abs, Exp, Log, Sqrt, Pow, Sin/Cos/Tan and inverses, hyperbolics,
  Erf, Reciprocal, Floor/Ceil, Round (HALVES_TO_NEAREST_EVEN), Sign, IsNaN, IsInf (detect_* -> InfinityMode),
  Not/And/Or/Xor, Equal/Greater/Less/GreaterOrEqual/LessOrEqual, BitShift (direction), Mod (fmod=1 ->
  MODULUS_TRUNCATE, fmod=0 -> MODULUS_FLOOR), Where (-> ELEMENT_WISE_IF), Clip (-> CLIP1 with MinMaxDataType,
  absent bounds = the type's extremes), Max/Min/Mean (two inputs; one input -> IDENTITY), Identity,
  QuantizeLinear/DequantizeLinear (scale and zero point broadcast to the input's sizes through strides);
- DmlOperatorNeg.cpp: Neg -> ELEMENT_WISE_NEGATE;
- DmlOperatorActivation.cpp: Relu, LeakyRelu, Elu, Selu (-> SCALED_ELU), Celu, Sigmoid, HardSigmoid, HardSwish
  (Alpha 1/6, Beta 0.5), Tanh (-> ACTIVATION_TANH), Softplus (Steepness 1), Softsign, ThresholdedRelu, Shrink
  (lambd -> Threshold), PRelu (-> PARAMETERIZED_RELU), Softmax/LogSoftmax/Hardmax (opset 13: SOFTMAX1-style Axes
  {axis}; earlier opsets: the trailing axes from axis on, ONNX's 2-D coercion).
ONNX's numpy broadcasting becomes DirectML's: every tensor takes the output's sizes (padded to 4 dimensions, as the
provider pads), an input dimension of size 1 read with stride 0. Tests whose types DirectML's element-wise
operators do not take here (float64, 64-bit integers, strings, mixed-type Pow), or that need more than two Mean/
Max/Min inputs, are skipped and listed.

    convert_onnx_node_tests.py            write cases/onnx_node_tests.json + cases/data/onnx_node_tests.h5
    convert_onnx_node_tests.py --check    convert into a temporary directory and compare (exit 1 on a difference,
                                          77 when the ONNX test data is not installed)
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
STEM = "onnx_node_tests"

ONNX_TO_DML_TYPE = {1: "FLOAT32", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32", 9: "UINT8",
                    10: "FLOAT16", 12: "UINT32"}

SIMPLE = {  # ONNX op -> DML operator type (inputs map in order onto the desc's input members)
    "Add": "ELEMENT_WISE_ADD", "Sub": "ELEMENT_WISE_SUBTRACT", "Mul": "ELEMENT_WISE_MULTIPLY",
    "Div": "ELEMENT_WISE_DIVIDE", "Abs": "ELEMENT_WISE_ABS", "Exp": "ELEMENT_WISE_EXP", "Log": "ELEMENT_WISE_LOG",
    "Sqrt": "ELEMENT_WISE_SQRT", "Pow": "ELEMENT_WISE_POW", "Sin": "ELEMENT_WISE_SIN", "Cos": "ELEMENT_WISE_COS",
    "Tan": "ELEMENT_WISE_TAN", "Asin": "ELEMENT_WISE_ASIN", "Acos": "ELEMENT_WISE_ACOS",
    "Atan": "ELEMENT_WISE_ATAN", "Sinh": "ELEMENT_WISE_SINH", "Cosh": "ELEMENT_WISE_COSH",
    "Asinh": "ELEMENT_WISE_ASINH", "Acosh": "ELEMENT_WISE_ACOSH", "Atanh": "ELEMENT_WISE_ATANH",
    "Erf": "ELEMENT_WISE_ERF", "Reciprocal": "ELEMENT_WISE_RECIP", "Floor": "ELEMENT_WISE_FLOOR",
    "Ceil": "ELEMENT_WISE_CEIL", "Sign": "ELEMENT_WISE_SIGN", "IsNaN": "ELEMENT_WISE_IS_NAN",
    "Not": "ELEMENT_WISE_LOGICAL_NOT", "And": "ELEMENT_WISE_LOGICAL_AND", "Or": "ELEMENT_WISE_LOGICAL_OR",
    "Xor": "ELEMENT_WISE_LOGICAL_XOR", "Equal": "ELEMENT_WISE_LOGICAL_EQUALS",
    "Greater": "ELEMENT_WISE_LOGICAL_GREATER_THAN", "Less": "ELEMENT_WISE_LOGICAL_LESS_THAN",
    "GreaterOrEqual": "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL",
    "LessOrEqual": "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL", "Where": "ELEMENT_WISE_IF",
    "Neg": "ELEMENT_WISE_NEGATE", "Identity": "ELEMENT_WISE_IDENTITY",
    "Relu": "ACTIVATION_RELU", "Sigmoid": "ACTIVATION_SIGMOID", "Tanh": "ACTIVATION_TANH",
    "Softsign": "ACTIVATION_SOFTSIGN", "PRelu": "ACTIVATION_PARAMETERIZED_RELU",
}
INPUT_MEMBERS = {
    1: ["InputTensor"], 2: ["ATensor", "BTensor"],
    "ELEMENT_WISE_POW": ["InputTensor", "ExponentTensor"], "ELEMENT_WISE_IF": ["ConditionTensor", "ATensor", "BTensor"],
    "ACTIVATION_PARAMETERIZED_RELU": ["InputTensor", "SlopeTensor"],
    "ELEMENT_WISE_QUANTIZE_LINEAR": ["InputTensor", "ScaleTensor", "ZeroPointTensor"],
    "ELEMENT_WISE_DEQUANTIZE_LINEAR": ["InputTensor", "ScaleTensor", "ZeroPointTensor"],
}


class Skip(Exception):
    pass


def load_test(test_dir):
    import onnx
    from onnx import numpy_helper
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    if len(model.graph.node) != 1:
        raise Skip("more than one node")
    node = model.graph.node[0]
    if node.op_type not in KNOWN_ONNX_OPS or node.domain not in ("", "ai.onnx"):
        raise Skip("not an operator of these families")
    opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    data_dir = os.path.join(test_dir, "test_data_set_0")

    def read(prefix, count):
        arrays = []
        for i in range(count):
            tensor = onnx.TensorProto()
            with open(os.path.join(data_dir, f"{prefix}_{i}.pb"), "rb") as f:
                tensor.ParseFromString(f.read())
            arrays.append((tensor.data_type, numpy_helper.to_array(tensor)))
        return arrays

    inputs = read("input", len([n for n in node.input if n]))
    outputs = read("output", len(node.output))
    return node.op_type, opset, attrs, list(node.input), inputs, outputs


def dml_type(onnx_type):
    if onnx_type not in ONNX_TO_DML_TYPE:
        raise Skip(f"ONNX element type {onnx_type} has no DirectML element-wise counterpart here")
    return ONNX_TO_DML_TYPE[onnx_type]


def as_dml(arr, dt):
    return np.asarray(arr).astype(gc.DTYPES[dt])


def broadcast_layout(shape, out_shape):
    """Pad to out_shape's rank; dimensions of size 1 where the output is larger broadcast (stride 0)."""
    padded = [1] * (len(out_shape) - len(shape)) + list(shape)
    return [d for d, (s, o) in enumerate(zip(padded, out_shape)) if s == 1 and o != 1]


def dml_rank(shape):
    return [1] * max(0, 4 - len(shape)) + [int(s) for s in shape]


def convert(name, op_type, opset, attrs, input_names, inputs, outputs):
    """-> (DML operator type, [(member, array, broadcast dims)], attrs dict, output type, expected array)."""
    out_type, out = outputs[0]
    out_dt = dml_type(out_type)
    types = [dml_type(t) for t, _ in inputs]
    desc_attrs = {}
    arrays = [a for _, a in inputs]
    if op_type in ("Max", "Min", "Mean"):
        if len(arrays) > 2:
            raise Skip(f"{op_type} of {len(arrays)} inputs is a chain of DirectML operators")
        op = "ELEMENT_WISE_IDENTITY" if len(arrays) == 1 else f"ELEMENT_WISE_{op_type.upper()}"
    elif op_type in SIMPLE:
        op = SIMPLE[op_type]
        if op_type == "Pow" and types[0] != types[1]:
            raise Skip("Pow with mixed input types")
    elif op_type == "Round":
        op, desc_attrs = "ELEMENT_WISE_ROUND", {"RoundingMode": "DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN"}
    elif op_type == "IsInf":
        pos, neg = attrs.get("detect_positive", 1), attrs.get("detect_negative", 1)
        mode = "EITHER" if pos and neg else ("POSITIVE" if pos else "NEGATIVE")
        op, desc_attrs = "ELEMENT_WISE_IS_INFINITY", {"InfinityMode": f"DML_IS_INFINITY_MODE_{mode}"}
    elif op_type == "BitShift":
        direction = attrs["direction"].decode()
        op = f"ELEMENT_WISE_BIT_SHIFT_{direction}"
    elif op_type == "Mod":
        op = "ELEMENT_WISE_MODULUS_TRUNCATE" if attrs.get("fmod", 0) else "ELEMENT_WISE_MODULUS_FLOOR"
    elif op_type == "Clip":
        dt = types[0]
        info = np.finfo(gc.DTYPES[dt]) if dt.startswith("FLOAT") else np.iinfo(gc.DTYPES[dt])
        lo, hi = attrs.get("min", info.min), attrs.get("max", info.max)
        named = [n for n in input_names]
        if len(named) > 1 and named[1]:
            lo = arrays[1].item()
        if len(named) > 2 and named[2]:
            hi = arrays[2 if named[1] else 1].item()
        cast = float if dt.startswith("FLOAT") else int
        op, desc_attrs = "ELEMENT_WISE_CLIP1", {"MinMaxDataType": dt, "Min": cast(lo), "Max": cast(hi)}
        arrays, types = arrays[:1], types[:1]
    elif op_type == "LeakyRelu":
        op, desc_attrs = "ACTIVATION_LEAKY_RELU", {"Alpha": attrs.get("alpha", 0.01)}
    elif op_type == "Elu":
        op, desc_attrs = "ACTIVATION_ELU", {"Alpha": attrs.get("alpha", 1.0)}
    elif op_type == "Celu":
        op, desc_attrs = "ACTIVATION_CELU", {"Alpha": attrs.get("alpha", 1.0)}
    elif op_type == "Selu":
        op, desc_attrs = "ACTIVATION_SCALED_ELU", {"Alpha": attrs.get("alpha", 1.67326319217681884765625),
                                                   "Gamma": attrs.get("gamma", 1.05070102214813232421875)}
    elif op_type == "HardSigmoid":
        op, desc_attrs = "ACTIVATION_HARD_SIGMOID", {"Alpha": attrs.get("alpha", 0.2), "Beta": attrs.get("beta", 0.5)}
    elif op_type == "HardSwish":
        op, desc_attrs = "ACTIVATION_HARD_SWISH", {"Alpha": 1.0 / 6.0, "Beta": 0.5}
    elif op_type == "Softplus":
        op, desc_attrs = "ACTIVATION_SOFTPLUS", {"Steepness": 1.0}
    elif op_type == "ThresholdedRelu":
        op, desc_attrs = "ACTIVATION_THRESHOLDED_RELU", {"Alpha": attrs.get("alpha", 1.0)}
    elif op_type == "Shrink":
        op, desc_attrs = "ACTIVATION_SHRINK", {"Bias": attrs.get("bias", 0.0), "Threshold": attrs.get("lambd", 0.5)}
    elif op_type in ("Softmax", "LogSoftmax", "Hardmax"):
        rank = arrays[0].ndim
        axis = attrs.get("axis", -1 if opset >= 13 else 1)
        axis = axis + rank if axis < 0 else axis
        axes = [axis] if opset >= 13 else list(range(axis, rank))
        pad = 4 - rank if rank < 4 else 0
        base = {"Softmax": "SOFTMAX1", "LogSoftmax": "LOG_SOFTMAX1", "Hardmax": "HARDMAX1"}[op_type]
        op = f"ACTIVATION_{base}"
        desc_attrs = {"AxisCount": len(axes), "Axes": [a + pad for a in axes]}
    elif op_type in ("QuantizeLinear", "DequantizeLinear"):
        x, scale = arrays[0], arrays[1]
        zp = arrays[2] if len(arrays) > 2 else np.zeros_like(scale, dtype=np.uint8)
        axis = attrs.get("axis", 1)
        if scale.ndim == 1 and x.ndim > 1:  # per-axis: a vector along `axis`
            shape = [1] * x.ndim
            shape[axis] = scale.size
            scale, zp = scale.reshape(shape), zp.reshape(shape)
        arrays = [x, scale, zp]
        zp_type = dml_type(inputs[2][0]) if len(inputs) > 2 else "UINT8"
        types = [types[0], "FLOAT32", zp_type]
        op = f"ELEMENT_WISE_{'QUANTIZE' if op_type == 'QuantizeLinear' else 'DEQUANTIZE'}_LINEAR"
    else:
        raise Skip(f"{op_type} is not mapped onto the element-wise/activation families")
    if any(t == "FLOAT64" for t in types):
        raise Skip("float64")
    members = INPUT_MEMBERS.get(op, INPUT_MEMBERS.get(len(arrays)))
    out_shape = dml_rank(out.shape)
    tensors = []
    for member, arr, dt in zip(members, arrays, types):
        full = np.broadcast_to(np.asarray(arr).reshape([1] * (len(out.shape) - np.ndim(arr)) + list(np.shape(arr))),
                               out.shape)
        bcast = broadcast_layout(np.shape(arr), out.shape)
        pad = len(out_shape) - len(out.shape)
        tensors.append((member, as_dml(np.ascontiguousarray(full).reshape(out_shape), dt), [d + pad for d in bcast]))
    return op, tensors, desc_attrs, out_dt, as_dml(out, out_dt).reshape(out_shape)


def build(node_dir):
    cf = gc.CaseFile(STEM)
    skipped = []
    for test in sorted(os.listdir(node_dir)):
        if test.endswith("_expanded"):
            continue  # the same test written as a graph of smaller ops
        try:
            op_type, opset, attrs, names, inputs, outputs = load_test(os.path.join(node_dir, test))
        except (OSError, IndexError, ValueError, Skip):  # ValueError: sequence/optional values, not tensors
            continue
        try:
            op, tensors, desc_attrs, out_dt, expected = convert(test, op_type, opset, attrs, names, inputs, outputs)
        except Skip as why:
            if op_type in KNOWN_ONNX_OPS:
                skipped.append(f"{test}: {why}")
            continue
        name = f"onnx/{test}"
        desc, sources = {}, {}
        for member, arr, bcast in tensors:
            dt = next(k for k, v in gc.DTYPES.items() if np.dtype(v) == arr.dtype)
            desc[member] = gc.tensor_desc(dt, list(arr.shape), gc.Layout(bcast=bcast) if bcast else gc.PACKED)
            sources[member] = cf.h5(f"/{name}/{member}", arr)
        desc["OutputTensor"] = gc.tensor_desc(out_dt, list(expected.shape), is_output=True)
        desc.update(desc_attrs)
        case = {"name": name, "description": f"ONNX backend node test {test} (opset {opset} {op_type})",
                "operator": {"type": f"DML_OPERATOR_{op}", "desc": desc}, "inputs": sources,
                "expected": {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", expected)},
                "tags": ["onnx-node-test"]}
        cf.cases.append(case)  # ONNX's own data: a constant expectation (e.g. all-false IsInf) is kept as given
    return cf, skipped


def crosscheck(cf):
    """ONNX's expected outputs (numpy, mostly float32 arithmetic) against the float64 oracle rounded once."""
    import dml_oracle_element_wise as ew
    worst = []
    for case in cf.cases:
        desc = case["operator"]["desc"]
        op = case["operator"]["type"].replace("DML_OPERATOR_", "")
        tensors = {m: cf.datasets[src["dataset"]] for m, src in case["inputs"].items()}
        attrs = {k: v for k, v in desc.items() if not k.endswith("Tensor")}
        want = cf.datasets[case["expected"]["OutputTensor"]["dataset"]]
        got = ew.to_output(ew.evaluate(op, tensors, attrs, want.dtype), want.dtype)
        worst.append((ew.ulp_distance(got, want), case["name"]))
    for d, name in sorted(worst, reverse=True)[:25]:
        print(f"{d:10.0f} ulp  {name}")
    print(f"{sum(1 for d, _ in worst if d == 0)} of {len(worst)} cases agree exactly")
    return 0


KNOWN_ONNX_OPS = set(SIMPLE) | {"Max", "Min", "Mean", "Round", "IsInf", "BitShift", "Mod", "Clip", "LeakyRelu", "Elu",
                                "Celu", "Selu", "HardSigmoid", "HardSwish", "Softplus", "ThresholdedRelu", "Shrink",
                                "Softmax", "LogSoftmax", "Hardmax", "QuantizeLinear", "DequantizeLinear"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--node-dir", default=NODE_DIR, help="ONNX node test directory (default: Debian's)")
    ap.add_argument("--out", default=gc.REPO_CASES, help="output directory (default: the repository's cases/)")
    ap.add_argument("--check", action="store_true", help="compare a fresh conversion with --out")
    ap.add_argument("--crosscheck", action="store_true",
                    help="print, per case, ONNX's expectation against dml_oracle_element_wise (in ulps)")
    args = ap.parse_args()
    if importlib.util.find_spec("onnx") is None:
        print("convert_onnx_node_tests: python3-onnx is not installed (apt-get install python3-onnx "
              "libonnx-testdata)", file=sys.stderr)
        return 77 if args.check else 2
    if not os.path.isdir(args.node_dir):
        print(f"convert_onnx_node_tests: {args.node_dir} not found (apt-get install libonnx-testdata)",
              file=sys.stderr)
        return 77 if args.check else 2
    cf, skipped = build(args.node_dir)
    if args.crosscheck:
        return crosscheck(cf)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            cf.write(tmp)
            problems = gc.compare(tmp, args.out, [cf])
        if problems:
            print("convert_onnx_node_tests --check: out of date:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 1
        print(f"convert_onnx_node_tests --check: {len(cf.cases)} cases match")
        return 0
    cf.write(args.out)
    print(f"{STEM}.json: {len(cf.cases)} cases converted; {len(skipped)} tests of mapped operators skipped:")
    for line in skipped:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
