"""PyTorch (CUDA) equivalents of DirectML's element-wise and activation operators, for pytorch_baseline.py.

Each case's desc is mirrored as PyTorch would run the same network node: every input is a tensor with the case's
Sizes and Strides (a stride of 0 broadcasts: the tensor is an as_strided view of just the elements it addresses, as
DirectML reads it), the function is PyTorch's own out-of-place operation, and the result is PyTorch's contiguous
output. ScaleBias (y = f(x * scale + bias)) is one more fused multiply-add PyTorch would run as a separate kernel,
so a case with ScaleBias times torch.addcmul-free `x * scale + bias` followed by f: that is what PyTorch does for
the same node, and the note says so.

Bytes are dmltool's logical bytes of the family (ops/element_wise): every input's distinct addressed elements
(a broadcast dimension counts once) read once, the output written once; both sides count the same bytes, so the
ratio of throughputs is the ratio of times.
"""
import math

import torch
import torch.nn.functional as F

DTYPES = {"FLOAT32": torch.float32, "FLOAT16": torch.float16, "INT8": torch.int8, "UINT8": torch.uint8,
          "INT16": torch.int16, "UINT16": torch.uint16 if hasattr(torch, "uint16") else None, "INT32": torch.int32,
          "UINT32": torch.uint32 if hasattr(torch, "uint32") else None, "INT64": torch.int64}
ELEMENT_BYTES = {"FLOAT32": 4, "FLOAT16": 2, "INT8": 1, "UINT8": 1, "INT16": 2, "UINT16": 2, "INT32": 4,
                 "UINT32": 4, "INT64": 8, "UINT64": 8}


def addressed_elements(tensor):
    """Distinct elements a tensor desc addresses: a dimension of stride 0 is read once."""
    sizes = tensor["Sizes"]
    strides = tensor.get("Strides")
    if strides is None:
        return math.prod(sizes)
    return math.prod(s for s, st in zip(sizes, strides) if st != 0)


def tensor_bytes(tensor):
    return addressed_elements(tensor) * ELEMENT_BYTES[tensor["DataType"]]


def make_input(tensor, domain):
    """A CUDA tensor with the desc's sizes and strides, values drawn from `domain` (low, high) for floats."""
    dtype = DTYPES.get(tensor["DataType"])
    if dtype is None:
        raise NotImplementedError(f"PyTorch has no CUDA tensors of {tensor['DataType']}")
    sizes = tensor["Sizes"]
    strides = tensor.get("Strides")
    if strides is None:
        strides = [0] * len(sizes)
        step = 1
        for d in reversed(range(len(sizes))):
            strides[d] = step
            step *= sizes[d]
    storage = 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
    if dtype.is_floating_point:
        low, high = domain
        base = torch.rand(storage, device="cuda", dtype=dtype) * (high - low) + low
    else:
        info = torch.iinfo(dtype)
        base = torch.randint(max(info.min, -128), min(info.max, 127) + 1, (storage,), device="cuda", dtype=dtype)
    return base.as_strided(sizes, strides)


def _scalar(desc, name, default):
    value = desc.get(name, default)
    if isinstance(value, dict):  # DML_SCALAR_UNION as {"Float32": v} or {"Int32": v} ...
        value = next(iter(value.values()))
    return value


