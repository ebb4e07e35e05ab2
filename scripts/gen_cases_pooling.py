"""Bundled cases of the pooling family (cases/pooling.json); called by gen_cases.py.

Expected outputs come from dml_oracle.py's pooling functions (numpy, vectorised over the output; never the C++
code). Each case picks a geometry that a plausible bug would change: padding (start and end apart), strides,
dilations, 4-D and 5-D, IncludePadding both ways on the same data, max ties (the first of equal maxima and its
index), per-tensor and per-channel quantization, strided and broadcast inputs.
"""

import numpy as np

import dml_oracle as oracle
import gen_cases as gc

FLOATS = ("FLOAT32", "FLOAT16")


def max_fl(dt, index_dt):
    if dt in FLOATS and index_dt in (None, "UINT32"):
        return "2_1"
    if dt in gc.EIGHT_BIT and index_dt in (None, "UINT32"):
        return "3_0"
    return "5_0"


def geometry_desc(desc, rank, g, dilations=True):
    sp = rank - 2
    desc["DimensionCount"] = sp
    desc["Strides"] = list(g.get("strides", [1] * sp))
    desc["WindowSize"] = list(g["window"])
    desc["StartPadding"] = list(g.get("start", [0] * sp))
    desc["EndPadding"] = list(g.get("end", [0] * sp))
    if dilations:
        desc["Dilations"] = list(g.get("dilations", [1] * sp))


def args(g, sp):
    return (g["window"], g.get("strides", [1] * sp), g.get("dilations", [1] * sp), g.get("start", [0] * sp),
            g.get("end", [0] * sp))


def add_max(cf, name, description, dt, x, g, index_dt=None, in_layout=gc.PACKED, tags=("conformance",)):
    y, idx = oracle.max_pooling(x, *args(g, x.ndim - 2))
    desc = {"InputTensor": gc.tensor_desc(dt, x.shape, in_layout),
            "OutputTensor": gc.tensor_desc(dt, y.shape, is_output=True)}
    expected = {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}
    arrays = [("OutputTensor", y)]
    if index_dt:
        desc["OutputIndicesTensor"] = gc.tensor_desc(index_dt, y.shape, is_output=True)
        idx = idx.astype(gc.DTYPES[index_dt])
        expected["OutputIndicesTensor"] = cf.h5(f"/{name}/expected/OutputIndicesTensor", idx)
        arrays.append(("OutputIndicesTensor", idx))
    geometry_desc(desc, x.ndim, g)
    inputs = {"InputTensor": cf.h5(f"/{name}/InputTensor", x)}
    cf.add(gc.make_case(name, description, max_fl(dt, index_dt), "DML_OPERATOR_MAX_POOLING2", desc, inputs, expected,
                        tags), arrays)


def add_average(cf, name, description, dt, x, g, include, version1=False, in_layout=gc.PACKED,
                tags=("conformance",)):
    y = oracle.average_pooling(x, *args(g, x.ndim - 2), include)
    desc = {"InputTensor": gc.tensor_desc(dt, x.shape, in_layout),
            "OutputTensor": gc.tensor_desc(dt, y.shape, is_output=True)}
    geometry_desc(desc, x.ndim, g, dilations=version1)
    desc["IncludePadding"] = include
    op = "DML_OPERATOR_AVERAGE_POOLING1" if version1 else "DML_OPERATOR_AVERAGE_POOLING"
    cf.add(gc.make_case(name, description, "6_2" if version1 else "1_0", op, desc,
                        {"InputTensor": cf.h5(f"/{name}/InputTensor", x)},
                        {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}, tags), [("OutputTensor", y)])


