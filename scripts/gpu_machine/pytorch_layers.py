"""PyTorch (CUDA) equivalents of the layers `dmltool import` makes from int8 CNNs, for pytorch_baseline.py.

PyTorch's CUDA backend has no 8-bit kernels for these layers (no quantized convolution, matrix multiply, pooling or
add on CUDA; torch.ao's quantized operators run on the CPU), so each quantized layer is mirrored as the float32 layer
of the same shapes: the network PyTorch would run on this GPU. This is the convention pytorch_baseline.py already
uses for QUANTIZED_LINEAR_CONVOLUTION (F.conv2d float32, same MAC count); every record's note says so. The bytes
are dmltool's logical bytes of the layer as imported (8-bit tensors read and written once), so a throughput ratio
is a time ratio.

- GEMM: torch.addmm (alpha, beta, transposes as the desc says), float32, TF32 off.
- QUANTIZED_LINEAR_MATRIX_MULTIPLY: torch.matmul of float32 operands of the same shapes.
- JOIN: torch.cat of the inputs along the axis.
- MAX_POOLING2, AVERAGE_POOLING(1), QUANTIZED_LINEAR_AVERAGE_POOLING: F.max_pool2d / F.avg_pool2d on float32 (a
  window as large as the input is F.adaptive_avg_pool2d's global pooling; asymmetric padding adds an F.pad, as
  PyTorch runs a TensorFlow-style padded layer).
- ELEMENT_WISE_QUANTIZED_LINEAR_ADD: a float32 add of the same shapes.
"""
import math

import torch
import torch.nn.functional as F

ELEMENT_BYTES = {"FLOAT32": 4, "FLOAT16": 2, "INT8": 1, "UINT8": 1, "INT32": 4}
FLOAT_MIRROR = "float32 operands of the same shapes (PyTorch's CUDA backend has no 8-bit kernel for this layer)"


def _bytes(tensor):
    return math.prod(tensor["Sizes"]) * ELEMENT_BYTES[tensor["DataType"]]


def _float(sizes):
    return torch.rand(sizes, device="cuda", dtype=torch.float32) * 2 - 1


def _note(*tensors):
    return FLOAT_MIRROR if any(t["DataType"] != "FLOAT32" for t in tensors) else ""


def _matrix(sizes):
    """The 2-D matrix of a DirectML rank-4 {1, 1, M, K} tensor; batched shapes are not in the imported CNNs."""
    if math.prod(sizes[:-2]) != 1:
        raise NotImplementedError("batched matrix multiplies are not mirrored")
    return sizes[-2:]


def gemm(desc):
    a_desc, b_desc, y_desc = desc["ATensor"], desc["BTensor"], desc["OutputTensor"]
    a, b = _float(_matrix(a_desc["Sizes"])), _float(_matrix(b_desc["Sizes"]))
    trans_a = desc.get("TransA", "DML_MATRIX_TRANSFORM_NONE").endswith("TRANSPOSE")
    trans_b = desc.get("TransB", "DML_MATRIX_TRANSFORM_NONE").endswith("TRANSPOSE")
    if desc.get("FusedActivation"):
        raise NotImplementedError("GEMM with a fused activation is not mirrored")
    a_op, b_op = (a.t() if trans_a else a), (b.t() if trans_b else b)
    m, k = a_op.shape
    n = b_op.shape[1]
    alpha, beta = float(desc.get("Alpha", 1.0)), float(desc.get("Beta", 1.0))
    moved = _bytes(a_desc) + _bytes(b_desc) + _bytes(y_desc)
    if "CTensor" in desc:
        c = _float(_matrix(desc["CTensor"]["Sizes"])).expand(m, n)
        moved += _bytes(desc["CTensor"])
        fn = lambda: torch.addmm(c, a_op, b_op, beta=beta, alpha=alpha)  # noqa: E731
    else:
        fn = lambda: torch.mm(a_op, b_op) * alpha  # noqa: E731
    return fn, "torch.addmm float32 (TF32 off)", moved, 2 * m * n * k, ""