# name -> (inputs, domain, PyTorch function of (tensors, desc)). The domain keeps inputs where the function is
# defined and finite, as the bundled perf cases' sources do.
UNARY = {
    "ELEMENT_WISE_IDENTITY": ("torch.clone", (-1, 1), lambda x, d: x.clone()),
    "ELEMENT_WISE_ABS": ("torch.abs", (-1, 1), lambda x, d: torch.abs(x)),
    "ELEMENT_WISE_NEGATE": ("torch.neg", (-1, 1), lambda x, d: torch.neg(x)),
    "ELEMENT_WISE_EXP": ("torch.exp", (-4, 4), lambda x, d: torch.exp(x)),
    "ELEMENT_WISE_LOG": ("torch.log", (0.01, 4), lambda x, d: torch.log(x)),
    "ELEMENT_WISE_SQRT": ("torch.sqrt", (0, 4), lambda x, d: torch.sqrt(x)),
    "ELEMENT_WISE_RECIP": ("torch.reciprocal", (0.5, 4), lambda x, d: torch.reciprocal(x)),
    "ELEMENT_WISE_SIN": ("torch.sin", (-3, 3), lambda x, d: torch.sin(x)),
    "ELEMENT_WISE_COS": ("torch.cos", (-3, 3), lambda x, d: torch.cos(x)),
    "ELEMENT_WISE_TAN": ("torch.tan", (-1, 1), lambda x, d: torch.tan(x)),
    "ELEMENT_WISE_ASIN": ("torch.asin", (-1, 1), lambda x, d: torch.asin(x)),
    "ELEMENT_WISE_ACOS": ("torch.acos", (-1, 1), lambda x, d: torch.acos(x)),
    "ELEMENT_WISE_ATAN": ("torch.atan", (-4, 4), lambda x, d: torch.atan(x)),
    "ELEMENT_WISE_SINH": ("torch.sinh", (-4, 4), lambda x, d: torch.sinh(x)),
    "ELEMENT_WISE_COSH": ("torch.cosh", (-4, 4), lambda x, d: torch.cosh(x)),
    "ELEMENT_WISE_TANH": ("torch.tanh", (-4, 4), lambda x, d: torch.tanh(x)),
    "ELEMENT_WISE_ASINH": ("torch.asinh", (-4, 4), lambda x, d: torch.asinh(x)),
    "ELEMENT_WISE_ACOSH": ("torch.acosh", (1, 4), lambda x, d: torch.acosh(x)),
    "ELEMENT_WISE_ATANH": ("torch.atanh", (-0.9, 0.9), lambda x, d: torch.atanh(x)),
    "ELEMENT_WISE_ERF": ("torch.erf", (-3, 3), lambda x, d: torch.erf(x)),
    "ELEMENT_WISE_FLOOR": ("torch.floor", (-4, 4), lambda x, d: torch.floor(x)),
    "ELEMENT_WISE_CEIL": ("torch.ceil", (-4, 4), lambda x, d: torch.ceil(x)),
    "ELEMENT_WISE_ROUND": ("torch.round", (-4, 4), lambda x, d: torch.round(x)),
    "ELEMENT_WISE_SIGN": ("torch.sign", (-1, 1), lambda x, d: torch.sign(x)),
    "ELEMENT_WISE_IS_NAN": ("torch.isnan", (-1, 1), lambda x, d: torch.isnan(x)),
    "ELEMENT_WISE_IS_INFINITY": ("torch.isinf", (-1, 1), lambda x, d: torch.isinf(x)),
    "ELEMENT_WISE_LOGICAL_NOT": ("torch.logical_not", (-1, 1), lambda x, d: torch.logical_not(x)),
    "ELEMENT_WISE_BIT_NOT": ("torch.bitwise_not", (-1, 1), lambda x, d: torch.bitwise_not(x)),
    "ELEMENT_WISE_CLIP": ("torch.clamp", (-4, 4),
                          lambda x, d: torch.clamp(x, _scalar(d, "Min", 0), _scalar(d, "Max", 1))),
    "ELEMENT_WISE_CLIP1": ("torch.clamp", (-4, 4),
                           lambda x, d: torch.clamp(x, _scalar(d, "Min", 0), _scalar(d, "Max", 1))),
    "ELEMENT_WISE_CONSTANT_POW": ("torch.pow", (0.1, 4), lambda x, d: torch.pow(x, _scalar(d, "Exponent", 2))),
    "ELEMENT_WISE_THRESHOLD": ("torch.clamp_min", (-4, 4), lambda x, d: torch.clamp_min(x, _scalar(d, "Min", 0))),
    "ACTIVATION_IDENTITY": ("torch.clone", (-1, 1), lambda x, d: x.clone()),
    "ACTIVATION_RELU": ("F.relu", (-4, 4), lambda x, d: F.relu(x)),
    "ACTIVATION_LEAKY_RELU": ("F.leaky_relu", (-4, 4), lambda x, d: F.leaky_relu(x, _scalar(d, "Alpha", 0.01))),
    "ACTIVATION_ELU": ("F.elu", (-4, 4), lambda x, d: F.elu(x, _scalar(d, "Alpha", 1.0))),
    "ACTIVATION_CELU": ("F.celu", (-4, 4), lambda x, d: F.celu(x, _scalar(d, "Alpha", 1.0))),
    "ACTIVATION_SCALED_ELU": ("F.selu-style: alpha/gamma elu", (-4, 4),
                              lambda x, d: _scalar(d, "Gamma", 1.0507) * F.elu(x, _scalar(d, "Alpha", 1.67326))),
    "ACTIVATION_SIGMOID": ("torch.sigmoid", (-4, 4), lambda x, d: torch.sigmoid(x)),
    "ACTIVATION_HARD_SIGMOID": ("clamp(alpha*x+beta)", (-4, 4),
                                lambda x, d: torch.clamp(_scalar(d, "Alpha", 0.2) * x + _scalar(d, "Beta", 0.5), 0, 1)),
    "ACTIVATION_TANH": ("torch.tanh", (-4, 4), lambda x, d: torch.tanh(x)),
    "ACTIVATION_SCALED_TANH": ("alpha*tanh(beta*x)", (-4, 4),
                               lambda x, d: _scalar(d, "Alpha", 1) * torch.tanh(_scalar(d, "Beta", 1) * x)),
    "ACTIVATION_SOFTPLUS": ("F.softplus", (-4, 4), lambda x, d: F.softplus(x, beta=_scalar(d, "Steepness", 1.0))),
    "ACTIVATION_PARAMETRIC_SOFTPLUS": ("alpha*softplus(beta*x)", (-4, 4),
                                       lambda x, d: _scalar(d, "Alpha", 1) * F.softplus(_scalar(d, "Beta", 1) * x)),
    "ACTIVATION_SOFTSIGN": ("F.softsign", (-4, 4), lambda x, d: F.softsign(x)),
    "ACTIVATION_THRESHOLDED_RELU": ("F.threshold", (-4, 4),
                                    lambda x, d: F.threshold(x, _scalar(d, "Alpha", 1.0), 0.0)),
    "ACTIVATION_SHRINK": ("F.softshrink-style shrink", (-4, 4),
                          lambda x, d: torch.where(x < -_scalar(d, "Threshold", 0.5), x + _scalar(d, "Bias", 0.0),
                                                   torch.where(x > _scalar(d, "Threshold", 0.5),
                                                               x - _scalar(d, "Bias", 0.0), torch.zeros_like(x)))),
    "ACTIVATION_GELU": ("F.gelu (erf)", (-4, 4), lambda x, d: F.gelu(x)),
    "ACTIVATION_SWISH": ("x*sigmoid(s*x)", (-4, 4), lambda x, d: x * torch.sigmoid(_scalar(d, "SigmoidInputScale", 1) * x)),
    "ACTIVATION_HARD_SWISH": ("F.hardswish", (-4, 4), lambda x, d: F.hardswish(x)),
    "ACTIVATION_LINEAR": ("alpha*x+beta", (-4, 4), lambda x, d: _scalar(d, "Alpha", 1) * x + _scalar(d, "Beta", 0)),
}

