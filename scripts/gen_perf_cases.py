#!/usr/bin/python3
"""Generate dmltool's benchmark cases: cases/perf/perf.json (the perf suite of issue 4) and cases/perf/smoke.json
(the same kinds of workloads on tiny shapes, for the CI test of `dmltool bench`).

Every input is a `random` source, so no data files: the cases carry no `expected`, and `dmltool bench` checks
the GPU against the CPU reference before it times a case. Names are
`perf/<op>/<variant>/<dtype>/<shape>_<parameters>`; scripts/gpu_machine/pytorch_baseline.py reads perf.json
and reports its PyTorch timings under the same names.

    gen_perf_cases.py            write cases/perf/*.json
    gen_perf_cases.py --out DIR  write into DIR
    gen_perf_cases.py --check    compare the committed files with a fresh generation (exit 1 if they differ)

Shapes stay below 4 GiB per tensor (32-bit addressing views) and need at most ~5 GiB of host memory per case.
"""

import argparse
import json
import math
import os
import sys
import zlib

REPO_PERF = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cases", "perf"))

SHORT_DTYPE = {"FLOAT32": "float32", "FLOAT16": "float16", "INT8": "int8", "UINT8": "uint8"}
ORDERS = {"dcr": "DEPTH_COLUMN_ROW", "crd": "COLUMN_ROW_DEPTH"}
MODES = {"nearest": "NEAREST_NEIGHBOR", "linear": "LINEAR"}


def dims(shape):
    return "x".join(str(d) for d in shape)


def random_source(name, dtype):
    """A random source whose seed depends only on the case name, so adding a case changes no other case."""
    low, high = {"FLOAT32": (-1, 1), "FLOAT16": (-1, 1), "INT8": (-128, 127), "UINT8": (0, 255)}[dtype]
    return {"random": {"seed": zlib.crc32(name.encode()) % 100000, "min": low, "max": high}}


def tensor(dtype, shape):
    return {"DataType": dtype, "Sizes": list(shape)}


def case(name, op_type, desc, inputs, tags):
    return {"name": name, "operator": {"type": op_type, "desc": desc}, "inputs": inputs, "tags": tags}


