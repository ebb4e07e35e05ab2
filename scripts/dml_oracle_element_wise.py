"""Independent numpy oracle for DirectML's element-wise and activation operator families.

One function per operator type (keyed by the name after DML_OPERATOR_), written from the formulas on Microsoft's
DirectML reference pages (the DML_*_OPERATOR_DESC pages of the Windows SDK documentation) and never from dmltool's
C++ reference, so that a shared misreading would have to be made twice to go unnoticed. Everything is computed in
float64 (exact for every input type up to 32 bits) or, for integer and bit operations, in Python's unbounded
integers; callers round the result to the output's data type once.

Conventions the docs leave open, and what this oracle assumes (the generator avoids inputs where they matter):
- ScaleBias: `f(x * Scale + Bias)` for unary math; the scaled value is computed here in float64 from the float32
  Scale/Bias (an implementation rounds it to float32: the operator's error bound covers that).
- Integer overflow (ADD of two INT8 near the ends, NEGATE of the minimum value, ...) is not described; the
  generated inputs stay in range.
- "round" in QUANTIZE_LINEAR / QUANTIZED_LINEAR_ADD names no tie rule: np.rint (ties to even) is used, and the
  generated inputs keep `x / scale` away from .5 ties.
- Softmax-like activations of the first generation (SOFTMAX, LOG_SOFTMAX, HARDMAX) reduce over the last dimension;
  the *1 versions over their Axes.
"""

import math

import numpy as np

F64 = np.float64


def _f(x):
    return np.asarray(x, dtype=F64)


def scale_bias(x, sb):
    """DML_SCALE_BIAS applied to an input: x * Scale + Bias (Scale and Bias are float32 members)."""
    if sb is None:
        return _f(x)
    return _f(x) * F64(np.float32(sb[0])) + F64(np.float32(sb[1]))


def _vec(fn):
    return np.vectorize(fn, otypes=[F64])


_erf = _vec(math.erf)


def _sign(x):
    x = _f(x)
    return np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0))


# ----------------------------------------------------------------------------------------------------------------
# Unary math with an optional ScaleBias: f(x * Scale + Bias)
# ----------------------------------------------------------------------------------------------------------------

UNARY_MATH = {
    "ELEMENT_WISE_IDENTITY": lambda v: v,
    "ELEMENT_WISE_ABS": np.abs,
    "ELEMENT_WISE_ACOS": np.arccos,
    "ELEMENT_WISE_ASIN": np.arcsin,
    "ELEMENT_WISE_ATAN": np.arctan,
    "ELEMENT_WISE_CEIL": np.ceil,
    "ELEMENT_WISE_FLOOR": np.floor,
    "ELEMENT_WISE_COS": np.cos,
    "ELEMENT_WISE_SIN": np.sin,
    "ELEMENT_WISE_TAN": np.tan,
    "ELEMENT_WISE_EXP": np.exp,
    "ELEMENT_WISE_LOG": np.log,
    "ELEMENT_WISE_SQRT": np.sqrt,
    "ELEMENT_WISE_RECIP": lambda v: 1.0 / v,
    "ELEMENT_WISE_ERF": _erf,
    "ELEMENT_WISE_SINH": np.sinh,
    "ELEMENT_WISE_COSH": np.cosh,
    "ELEMENT_WISE_TANH": np.tanh,
    "ELEMENT_WISE_ASINH": np.arcsinh,
    "ELEMENT_WISE_ACOSH": np.arccosh,
    "ELEMENT_WISE_ATANH": np.arctanh,
}


def unary_math(op, x, sb=None, **_):
    with np.errstate(all="ignore"):
        return UNARY_MATH[op](scale_bias(x, sb))


def clip(x, Min, Max, sb=None, **_):
    """ELEMENT_WISE_CLIP / CLIP1: clamp(x * Scale + Bias, Min, Max)."""
    return np.minimum(np.maximum(scale_bias(x, sb), F64(Min)), F64(Max))


def threshold(x, Min, sb=None, **_):
    """ELEMENT_WISE_THRESHOLD: max(x * Scale + Bias, Min)."""
    return np.maximum(scale_bias(x, sb), F64(Min))


def constant_pow(x, Exponent, sb=None, **_):
    with np.errstate(all="ignore"):
        return np.power(scale_bias(x, sb), F64(np.float32(Exponent)))