BINARY = {
    "ELEMENT_WISE_ADD": ("torch.add", (-1, 1), lambda a, b, d: torch.add(a, b)),
    "ELEMENT_WISE_ADD1": ("torch.add", (-1, 1), lambda a, b, d: torch.add(a, b)),
    "ELEMENT_WISE_SUBTRACT": ("torch.sub", (-1, 1), lambda a, b, d: torch.sub(a, b)),
    "ELEMENT_WISE_MULTIPLY": ("torch.mul", (-1, 1), lambda a, b, d: torch.mul(a, b)),
    "ELEMENT_WISE_DIVIDE": ("torch.div", (0.5, 2), lambda a, b, d: torch.div(a, b)),
    "ELEMENT_WISE_MAX": ("torch.maximum", (-1, 1), lambda a, b, d: torch.maximum(a, b)),
    "ELEMENT_WISE_MIN": ("torch.minimum", (-1, 1), lambda a, b, d: torch.minimum(a, b)),
    "ELEMENT_WISE_POW": ("torch.pow", (0.5, 2), lambda a, b, d: torch.pow(a, b)),
    "ELEMENT_WISE_ATAN_YX": ("torch.atan2", (-1, 1), lambda a, b, d: torch.atan2(a, b)),
    "ELEMENT_WISE_DIFFERENCE_SQUARE": ("(a-b)^2", (-1, 1), lambda a, b, d: torch.square(a - b)),
    "ELEMENT_WISE_LOGICAL_EQUALS": ("torch.eq", (-1, 1), lambda a, b, d: torch.eq(a, b)),
    "ELEMENT_WISE_LOGICAL_GREATER_THAN": ("torch.gt", (-1, 1), lambda a, b, d: torch.gt(a, b)),
    "ELEMENT_WISE_LOGICAL_LESS_THAN": ("torch.lt", (-1, 1), lambda a, b, d: torch.lt(a, b)),
    "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL": ("torch.ge", (-1, 1), lambda a, b, d: torch.ge(a, b)),
    "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL": ("torch.le", (-1, 1), lambda a, b, d: torch.le(a, b)),
    "ELEMENT_WISE_LOGICAL_AND": ("torch.logical_and", (-1, 1), lambda a, b, d: torch.logical_and(a, b)),
    "ELEMENT_WISE_LOGICAL_OR": ("torch.logical_or", (-1, 1), lambda a, b, d: torch.logical_or(a, b)),
    "ELEMENT_WISE_LOGICAL_XOR": ("torch.logical_xor", (-1, 1), lambda a, b, d: torch.logical_xor(a, b)),
    "ELEMENT_WISE_BIT_AND": ("torch.bitwise_and", (-1, 1), lambda a, b, d: torch.bitwise_and(a, b)),
    "ELEMENT_WISE_BIT_OR": ("torch.bitwise_or", (-1, 1), lambda a, b, d: torch.bitwise_or(a, b)),
    "ELEMENT_WISE_BIT_XOR": ("torch.bitwise_xor", (-1, 1), lambda a, b, d: torch.bitwise_xor(a, b)),
    "ELEMENT_WISE_MODULUS_FLOOR": ("torch.remainder", (0.5, 2), lambda a, b, d: torch.remainder(a, b)),
    "ELEMENT_WISE_MODULUS_TRUNCATE": ("torch.fmod", (0.5, 2), lambda a, b, d: torch.fmod(a, b)),
    "ACTIVATION_PARAMETERIZED_RELU": ("F.prelu-style where", (-1, 1),
                                      lambda x, s, d: torch.where(x >= 0, x, x * s)),
}
BINARY_MEMBERS = {"ACTIVATION_PARAMETERIZED_RELU": ("InputTensor", "SlopeTensor")}