def depth_to_space(order, dtype, shape, block, tags):
    n, c, h, w = shape
    name = f"perf/d2s/{order}/{SHORT_DTYPE[dtype]}/{dims(shape)}_b{block}"
    desc = {"InputTensor": tensor(dtype, shape),
            "OutputTensor": tensor(dtype, [n, c // (block * block), h * block, w * block]),
            "BlockSize": block, "Order": ORDERS[order]}
    return case(name, "DML_OPERATOR_DEPTH_TO_SPACE1", desc, {"InputTensor": random_source(name, dtype)}, tags)


def split(axis, dtype, shape, parts, tags):
    assert sum(parts) == shape[axis], (shape, axis, parts)
    name = f"perf/split/axis{axis}/{SHORT_DTYPE[dtype]}/{dims(shape)}_{'-'.join(map(str, parts))}"
    outputs = [tensor(dtype, shape[:axis] + [p] + shape[axis + 1:]) for p in parts]
    desc = {"InputTensor": tensor(dtype, shape), "OutputTensors": outputs, "Axis": axis}
    return case(name, "DML_OPERATOR_SPLIT", desc, {"InputTensor": random_source(name, dtype)}, tags)


def resample(mode, dtype, shape, scale, tags):
    n, c, h, w = shape
    label = "x0.5" if scale == 0.5 else f"x{scale:g}"
    name = f"perf/resample/{mode}/{SHORT_DTYPE[dtype]}/{dims(shape)}_{label}"
    out = [n, c, int(math.floor(h * scale)), int(math.floor(w * scale))]
    desc = {"InputTensor": tensor(dtype, shape), "OutputTensor": tensor(dtype, out),
            "InterpolationMode": MODES[mode], "Scales": [1, 1, scale, scale]}
    return case(name, "DML_OPERATOR_RESAMPLE", desc, {"InputTensor": random_source(name, dtype)}, tags)


def qlinear_conv(quantization, batch, channels, size, kernel, filters, tags):
    """uint8 activations, int8 symmetric weights (scale per tensor or per output channel), int32 bias, uint8
    output: the usual quantized ResNet layer. Stride 1, 'same' padding."""
    shape = [batch, channels, size, size]
    name = f"perf/qlconv/u8s8u8/{quantization}/{dims(shape)}_k{kernel}_m{filters}"
    pad = kernel // 2
    scale_shape = [1, filters, 1, 1] if quantization == "per_channel" else [1, 1, 1, 1]
    one = [1, 1, 1, 1]
    # Output scale chosen so the requantized sums spread over ~±30 around the zero point (random inputs and
    # weights): constant or saturated outputs would prove nothing in the correctness check before timing.
    input_scale, filter_scale = 0.02, 0.0025
    spread = math.sqrt(channels * kernel * kernel) * 74 * 73 * input_scale * filter_scale
    output_scale = float(f"{spread / 30:.3g}")
    desc = {"InputTensor": tensor("UINT8", shape),
            "InputScaleTensor": tensor("FLOAT32", one),
            "InputZeroPointTensor": tensor("UINT8", one),
            "FilterTensor": tensor("INT8", [filters, channels, kernel, kernel]),
            "FilterScaleTensor": tensor("FLOAT32", scale_shape),
            "BiasTensor": tensor("INT32", [1, filters, 1, 1]),
            "OutputScaleTensor": tensor("FLOAT32", one),
            "OutputZeroPointTensor": tensor("UINT8", one),
            "OutputTensor": tensor("UINT8", [batch, filters, size, size]),
            "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [pad, pad], "EndPadding": [pad, pad],
            "GroupCount": 1}
    seed = zlib.crc32(name.encode()) % 100000
    filter_scale_source = ({"random": {"seed": seed + 2, "min": 0.001, "max": 0.004}}
                           if quantization == "per_channel" else {"constant": filter_scale})
    inputs = {"InputTensor": {"random": {"seed": seed, "min": 0, "max": 255}},
              "InputScaleTensor": {"constant": input_scale},
              "InputZeroPointTensor": {"constant": 128},
              "FilterTensor": {"random": {"seed": seed + 1, "min": -127, "max": 127}},
              "FilterScaleTensor": filter_scale_source,
              "BiasTensor": {"random": {"seed": seed + 3, "min": -2000, "max": 2000}},
              "OutputScaleTensor": {"constant": output_scale},
              "OutputZeroPointTensor": {"constant": 128}}
    return case(name, "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION", desc, inputs, tags)


def perf_cases():
    tags = ["perf"]
    big = [16, 64, 256, 256]  # 256 MiB in FLOAT32
    dtypes = ["FLOAT32", "FLOAT16", "INT8"]
    out = []
    for block in (2, 4):
        for dtype in dtypes:
            for order in ("dcr", "crd"):
                out.append(depth_to_space(order, dtype, big, block, tags))
    for dtype in dtypes:
        out.append(split(1, dtype, big, [16, 32, 16], tags))
        out.append(split(3, dtype, big, [64, 128, 64], tags))
    # The 256x256 side is the large one both ways: x2 writes it, x0.5 reads it.
    for mode in ("nearest", "linear"):
        for dtype in dtypes:
            out.append(resample(mode, dtype, [16, 64, 128, 128], 2, tags))
            out.append(resample(mode, dtype, big, 0.5, tags))
    # ResNet-50 layers at batch 32: three 3x3 stages and the 1x1 reduction of the first bottleneck.
    for quantization in ("per_tensor", "per_channel"):
        for channels, size, kernel, filters in ((64, 56, 3, 64), (256, 14, 3, 256), (512, 7, 3, 512),
                                                (256, 56, 1, 64)):
            out.append(qlinear_conv(quantization, 32, channels, size, kernel, filters, tags))
    return out


def smoke_cases():
    """One tiny case per operator over three feature levels (2_0, 2_1, 6_2): fast on lavapipe and the CPU."""
    tags = ["perf", "smoke"]
    return [depth_to_space("dcr", "FLOAT32", [1, 8, 4, 4], 2, tags),
            split(1, "INT8", [1, 6, 4, 4], [2, 4], tags),
            resample("linear", "FLOAT16", [1, 2, 4, 4], 2, tags),
            resample("nearest", "INT8", [1, 2, 8, 8], 0.5, tags),
            qlinear_conv("per_channel", 1, 4, 5, 3, 4, tags)]


def to_json(obj, indent=0):
    """Indented JSON with arrays of numbers on one line (shapes stay readable)."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k)}: {to_json(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(v, (dict, list)) for v in obj):
            return "[" + ", ".join(json.dumps(v) for v in obj) + "]"
        return "[\n" + ",\n".join(inner + to_json(v, indent + 1) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj, allow_nan=False)


def generate():
    files = {"perf.json": perf_cases(), "smoke.json": smoke_cases()}
    for cases in files.values():
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), "duplicate case names"
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=REPO_PERF, help="output directory (default: the repository's cases/perf/)")
    ap.add_argument("--check", action="store_true", help="compare --out with a fresh generation instead of writing")
    args = ap.parse_args()
    files = generate()
    rendered = {name: to_json({"cases": cases}) + "\n" for name, cases in files.items()}
    if args.check:
        stale = []
        for name, text in rendered.items():
            path = os.path.join(args.out, name)
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(path)
        if stale:
            print("gen_perf_cases --check: out of date (regenerate with python3 scripts/gen_perf_cases.py): "
                  + ", ".join(stale), file=sys.stderr)
            return 1
        print(f"gen_perf_cases --check: {len(rendered)} files match")
        return 0
    os.makedirs(args.out, exist_ok=True)
    for name, text in rendered.items():
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
        print(f"{name}: {len(files[name])} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