def pow_(x, e, sb=None, **_):
    """ELEMENT_WISE_POW: pow(x * Scale + Bias, Exponent); the ScaleBias applies to InputTensor only."""
    with np.errstate(all="ignore"):
        return np.power(scale_bias(x, sb), _f(e))


# ----------------------------------------------------------------------------------------------------------------
# Binary arithmetic (exact in float64 for float16/float32 inputs, then rounded once: "correctly rounded")
# ----------------------------------------------------------------------------------------------------------------


def _int_or_float(a, b, int_fn, float_fn):
    if np.asarray(a).dtype.kind in "iu":
        ai = np.asarray(a).astype(object)
        bi = np.asarray(b).astype(object)
        return np.frompyfunc(int_fn, 2, 1)(ai, bi)
    with np.errstate(all="ignore"):
        return float_fn(_f(a), _f(b))


def _trunc_div(p, q):
    # C-style integer division (toward zero); the generator only divides where the quotient is exact.
    s = -1 if (p < 0) != (q < 0) else 1
    return s * (abs(p) // abs(q))


def _fmod_int(p, q):
    return p - _trunc_div(p, q) * q


BINARY = {
    "ELEMENT_WISE_ADD": (lambda p, q: p + q, np.add),
    "ELEMENT_WISE_ADD1": (lambda p, q: p + q, np.add),
    "ELEMENT_WISE_SUBTRACT": (lambda p, q: p - q, np.subtract),
    "ELEMENT_WISE_MULTIPLY": (lambda p, q: p * q, np.multiply),
    "ELEMENT_WISE_DIVIDE": (_trunc_div, np.divide),
    "ELEMENT_WISE_MAX": (max, np.maximum),
    "ELEMENT_WISE_MIN": (min, np.minimum),
    # MEAN: (A + B) / 2; integers: truncated (the generator uses even sums only).
    "ELEMENT_WISE_MEAN": (lambda p, q: _trunc_div(p + q, 2), lambda p, q: (p + q) / 2),
    "ELEMENT_WISE_DIFFERENCE_SQUARE": (lambda p, q: (p - q) * (p - q), lambda p, q: (p - q) * (p - q)),
    "ELEMENT_WISE_ATAN_YX": (None, np.arctan2),  # atan2(A, B): A is y, B is x
    "ELEMENT_WISE_MODULUS_TRUNCATE": (_fmod_int, np.fmod),  # sign of the dividend
    "ELEMENT_WISE_MODULUS_FLOOR": (lambda p, q: p % q, lambda p, q: p - np.floor(p / q) * q),  # sign of divisor
}


def binary(op, a, b, **_):
    int_fn, float_fn = BINARY[op]
    return _int_or_float(a, b, int_fn, float_fn)


def modulus_floor_float(a, b):
    """Float MODULUS_FLOOR computed without the rounding of p / q: Python's float % is exact (fmod-based)."""
    return np.frompyfunc(lambda p, q: math.fmod(p, q) + (q if math.fmod(p, q) != 0 and (math.fmod(p, q) < 0)
                                                         != (q < 0) else 0.0), 2, 1)(_f(a), _f(b)).astype(F64)


# ----------------------------------------------------------------------------------------------------------------
# Comparisons, logic, selection, bits (results are exact integers)
# ----------------------------------------------------------------------------------------------------------------

COMPARE = {
    "ELEMENT_WISE_LOGICAL_EQUALS": np.equal,
    "ELEMENT_WISE_LOGICAL_GREATER_THAN": np.greater,
    "ELEMENT_WISE_LOGICAL_LESS_THAN": np.less,
    "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL": np.greater_equal,
    "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL": np.less_equal,
}


def compare(op, a, b, **_):
    """1 where the comparison holds, else 0 (compared as exact values; integers never pass through float)."""
    if np.asarray(a).dtype.kind in "iu":
        return COMPARE[op](np.asarray(a).astype(object), np.asarray(b).astype(object)).astype(np.int64)
    return COMPARE[op](_f(a), _f(b)).astype(np.int64)


LOGICAL = {
    "ELEMENT_WISE_LOGICAL_AND": np.logical_and,
    "ELEMENT_WISE_LOGICAL_OR": np.logical_or,
    "ELEMENT_WISE_LOGICAL_XOR": np.logical_xor,
}


def logical(op, a, b, **_):
    """Inputs are booleans: zero is false, anything else true."""
    return LOGICAL[op](np.asarray(a) != 0, np.asarray(b) != 0).astype(np.int64)


def logical_not(x, **_):
    return (np.asarray(x) == 0).astype(np.int64)


def is_nan(x, **_):
    return np.isnan(_f(x)).astype(np.int64)


def is_infinity(x, InfinityMode="EITHER", **_):
    x = _f(x)
    mode = InfinityMode.replace("DML_IS_INFINITY_MODE_", "")
    if mode == "EITHER":
        r = np.isinf(x)
    elif mode == "POSITIVE":
        r = x == np.inf
    elif mode == "NEGATIVE":
        r = x == -np.inf
    else:
        raise ValueError(mode)
    return r.astype(np.int64)


def sign(x, **_):
    if np.asarray(x).dtype.kind in "iu":
        return np.sign(np.asarray(x).astype(np.int64))
    return _sign(x)


def negate(x, **_):
    if np.asarray(x).dtype.kind in "iu":
        return -np.asarray(x).astype(np.int64)
    return -_f(x)


def round_(x, RoundingMode="HALVES_TO_NEAREST_EVEN", **_):
    x = _f(x)
    mode = RoundingMode.replace("DML_ROUNDING_MODE_", "")
    if mode == "HALVES_TO_NEAREST_EVEN":
        return np.rint(x)
    if mode == "TOWARD_ZERO":
        return np.trunc(x)
    if mode == "TOWARD_INFINITY":  # halves away from zero ("toward infinity" in magnitude)
        return np.sign(x) * np.floor(np.abs(x) + 0.5)
    raise ValueError(mode)


def if_(cond, a, b, **_):
    """ELEMENT_WISE_IF: Condition != 0 ? A : B (values copied)."""
    return np.where(np.asarray(cond) != 0, np.asarray(a), np.asarray(b))


def _bits(dtype):
    return np.dtype(dtype).itemsize * 8


_UINT_OF_WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _raw(x):
    """The elements' bit patterns as unsigned Python integers (floats: their IEEE encoding)."""
    x = np.asarray(x)
    return [int(v) for v in x.view(_UINT_OF_WIDTH[x.dtype.itemsize]).ravel()]


def _from_raw(values, like):
    """Unsigned bit patterns back to `like`'s type and shape (signed: two's complement; floats: the encoding)."""
    like = np.asarray(like)
    raw = np.array(values, dtype=_UINT_OF_WIDTH[like.dtype.itemsize]).reshape(like.shape)
    return raw.view(like.dtype)


def _wrap(v, dtype):
    """Python integer -> value of the two's-complement or unsigned type of that width."""
    bits = _bits(dtype)
    v = int(v) & ((1 << bits) - 1)
    if np.dtype(dtype).kind == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def bitwise(op, a, b, **_):
    """Bit operations on the elements' bit patterns (DirectML: the shifts are logical, also for signed types;
    float types are operated on as their encodings). Returns an array of a's type."""
    a = np.asarray(a)
    mask = (1 << _bits(a.dtype)) - 1
    if op in ("ELEMENT_WISE_BIT_SHIFT_LEFT", "ELEMENT_WISE_BIT_SHIFT_RIGHT"):
        counts = [int(v) for v in np.asarray(b).ravel()]
    else:
        counts = _raw(np.asarray(b).astype(a.dtype))
    fn = {"ELEMENT_WISE_BIT_AND": lambda p, q: p & q, "ELEMENT_WISE_BIT_OR": lambda p, q: p | q,
          "ELEMENT_WISE_BIT_XOR": lambda p, q: p ^ q,
          "ELEMENT_WISE_BIT_SHIFT_LEFT": lambda p, q: (p << q) & mask,
          "ELEMENT_WISE_BIT_SHIFT_RIGHT": lambda p, q: p >> q}[op]
    return _from_raw([fn(p, q) & mask for p, q in zip(_raw(a), counts)], a)


def bit_not(x, **_):
    x = np.asarray(x)
    mask = (1 << _bits(x.dtype)) - 1
    return _from_raw([~p & mask for p in _raw(x)], x)


def bit_count(x, **_):
    """Number of set bits of each element's bit pattern (two's complement; floats: their encoding)."""
    return np.array([bin(p).count("1") for p in _raw(x)], dtype=np.int64).reshape(np.shape(x))


# ----------------------------------------------------------------------------------------------------------------
# Quantization
# ----------------------------------------------------------------------------------------------------------------

QRANGE = {"INT8": (-128, 127), "UINT8": (0, 255)}


def quantize_linear(x, scale, zero_point, out_type, **_):
    """clamp(round(x / scale) + zero_point, Min, Max), the division in float64."""
    lo, hi = QRANGE[out_type]
    q = np.rint(_f(x) / _f(np.asarray(scale, dtype=np.float32))) + _f(zero_point)
    return np.clip(q, lo, hi)


def quantize_real(x, scale):
    """x / scale before rounding (the generator keeps it away from .5 ties)."""
    return _f(x) / _f(np.asarray(scale, dtype=np.float32))


def dequantize_linear(x, scale, zero_point, **_):
    """(x - zero_point) * scale."""
    return (_f(x) - _f(zero_point)) * _f(np.asarray(scale, dtype=np.float32))


def quantized_linear_add_real(a, a_scale, a_zp, b, b_scale, b_zp, out_scale):
    av = (_f(a) - _f(a_zp)) * _f(np.float32(a_scale))
    bv = (_f(b) - _f(b_zp)) * _f(np.float32(b_scale))
    return (av + bv) / _f(np.float32(out_scale))


def quantized_linear_add(a, a_scale, a_zp, b, b_scale, b_zp, out_scale, out_zp, out_type):
    lo, hi = QRANGE[out_type]
    real = quantized_linear_add_real(a, a_scale, a_zp, b, b_scale, b_zp, out_scale)
    return np.clip(np.rint(real) + _f(out_zp), lo, hi)


# ----------------------------------------------------------------------------------------------------------------
# Activations
# ----------------------------------------------------------------------------------------------------------------


def _sigmoid(v):
    # Split by sign so neither branch overflows.
    out = np.empty_like(v)
    pos = v >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-v[pos]))
    e = np.exp(v[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def _softplus(v):
    """log(1 + exp(v)) without overflow: max(v, 0) + log1p(exp(-|v|))."""
    return np.maximum(v, 0.0) + np.log1p(np.exp(-np.abs(v)))


def activation(op, x, Alpha=None, Beta=None, Gamma=None, Steepness=None, Bias=None, Threshold=None,
               SigmoidInputScale=None, **_):
    v = _f(x)
    a = None if Alpha is None else F64(np.float32(Alpha))
    b = None if Beta is None else F64(np.float32(Beta))
    with np.errstate(all="ignore"):
        if op == "ACTIVATION_IDENTITY":
            return v
        if op == "ACTIVATION_RELU":
            return np.maximum(v, 0.0)
        if op == "ACTIVATION_LEAKY_RELU":
            return np.where(v < 0, a * v, v)
        if op == "ACTIVATION_THRESHOLDED_RELU":
            return np.where(v > a, v, 0.0)
        if op == "ACTIVATION_LINEAR":
            return a * v + b
        if op == "ACTIVATION_HARD_SIGMOID":
            return np.maximum(0.0, np.minimum(a * v + b, 1.0))
        if op == "ACTIVATION_HARD_SWISH":
            return v * np.maximum(0.0, np.minimum(a * v + b, 1.0))
        if op == "ACTIVATION_SIGMOID":
            return _sigmoid(v)
        if op == "ACTIVATION_SWISH":
            return v * _sigmoid(F64(np.float32(SigmoidInputScale)) * v)
        if op == "ACTIVATION_TANH":
            return np.tanh(v)
        if op == "ACTIVATION_SCALED_TANH":
            return a * np.tanh(b * v)
        if op == "ACTIVATION_ELU":
            return np.where(v >= 0, v, a * np.expm1(v))
        if op == "ACTIVATION_CELU":
            return np.maximum(0.0, v) + np.minimum(0.0, a * np.expm1(v / a))
        if op == "ACTIVATION_SCALED_ELU":
            g = F64(np.float32(Gamma))
            return np.where(v > 0, g * v, g * a * np.expm1(v))
        if op == "ACTIVATION_SOFTSIGN":
            return v / (1.0 + np.abs(v))
        if op == "ACTIVATION_SOFTPLUS":
            s = F64(np.float32(Steepness))
            return _softplus(s * v) / s
        if op == "ACTIVATION_PARAMETRIC_SOFTPLUS":
            return a * _softplus(b * v)
        if op == "ACTIVATION_SHRINK":
            t, bias = F64(np.float32(Threshold)), F64(np.float32(Bias))
            return np.where(v < -t, v + bias, np.where(v > t, v - bias, 0.0))
        if op == "ACTIVATION_GELU":
            return 0.5 * v * (1.0 + _erf(v / math.sqrt(2.0)))
    raise KeyError(op)


def parameterized_relu(x, slope, **_):
    v = _f(x)
    return np.where(v < 0, _f(slope) * v, v)


def _axes_last(x):
    return (np.asarray(x).ndim - 1,)


def softmax(x, axes=None):
    v = _f(x)
    axes = tuple(axes) if axes is not None else _axes_last(v)
    m = np.max(v, axis=axes, keepdims=True)
    e = np.exp(v - m)
    return e / np.sum(e, axis=axes, keepdims=True)


def log_softmax(x, axes=None):
    v = _f(x)
    axes = tuple(axes) if axes is not None else _axes_last(v)
    m = np.max(v, axis=axes, keepdims=True)
    return (v - m) - np.log(np.sum(np.exp(v - m), axis=axes, keepdims=True))


def hardmax(x, axes=None):
    """1 at the first largest element of each reduced set (in row-major order of the reduced axes), else 0."""
    v = _f(x)
    axes = tuple(axes) if axes is not None else _axes_last(v)
    keep = [d for d in range(v.ndim) if d not in axes]
    moved = np.transpose(v, keep + list(axes))
    flat = moved.reshape(int(np.prod([v.shape[d] for d in keep], dtype=np.int64)), -1)
    out = np.zeros_like(flat)
    out[np.arange(flat.shape[0]), np.argmax(flat, axis=1)] = 1.0
    out = out.reshape(moved.shape)
    inverse = np.argsort(keep + list(axes))
    return np.transpose(out, inverse)


def hardmax_has_ties(x, axes=None):
    v = _f(x)
    axes = tuple(axes) if axes is not None else _axes_last(v)
    m = np.max(v, axis=axes, keepdims=True)
    return bool(np.any(np.sum(v == m, axis=axes) > 1))


# ----------------------------------------------------------------------------------------------------------------
# Rounding to the output type
# ----------------------------------------------------------------------------------------------------------------


def to_output(v, dtype):
    """Round float64 results once to the output type (integers must already be exact and in range)."""
    dtype = np.dtype(dtype)
    v = np.asarray(v)
    if v.dtype == dtype:  # already exact in the output type (bit operations, selections)
        return v.copy()
    if dtype.kind == "f":
        with np.errstate(over="ignore"):  # a finite float64 beyond the type's range rounds to ±inf
            return v.astype(F64).astype(dtype)
    info = np.iinfo(dtype)
    as_int = np.asarray(v).astype(object) if v.dtype == object else v
    flat = [int(t) for t in np.asarray(as_int).ravel()]
    assert all(info.min <= t <= info.max for t in flat), f"integer result out of range for {dtype}"
    assert v.dtype.kind != "f" or np.all(np.asarray(v) == np.round(v)), "non-integer result for an integer type"
    return np.array(flat, dtype=dtype).reshape(np.shape(v))


# ----------------------------------------------------------------------------------------------------------------
# Dispatch by desc: the float64 (or exact integer) result of one case
# ----------------------------------------------------------------------------------------------------------------

QRANGE_BY_DTYPE = {np.dtype(np.int8): "INT8", np.dtype(np.uint8): "UINT8"}


def evaluate(op, t, attrs, out_dtype):
    """op: the name after DML_OPERATOR_; t: {member: logical array}; attrs: the desc's other members."""
    sb = attrs.get("ScaleBias")
    sb = None if sb is None else (sb["Scale"], sb["Bias"])
    a = {k: v for k, v in attrs.items() if k not in ("ScaleBias", "AxisCount", "MinMaxDataType")}
    if op in UNARY_MATH:
        return unary_math(op, t["InputTensor"], sb)
    if op in ("ELEMENT_WISE_CLIP", "ELEMENT_WISE_CLIP1"):
        return clip(t["InputTensor"], a["Min"], a["Max"], sb)
    if op == "ELEMENT_WISE_THRESHOLD":
        return threshold(t["InputTensor"], a["Min"], sb)
    if op == "ELEMENT_WISE_CONSTANT_POW":
        return constant_pow(t["InputTensor"], a["Exponent"], sb)
    if op == "ELEMENT_WISE_POW":
        return pow_(t["InputTensor"], t["ExponentTensor"], sb)
    if op == "ELEMENT_WISE_MODULUS_FLOOR" and np.asarray(t["ATensor"]).dtype.kind == "f":
        return modulus_floor_float(t["ATensor"], t["BTensor"])
    if op in BINARY:
        return binary(op, t["ATensor"], t["BTensor"])
    if op in COMPARE:
        return compare(op, t["ATensor"], t["BTensor"])
    if op in LOGICAL:
        return logical(op, t["ATensor"], t["BTensor"])
    if op.startswith("ELEMENT_WISE_BIT_") and op not in ("ELEMENT_WISE_BIT_NOT", "ELEMENT_WISE_BIT_COUNT"):
        return bitwise(op, t["ATensor"], t["BTensor"])
    simple = {"ELEMENT_WISE_LOGICAL_NOT": logical_not, "ELEMENT_WISE_IS_NAN": is_nan, "ELEMENT_WISE_SIGN": sign,
              "ELEMENT_WISE_NEGATE": negate, "ELEMENT_WISE_BIT_NOT": bit_not, "ELEMENT_WISE_BIT_COUNT": bit_count}
    if op in simple:
        return simple[op](t["InputTensor"])
    if op == "ELEMENT_WISE_IS_INFINITY":
        return is_infinity(t["InputTensor"], a["InfinityMode"])
    if op == "ELEMENT_WISE_ROUND":
        return round_(t["InputTensor"], a["RoundingMode"])
    if op == "ELEMENT_WISE_IF":
        return if_(t["ConditionTensor"], t["ATensor"], t["BTensor"])
    if op == "ELEMENT_WISE_QUANTIZE_LINEAR":
        return quantize_linear(t["InputTensor"], t["ScaleTensor"], t["ZeroPointTensor"],
                               QRANGE_BY_DTYPE[np.dtype(out_dtype)])
    if op == "ELEMENT_WISE_DEQUANTIZE_LINEAR":
        return dequantize_linear(t["InputTensor"], t["ScaleTensor"], t["ZeroPointTensor"])
    if op == "ACTIVATION_PARAMETERIZED_RELU":
        return parameterized_relu(t["InputTensor"], t["SlopeTensor"])
    axes = a.get("Axes")
    reductions = {"ACTIVATION_SOFTMAX": softmax, "ACTIVATION_SOFTMAX1": softmax, "ACTIVATION_LOG_SOFTMAX": log_softmax,
                  "ACTIVATION_LOG_SOFTMAX1": log_softmax, "ACTIVATION_HARDMAX": hardmax,
                  "ACTIVATION_HARDMAX1": hardmax}
    if op in reductions:
        return reductions[op](t["InputTensor"], axes)
    return activation(op, t["InputTensor"], **a)


def ulp_distance(got, want):
    """Largest distance in units in the last place between two float arrays of one type (NaN = NaN, else inf)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype.kind != "f":
        return float(np.max(np.abs(got.astype(np.int64) - want.astype(np.int64)), initial=0))
    both_nan = np.isnan(got) & np.isnan(want)
    bits = {2: np.int16, 4: np.int32, 8: np.int64}[got.dtype.itemsize]

    def ordered(x):
        i = x.view(bits).astype(np.int64)
        return np.where(i < 0, np.iinfo(bits).min - i, i)

    d = np.abs(ordered(got) - ordered(want)).astype(np.float64)
    d = np.where(both_nan, 0.0, np.where(np.isnan(got) | np.isnan(want), np.inf, d))
    return float(np.max(d, initial=0.0))