def _scale_bias(x, desc):
    sb = desc.get("ScaleBias")
    if not sb:
        return x, ""
    return x * sb.get("Scale", 1.0) + sb.get("Bias", 0.0), "ScaleBias as a separate multiply-add (PyTorch fuses none)"


def _softmax_like(name, desc):
    x_desc = desc["InputTensor"]
    x = make_input(x_desc, (-4, 4))
    rank = len(x_desc["Sizes"])
    axes = desc.get("Axes", [rank - 1])
    if len(axes) != 1:
        raise NotImplementedError("softmax over several axes has no single PyTorch call")
    axis = axes[0]
    fn = {"ACTIVATION_SOFTMAX1": F.softmax, "ACTIVATION_LOG_SOFTMAX1": F.log_softmax}[name]
    moved = tensor_bytes(x_desc) + tensor_bytes(desc["OutputTensor"])
    return (lambda: fn(x, dim=axis)), f"F.{fn.__name__}", moved, 0, ""


def _quantize(desc):
    x = make_input(desc["InputTensor"], (-4, 4))
    out_type = desc["OutputTensor"]["DataType"]
    scale = make_input(desc["ScaleTensor"], (0.01, 0.05))
    zp = make_input(desc["ZeroPointTensor"], (0, 1)) if "ZeroPointTensor" in desc else None
    low, high = (-128, 127) if out_type == "INT8" else (0, 255)
    dtype = DTYPES[out_type]

    def run():
        q = torch.round(x / scale)
        if zp is not None:
            q = q + zp.to(q.dtype)
        return torch.clamp(q, low, high).to(dtype)

    moved = sum(tensor_bytes(desc[k]) for k in ("InputTensor", "ScaleTensor", "OutputTensor"))
    moved += tensor_bytes(desc["ZeroPointTensor"]) if "ZeroPointTensor" in desc else 0
    return run, "round(x/s)+zp, clamp, cast (eager ops)", moved, 0, "PyTorch has no fused CUDA quantize of this form"