def add_qlinear(cf, name, description, in_dt, out_dt, x, g, include, xs, xz, ys, yz, tags=("conformance",)):
    """xs/xz/ys/yz: a float/int (per tensor, {1,1,1,1}), an array of C values (per channel, {1,C,1,1}) or None
    for an absent zero point."""
    r = x.ndim
    zero = lambda v: 0 if v is None else v  # noqa: E731
    y = oracle.qlinear_average_pooling(x, xs, zero(xz), ys, zero(yz), gc.DTYPES[out_dt], *args(g, r - 2), include)
    desc, inputs = {"InputTensor": gc.tensor_desc(in_dt, x.shape)}, {"InputTensor": cf.h5(f"/{name}/InputTensor", x)}
    for member, value, dt in (("InputScaleTensor", xs, "FLOAT32"), ("InputZeroPointTensor", xz, in_dt),
                              ("OutputScaleTensor", ys, "FLOAT32"), ("OutputZeroPointTensor", yz, out_dt)):
        if value is None:
            continue
        arr = np.asarray(value, dtype=gc.DTYPES[dt]).reshape(-1)
        shape = [1, arr.size, 1, 1] if arr.size > 1 else [1, 1, 1, 1]
        desc[member] = gc.tensor_desc(dt, shape)
        inputs[member] = gc.inline(arr)
    desc["OutputTensor"] = gc.tensor_desc(out_dt, y.shape, is_output=True)
    geometry_desc(desc, r, g)
    desc["IncludePadding"] = include
    cf.add(gc.make_case(name, description, "6_2", "DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING", desc, inputs,
                        {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}, tags), [("OutputTensor", y)])