def quantized_linear_matrix_multiply(desc):
    a_desc, b_desc, y_desc = desc["ATensor"], desc["BTensor"], desc["OutputTensor"]
    a, b = _float(_matrix(a_desc["Sizes"])), _float(_matrix(b_desc["Sizes"]))
    m, k = a.shape
    n = b.shape[1]
    moved = _bytes(a_desc) + _bytes(b_desc) + _bytes(y_desc)
    return (lambda: torch.matmul(a, b)), "torch.matmul float32 (TF32 off)", moved, 2 * m * n * k, _note(a_desc)


def join(desc):
    inputs = desc["InputTensors"]
    tensors = [_float(t["Sizes"]) for t in inputs]
    axis = desc["Axis"]
    moved = sum(_bytes(t) for t in inputs) + _bytes(desc["OutputTensor"])
    return (lambda: torch.cat(tensors, dim=axis)), "torch.cat float32", moved, 0, _note(*inputs)


def _pooling(desc, kind):
    x_desc, y_desc = desc["InputTensor"], desc["OutputTensor"]
    if len(x_desc["Sizes"]) != 4:
        raise NotImplementedError("only 2-D pooling is mirrored")
    x = _float(x_desc["Sizes"])
    window = desc["WindowSize"]
    strides = desc.get("Strides", [1, 1])
    dilations = desc.get("Dilations", [1, 1])
    start, end = desc.get("StartPadding", [0, 0]), desc.get("EndPadding", [0, 0])
    moved = _bytes(x_desc) + _bytes(y_desc)
    note = _note(x_desc)
    out_hw = y_desc["Sizes"][2:]
    if kind != "max" and list(window) == x_desc["Sizes"][2:] and out_hw == [1, 1] and not any(start + end):
        return (lambda: F.adaptive_avg_pool2d(x, 1)), "F.adaptive_avg_pool2d float32 (global)", moved, 0, note
    if kind != "max" and dilations != [1, 1]:
        raise NotImplementedError("F.avg_pool2d has no dilation")
    symmetric = start == end
    pad = [] if symmetric else [start[1], end[1], start[0], end[0]]  # F.pad: last dimension first
    padding = start if symmetric else [0, 0]
    if kind == "max":
        pool = lambda t: F.max_pool2d(t, window, strides, padding, dilations)  # noqa: E731
        name = "F.max_pool2d float32"
        if pad:
            pad_value = -math.inf
    else:
        include = bool(desc.get("IncludePadding", False))
        pool = lambda t: F.avg_pool2d(t, window, strides, padding, count_include_pad=include)  # noqa: E731
        name = "F.avg_pool2d float32"
        if pad:
            if not include:
                raise NotImplementedError("asymmetric padding excluded from the average has no F.avg_pool2d form")
            pad_value = 0.0
    if pad:
        name += " after F.pad (asymmetric padding)"
        return (lambda: pool(F.pad(x, pad, value=pad_value))), name, moved, 0, note
    return (lambda: pool(x)), name, moved, 0, note


def quantized_linear_add(desc):
    a_desc, b_desc, y_desc = desc["ATensor"], desc["BTensor"], desc["OutputTensor"]
    a, b = _float(a_desc["Sizes"]), _float(b_desc["Sizes"])
    moved = _bytes(a_desc) + _bytes(b_desc) + _bytes(y_desc)
    return (lambda: torch.add(a, b)), "torch.add float32", moved, 0, _note(a_desc)


WORKLOADS = {
    "DML_OPERATOR_GEMM": gemm,
    "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY": quantized_linear_matrix_multiply,
    "DML_OPERATOR_JOIN": join,
    "DML_OPERATOR_MAX_POOLING2": lambda desc: _pooling(desc, "max"),
    "DML_OPERATOR_AVERAGE_POOLING": lambda desc: _pooling(desc, "average"),
    "DML_OPERATOR_AVERAGE_POOLING1": lambda desc: _pooling(desc, "average"),
    "DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING": lambda desc: _pooling(desc, "average"),
    "DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD": quantized_linear_add,
}