def _dequantize(desc):
    x = make_input(desc["InputTensor"], (0, 1))
    scale = make_input(desc["ScaleTensor"], (0.01, 0.05))
    zp = make_input(desc["ZeroPointTensor"], (0, 1)) if "ZeroPointTensor" in desc else None
    out = DTYPES[desc["OutputTensor"]["DataType"]]

    def run():
        v = x.to(out)
        if zp is not None:
            v = v - zp.to(out)
        return v * scale

    moved = sum(tensor_bytes(desc[k]) for k in ("InputTensor", "ScaleTensor", "OutputTensor"))
    moved += tensor_bytes(desc["ZeroPointTensor"]) if "ZeroPointTensor" in desc else 0
    return run, "(x - zp) * s (eager ops)", moved, 0, "PyTorch has no fused CUDA dequantize of this form"


def workload(op_type, desc):
    """(fn, torch_op, moved_bytes, ops, note) for pytorch_baseline.measure, or NotImplementedError."""
    name = op_type.removeprefix("DML_OPERATOR_")
    if name in ("ACTIVATION_SOFTMAX1", "ACTIVATION_LOG_SOFTMAX1"):
        return _softmax_like(name, desc)
    if name == "ELEMENT_WISE_QUANTIZE_LINEAR":
        return _quantize(desc)
    if name == "ELEMENT_WISE_DEQUANTIZE_LINEAR":
        return _dequantize(desc)
    out_desc = desc["OutputTensor"]
    if name in UNARY:
        torch_op, domain, fn = UNARY[name]
        x = make_input(desc["InputTensor"], domain)
        if desc.get("ScaleBias"):
            _, note = _scale_bias(x, desc)
            run = lambda: fn(_scale_bias(x, desc)[0], desc)  # noqa: E731
        else:
            note = ""
            run = lambda: fn(x, desc)  # noqa: E731
        moved = tensor_bytes(desc["InputTensor"]) + tensor_bytes(out_desc)
        return run, torch_op, moved, 0, note
    if name in BINARY:
        torch_op, domain, fn = BINARY[name]
        first, second = BINARY_MEMBERS.get(name, ("ATensor", "BTensor"))
        a = make_input(desc[first], domain)
        b = make_input(desc[second], domain)
        moved = tensor_bytes(desc[first]) + tensor_bytes(desc[second]) + tensor_bytes(out_desc)
        note = ""
        if name == "ELEMENT_WISE_ADD1" and desc.get("FusedActivation"):
            raise NotImplementedError("a fused activation after add is two PyTorch kernels: not mirrored")
        return (lambda: fn(a, b, desc)), torch_op, moved, 0, note
    raise NotImplementedError(f"no PyTorch equivalent mirrored for {op_type}")