def gen_pooling():
    cf = gc.CaseFile("pooling")

    def data(name, dt, shape, lo=None, hi=None):
        rng = gc.case_rng(name)
        if lo is not None:
            return rng.integers(lo, hi, size=shape, endpoint=True).astype(gc.DTYPES[dt])
        return gc.random_tensor(rng, dt, shape)

    # MAX_POOLING2
    n = "maxpool2/float32/3x3_s2_pad1"
    add_max(cf, n, "ResNet's stem pool: 3x3, stride 2, padding 1 on every side, with UINT32 indices", "FLOAT32",
            data(n, "FLOAT32", [1, 2, 7, 7]), {"window": [3, 3], "strides": [2, 2], "start": [1, 1], "end": [1, 1]},
            index_dt="UINT32")
    n = "maxpool2/float32/asymmetric_padding"
    add_max(cf, n, "start padding 2/0, end padding 0/1 (start and end apart), 2x3 window, stride 1x2", "FLOAT32",
            data(n, "FLOAT32", [2, 1, 5, 6]), {"window": [2, 3], "strides": [1, 2], "start": [1, 0], "end": [0, 1]},
            index_dt="UINT32")
    n = "maxpool2/float16/dilated"
    add_max(cf, n, "2x2 window, dilation 2x3, padding 1: taps skip elements", "FLOAT16",
            data(n, "FLOAT16", [1, 3, 6, 8]),
            {"window": [2, 2], "dilations": [2, 3], "start": [1, 1], "end": [1, 0]}, index_dt="UINT32")
    n = "maxpool2/uint8/ties"
    add_max(cf, n, "values 0..2 only: most windows hold equal maxima; the index is the first one's", "UINT8",
            data(n, "UINT8", [1, 2, 6, 6], 0, 2), {"window": [3, 3], "strides": [1, 1], "start": [1, 1], "end": [1, 1]},
            index_dt="UINT32")
    n = "maxpool2/int8/rank5"
    add_max(cf, n, "5-D: 2x3x2 window, stride 1x2x2, padding on depth and width", "INT8",
            data(n, "INT8", [1, 2, 4, 5, 5]),
            {"window": [2, 3, 2], "strides": [1, 2, 2], "start": [1, 0, 1], "end": [0, 1, 0]})
    n = "maxpool2/int32/uint64_indices"
    add_max(cf, n, "INT32 with UINT64 indices (FL 5_0), stride larger than the window", "INT32",
            data(n, "INT32", [1, 2, 7, 5]), {"window": [2, 2], "strides": [3, 2]}, index_dt="UINT64")
    n = "maxpool2/float32/strided_input"
    add_max(cf, n, "input with padded row strides; indices are logical (packed) positions", "FLOAT32",
            data(n, "FLOAT32", [1, 2, 5, 5]), {"window": [2, 2], "strides": [2, 2], "end": [1, 1]},
            index_dt="UINT32", in_layout=gc.Layout(pad=[0, 1, 2, 3]))

    # AVERAGE_POOLING / AVERAGE_POOLING1
    x = data("avgpool/float32/padding", "FLOAT32", [1, 2, 5, 6])
    g = {"window": [3, 3], "strides": [2, 2], "start": [1, 1], "end": [1, 1]}
    add_average(cf, "avgpool/float32/include_padding", "3x3 stride 2 padding 1, IncludePadding: divisor 9 everywhere",
                "FLOAT32", x, g, True)
    add_average(cf, "avgpool/float32/exclude_padding", "the same data and window, IncludePadding false: edge windows "
                "divide by their in-input taps", "FLOAT32", x, g, False)
    n = "avgpool/float16/global"
    add_average(cf, n, "global average pool of 7x7 (GlobalAveragePool)", "FLOAT16", data(n, "FLOAT16", [1, 4, 7, 7]),
                {"window": [7, 7]}, False)
    n = "avgpool/float32/rank5"
    add_average(cf, n, "5-D, 2x2x3 window, stride 2x1x2, asymmetric padding, IncludePadding", "FLOAT32",
                data(n, "FLOAT32", [1, 2, 4, 4, 6]),
                {"window": [2, 2, 3], "strides": [2, 1, 2], "start": [0, 1, 1], "end": [1, 0, 1]}, True)
    n = "avgpool/float32/broadcast_input"
    add_average(cf, n, "input broadcast along C (stride 0)", "FLOAT32",
                np.ascontiguousarray(np.broadcast_to(data(n, "FLOAT32", [1, 1, 4, 4]), (1, 3, 4, 4))),
                {"window": [2, 2], "strides": [1, 1], "start": [1, 0]}, False, in_layout=gc.Layout(bcast=[1]))
    n = "avgpool1/float32/dilated"
    add_average(cf, n, "AVERAGE_POOLING1: 3x2 window, dilation 2x2, padding 2/1, IncludePadding false", "FLOAT32",
                data(n, "FLOAT32", [2, 2, 7, 6]),
                {"window": [3, 2], "dilations": [2, 2], "start": [2, 1], "end": [2, 1]}, False, version1=True)
    n = "avgpool1/float16/dilated_include"
    add_average(cf, n, "AVERAGE_POOLING1: 2x2 window, dilation 3x1, stride 2, IncludePadding", "FLOAT16",
                data(n, "FLOAT16", [1, 3, 8, 5]),
                {"window": [2, 2], "dilations": [3, 1], "strides": [2, 2], "start": [1, 1], "end": [1, 1]}, True,
                version1=True)

    # QUANTIZED_LINEAR_AVERAGE_POOLING
    n = "qlavgpool/uint8/global"
    add_qlinear(cf, n, "QLinearGlobalAveragePool of 7x7, per-tensor scales and zero points", "UINT8", "UINT8",
                data(n, "UINT8", [1, 6, 7, 7], 0, 255), {"window": [7, 7]}, False,
                np.float32(0.0235), 128, np.float32(0.0131), 120)
    n = "qlavgpool/int8/pad_exclude_per_channel"
    add_qlinear(cf, n, "INT8 -> UINT8, 3x3 stride 2 padding 1 without IncludePadding, per-channel scales", "INT8",
                "UINT8", data(n, "INT8", [1, 3, 6, 7], -128, 127), {"window": [3, 3], "strides": [2, 2],
                                                                    "start": [1, 1], "end": [1, 1]}, False,
                np.array([0.02, 0.045, 0.031], dtype=np.float32), 5,
                np.array([0.011, 0.017, 0.023], dtype=np.float32), 128)
    n = "qlavgpool/uint8/include_dilated"
    add_qlinear(cf, n, "UINT8 -> INT8, IncludePadding, dilation 2, no zero points", "UINT8", "INT8",
                data(n, "UINT8", [2, 2, 6, 6], 0, 255), {"window": [2, 2], "dilations": [2, 2], "start": [1, 1],
                                                         "end": [0, 1]}, True,
                np.float32(0.01), None, np.float32(0.02), None)
    n = "qlavgpool/int8/rank5"
    add_qlinear(cf, n, "5-D INT8 -> INT8, 2x2x2 window, stride 2, per-tensor zero points", "INT8", "INT8",
                data(n, "INT8", [1, 2, 4, 4, 4], -128, 127), {"window": [2, 2, 2], "strides": [2, 2, 2]}, False,
                np.float32(0.05), -3, np.float32(0.04), 2)
    return cf
