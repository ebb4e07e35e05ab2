"""Bundled cases of the element-wise and activation families (cases/element_wise.json, cases/activation.json).

Called by gen_cases.py (which writes and --checks every bundled file); expected outputs come from the independent
numpy oracle in dml_oracle_element_wise.py. Per operator: every data type listed below on a small packed 4-D
tensor, a broadcast case (an input with 0 strides), ScaleBias where the desc has it, every attribute value of
interest (enums, Min/Max, Alpha/Beta, axes), and special values where the DirectML docs define the result
(comparisons and IS_NAN/IS_INFINITY on NaN/inf/subnormals; IEEE results such as exp(-inf) = 0). Inputs avoid
what the docs leave open (integer overflow, .5 ties in quantization, negative right shifts, subnormal inputs of
float arithmetic that a GPU may flush).
"""

import math

import numpy as np

import dml_oracle_element_wise as ew
import gen_cases as gc

F32 = np.float32
FLOATS = ("FLOAT32", "FLOAT16")
SIGNED = ("INT32", "INT16", "INT8")
UNSIGNED = ("UINT32", "UINT16", "UINT8")
INTS = ("INT32", "UINT32", "INT16", "UINT16", "INT8", "UINT8")
SHAPE = [1, 2, 3, 4]


def dtype_of(dt):
    return np.dtype(gc.DTYPES[dt])


def uniform(rng, dt, shape, lo, hi, bcast=()):
    """Values uniform in [lo, hi] (integers inclusive), repeated along broadcast dimensions, of type dt."""
    base_shape = [1 if d in bcast else s for d, s in enumerate(shape)]
    if dtype_of(dt).kind == "f":
        base = rng.uniform(lo, hi, size=base_shape)
    else:
        base = rng.integers(int(lo), int(hi), size=base_shape, endpoint=True)
    return np.ascontiguousarray(np.broadcast_to(base, shape)).astype(dtype_of(dt))


def int_range(dt, fraction=1.0):
    info = np.iinfo(dtype_of(dt))
    return int(info.min * fraction), int(info.max * fraction)


def scale_bias_member(sb):
    return {"Scale": float(sb[0]), "Bias": float(sb[1])}


class Family:
    """One case file: cases share the helpers that lay out descs, sources and expectations."""

    def __init__(self, stem, prefix):
        self.cf = gc.CaseFile(stem)
        self.prefix = prefix

    def add(self, name, description, op, inputs, output_dt, expected, attrs=None, layouts=None, tags=(),
            output_sizes=None):
        """inputs: ordered {member: array}; attrs: ordered desc members after OutputTensor (ScaleBias first)."""
        full = f"{self.prefix}/{name}"
        layouts = layouts or {}
        desc, sources = {}, {}
        for member, arr in inputs.items():
            dt = next(k for k, v in gc.DTYPES.items() if np.dtype(v) == arr.dtype)
            desc[member] = gc.tensor_desc(dt, list(arr.shape), layouts.get(member, gc.PACKED))
            sources[member] = self.cf.h5(f"/{full}/{member}", arr)
        sizes = output_sizes or list(expected.shape)
        desc["OutputTensor"] = gc.tensor_desc(output_dt, sizes, layouts.get("OutputTensor", gc.PACKED),
                                              is_output=True)
        for key, value in (attrs or {}).items():
            desc[key] = value
        want = {"OutputTensor": self.cf.h5(f"/{full}/expected/OutputTensor", expected)}
        case = {"name": full, "description": description, "operator": {"type": f"DML_OPERATOR_{op}", "desc": desc},
                "inputs": sources, "expected": want, "tags": ["conformance"] + list(tags)}
        self.cf.add(case, [("OutputTensor", expected)])


# ================================================================================================================
# Element-wise: operator rows
# ================================================================================================================

# Unary math with ScaleBias: (op, float input domain, description of the domain)
UNARY_DOMAINS = {
    "ELEMENT_WISE_IDENTITY": (-100, 100),
    "ELEMENT_WISE_ABS": (-100, 100),
    "ELEMENT_WISE_ACOS": (-0.999, 0.999),
    "ELEMENT_WISE_ASIN": (-0.999, 0.999),
    "ELEMENT_WISE_ATAN": (-20, 20),
    "ELEMENT_WISE_CEIL": (-50, 50),
    "ELEMENT_WISE_FLOOR": (-50, 50),
    "ELEMENT_WISE_COS": (-6, 6),
    "ELEMENT_WISE_SIN": (-6, 6),
    "ELEMENT_WISE_TAN": (-1.4, 1.4),
    "ELEMENT_WISE_EXP": (-10, 10),
    "ELEMENT_WISE_LOG": (0.01, 1000),
    "ELEMENT_WISE_SQRT": (0, 1000),
    "ELEMENT_WISE_RECIP": (0.1, 100),
    "ELEMENT_WISE_ERF": (-3, 3),
    "ELEMENT_WISE_SINH": (-8, 8),
    "ELEMENT_WISE_COSH": (-8, 8),
    "ELEMENT_WISE_TANH": (-5, 5),
    "ELEMENT_WISE_ASINH": (-100, 100),
    "ELEMENT_WISE_ACOSH": (1.01, 100),
    "ELEMENT_WISE_ATANH": (-0.99, 0.99),
}
# Domains that shrink for FLOAT16 so results stay finite and well conditioned in half precision.
FP16_DOMAINS = {"ELEMENT_WISE_EXP": (-8, 8), "ELEMENT_WISE_SINH": (-6, 6), "ELEMENT_WISE_COSH": (-6, 6),
                "ELEMENT_WISE_LOG": (0.01, 100), "ELEMENT_WISE_SQRT": (0, 100)}
# IEEE results of the unary math at the special points (the docs name none; these are what C99 Annex F gives).
UNARY_SPECIALS = {
    "ELEMENT_WISE_EXP": [-np.inf, np.inf, 0.0, -0.0, np.nan, -80.0, 100.0],  # exp(-80) is a normal float32
    "ELEMENT_WISE_LOG": [0.0, np.inf, 1.0, -1.0, np.nan],
    "ELEMENT_WISE_SQRT": [0.0, np.inf, -1.0, np.nan, 4.0],
    "ELEMENT_WISE_ABS": [-np.inf, np.inf, -0.0, np.nan, -3.0],
    "ELEMENT_WISE_TANH": [-np.inf, np.inf, 0.0, np.nan, 30.0, -30.0],
    "ELEMENT_WISE_RECIP": [0.0, -0.0, np.inf, -np.inf, np.nan, 4.0],
}


def gen_unary(fam):
    for op, (lo, hi) in UNARY_DOMAINS.items():
        short = op.replace("ELEMENT_WISE_", "").lower()
        for dt in FLOATS:
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            dlo, dhi = FP16_DOMAINS.get(op, (lo, hi)) if dt == "FLOAT16" else (lo, hi)
            x = uniform(rng, dt, SHAPE, dlo, dhi)
            y = ew.to_output(ew.unary_math(op, x), dtype_of(dt))
            fam.add(name, f"{op} {dt}, inputs in [{dlo}, {dhi}]", op, {"InputTensor": x}, dt, y,
                    tags=["dtype-coverage"])
        # ScaleBias: the input is drawn so that x * Scale + Bias covers the domain.
        name = f"{short}/float32/scale_bias"
        rng = gc.case_rng(name)
        sb = (F32(0.5), F32(0.25)) if op != "ELEMENT_WISE_ACOSH" else (F32(2.0), F32(1.0))
        v = uniform(rng, "FLOAT64", [2, 3, 2, 5], lo, hi)
        x = ((v - float(sb[1])) / float(sb[0])).astype(F32)
        y = ew.to_output(ew.unary_math(op, x, sb), F32)
        fam.add(name, f"{op} with ScaleBias {{{sb[0]}, {sb[1]}}}: f(x*Scale + Bias)", op, {"InputTensor": x},
                "FLOAT32", y, attrs={"ScaleBias": scale_bias_member(sb)}, tags=["scale-bias"])
        if op in UNARY_SPECIALS:
            name = f"{short}/float32/special_values"
            x = np.array(UNARY_SPECIALS[op] + [0.5] * (8 - len(UNARY_SPECIALS[op])), dtype=F32).reshape(1, 1, 2, 4)
            y = ew.to_output(ew.unary_math(op, x), F32)
            fam.add(name, f"{op} at IEEE special points (NaN, ±inf, ±0, out of domain)", op, {"InputTensor": x},
                    "FLOAT32", y, tags=["special-values"])
    # Integer IDENTITY and ABS (no ScaleBias): copied / exact.
    for op, types in (("ELEMENT_WISE_IDENTITY", INTS), ("ELEMENT_WISE_ABS", SIGNED)):
        short = op.replace("ELEMENT_WISE_", "").lower()
        for dt in types:
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            lo, hi = int_range(dt)
            x = uniform(rng, dt, SHAPE, lo + 1, hi)  # ABS of the minimum value overflows: not described
            y = ew.to_output(ew.unary_math(op, x), dtype_of(dt))
            fam.add(name, f"{op} {dt}", op, {"InputTensor": x}, dt, y, tags=["dtype-coverage"])
    # Broadcast input: a {1,3,1,1} column read through 0 strides over {2,3,2,4}.
    for op in ("ELEMENT_WISE_EXP", "ELEMENT_WISE_SQRT"):
        short = op.replace("ELEMENT_WISE_", "").lower()
        name = f"{short}/float32/broadcast_input"
        rng = gc.case_rng(name)
        x = uniform(rng, "FLOAT32", [2, 3, 2, 4], 0.1, 4, bcast=(0, 2, 3))
        y = ew.to_output(ew.unary_math(op, x), F32)
        fam.add(name, f"{op}: input broadcast along N, H, W (strides 0)", op, {"InputTensor": x}, "FLOAT32", y,
                layouts={"InputTensor": gc.Layout(bcast=[0, 2, 3])}, tags=["broadcast"])


def gen_clip_threshold_pow(fam):
    for dt in FLOATS:
        for lo, hi in ((-1.0, 1.0), (0.0, 6.0)):
            name = f"clip/{dt.lower()}/min{lo:g}_max{hi:g}"
            rng = gc.case_rng(name)
            x = uniform(rng, dt, SHAPE, -4, 8)
            y = ew.to_output(ew.clip(x, lo, hi), dtype_of(dt))
            fam.add(name, f"ELEMENT_WISE_CLIP {dt}, Min {lo}, Max {hi}", "ELEMENT_WISE_CLIP", {"InputTensor": x},
                    dt, y, attrs={"Min": lo, "Max": hi}, tags=["attributes"])
    name = "clip/float32/scale_bias"
    rng = gc.case_rng(name)
    x = uniform(rng, "FLOAT32", SHAPE, -4, 4)
    sb = (F32(2.0), F32(-0.5))
    y = ew.to_output(ew.clip(x, -1.0, 3.0, sb), F32)
    fam.add(name, "ELEMENT_WISE_CLIP: ScaleBias before the clamp", "ELEMENT_WISE_CLIP", {"InputTensor": x},
            "FLOAT32", y, attrs={"ScaleBias": scale_bias_member(sb), "Min": -1.0, "Max": 3.0}, tags=["scale-bias"])
    name = "clip/float32/infinities"
    x = np.array([-np.inf, np.inf, -2, 2, 0.5, -0.5, 0, 1], dtype=F32).reshape(1, 1, 2, 4)
    y = ew.to_output(ew.clip(x, -1.0, 1.0), F32)
    fam.add(name, "ELEMENT_WISE_CLIP of ±inf is clamped", "ELEMENT_WISE_CLIP", {"InputTensor": x}, "FLOAT32", y,
            attrs={"Min": -1.0, "Max": 1.0}, tags=["special-values"])
    # CLIP1: Min/Max as scalar unions of MinMaxDataType (integers clamp exactly).
    for dt, lo, hi in (("FLOAT32", -0.5, 2.5), ("FLOAT16", 0.0, 1.0), ("INT32", -1000, 1000), ("UINT8", 10, 200),
                       ("INT8", -20, 50)):
        name = f"clip1/{dt.lower()}"
        rng = gc.case_rng(name)
        if dtype_of(dt).kind == "f":
            x = uniform(rng, dt, SHAPE, -3, 4)
        else:
            x = uniform(rng, dt, SHAPE, *int_range(dt))
        y = ew.to_output(ew.clip(x, lo, hi), dtype_of(dt))
        fam.add(name, f"ELEMENT_WISE_CLIP1 {dt}, Min {lo}, Max {hi} of MinMaxDataType {dt}",
                "ELEMENT_WISE_CLIP1", {"InputTensor": x}, dt, y,
                attrs={"MinMaxDataType": dt, "Min": lo, "Max": hi}, tags=["attributes", "scalar-union"])
    for dt in FLOATS:
        name = f"threshold/{dt.lower()}"
        rng = gc.case_rng(name)
        x = uniform(rng, dt, SHAPE, -4, 4)
        y = ew.to_output(ew.threshold(x, 0.5), dtype_of(dt))
        fam.add(name, f"ELEMENT_WISE_THRESHOLD {dt}, Min 0.5", "ELEMENT_WISE_THRESHOLD", {"InputTensor": x}, dt,
                y, attrs={"Min": 0.5}, tags=["attributes"])
    name = "threshold/float32/scale_bias"
    rng = gc.case_rng(name)
    x = uniform(rng, "FLOAT32", SHAPE, -4, 4)
    sb = (F32(-1.0), F32(0.5))
    y = ew.to_output(ew.threshold(x, -1.0, sb), F32)
    fam.add(name, "ELEMENT_WISE_THRESHOLD: max(x*Scale + Bias, Min)", "ELEMENT_WISE_THRESHOLD",
            {"InputTensor": x}, "FLOAT32", y, attrs={"ScaleBias": scale_bias_member(sb), "Min": -1.0},
            tags=["scale-bias"])
    for dt in FLOATS:
        for e in (2.0, 0.5, -1.5, 3.0):
            name = f"constant_pow/{dt.lower()}/e{e:g}"
            rng = gc.case_rng(name)
            x = uniform(rng, dt, SHAPE, 0.1, 4)
            y = ew.to_output(ew.constant_pow(x, e), dtype_of(dt))
            fam.add(name, f"ELEMENT_WISE_CONSTANT_POW {dt}, Exponent {e}", "ELEMENT_WISE_CONSTANT_POW",
                    {"InputTensor": x}, dt, y, attrs={"Exponent": e}, tags=["attributes"])
        name = f"pow/{dt.lower()}"
        rng = gc.case_rng(name)
        x = uniform(rng, dt, SHAPE, 0.1, 4)
        e = uniform(rng, dt, SHAPE, -3, 3)
        y = ew.to_output(ew.pow_(x, e), dtype_of(dt))
        fam.add(name, f"ELEMENT_WISE_POW {dt}, positive bases", "ELEMENT_WISE_POW",
                {"InputTensor": x, "ExponentTensor": e}, dt, y, tags=["dtype-coverage"])
    name = "pow/float32/negative_base_integer_exponent"
    x = np.array([-2, -3, -0.5, 2, -1.5, 3, -4, 0.5], dtype=F32).reshape(1, 1, 2, 4)
    e = np.array([2, 3, -2, 0.5, 3, -1, 1, 2], dtype=F32).reshape(1, 1, 2, 4)
    y = ew.to_output(ew.pow_(x, e), F32)
    fam.add(name, "ELEMENT_WISE_POW: negative bases with integral exponents (C pow)", "ELEMENT_WISE_POW",
            {"InputTensor": x, "ExponentTensor": e}, "FLOAT32", y, tags=["special-values"])
    name = "pow/float32/scale_bias_broadcast_exponent"
    rng = gc.case_rng(name)
    x = uniform(rng, "FLOAT32", [2, 3, 2, 4], 0.5, 3)
    e = uniform(rng, "FLOAT32", [2, 3, 2, 4], -2, 2, bcast=(0, 2, 3))
    sb = (F32(0.5), F32(1.0))
    y = ew.to_output(ew.pow_(x, e, sb), F32)
    fam.add(name, "ELEMENT_WISE_POW: ScaleBias on the base only, exponent broadcast per channel",
            "ELEMENT_WISE_POW", {"InputTensor": x, "ExponentTensor": e}, "FLOAT32", y,
            attrs={"ScaleBias": scale_bias_member(sb)}, layouts={"ExponentTensor": gc.Layout(bcast=[0, 2, 3])},
            tags=["scale-bias", "broadcast"])


# ================================================================================================================
# Binary arithmetic, comparisons, logic, selection
# ================================================================================================================

ARITH_TYPES = {
    "ELEMENT_WISE_ADD": FLOATS + INTS,
    "ELEMENT_WISE_SUBTRACT": FLOATS + INTS,
    "ELEMENT_WISE_MULTIPLY": FLOATS + INTS,
    "ELEMENT_WISE_DIVIDE": FLOATS + ("INT32", "UINT32", "INT8", "UINT8"),
    "ELEMENT_WISE_MAX": FLOATS + INTS,
    "ELEMENT_WISE_MIN": FLOATS + INTS,
    "ELEMENT_WISE_MEAN": FLOATS + ("INT32",),
    "ELEMENT_WISE_DIFFERENCE_SQUARE": FLOATS,
    "ELEMENT_WISE_ATAN_YX": FLOATS,
    "ELEMENT_WISE_MODULUS_TRUNCATE": FLOATS + ("INT32", "UINT32", "INT8"),
    "ELEMENT_WISE_MODULUS_FLOOR": FLOATS + ("INT32", "UINT32", "INT8"),
    "ELEMENT_WISE_ADD1": FLOATS,
}


def binary_operands(op, dt, rng, shape, bcast_b=()):
    """Operands whose exact result is representable and away from what the docs leave open."""
    if dtype_of(dt).kind == "f":
        a = uniform(rng, dt, shape, -50, 50)
        b = uniform(rng, dt, shape, -50, 50, bcast_b)
        if op in ("ELEMENT_WISE_DIVIDE", "ELEMENT_WISE_MODULUS_TRUNCATE", "ELEMENT_WISE_MODULUS_FLOOR"):
            b = np.where(np.abs(b) < 0.5, np.asarray(2, dtype=b.dtype), b).astype(b.dtype)
        return a, b
    lo, hi = int_range(dt)
    if op in ("ELEMENT_WISE_ADD", "ELEMENT_WISE_SUBTRACT", "ELEMENT_WISE_MEAN"):
        lo2, hi2 = (lo // 2, hi // 2)
        if op == "ELEMENT_WISE_MEAN":  # below 2^23: exact however the mean is evaluated (the docs do not say)
            lo2, hi2 = max(lo2, -(1 << 23)), min(hi2, 1 << 23)
        if op == "ELEMENT_WISE_SUBTRACT" and lo == 0:  # unsigned: keep A >= B
            a = uniform(rng, dt, shape, hi // 2, hi)
            b = uniform(rng, dt, shape, 0, hi // 2, bcast_b)
            return a, b
        a, b = uniform(rng, dt, shape, lo2, hi2), uniform(rng, dt, shape, lo2, hi2, bcast_b)
        if op == "ELEMENT_WISE_MEAN":  # even sums: (A + B) / 2 is exact
            b = (b.astype(np.int64) - ((a.astype(np.int64) + b.astype(np.int64)) % 2)).astype(a.dtype)
            if bcast_b:
                raise AssertionError("MEAN integer operands cannot broadcast B")
        return a, b
    if op == "ELEMENT_WISE_MULTIPLY":
        m = int(math.isqrt(min(abs(lo), hi) if lo < 0 else hi))
        return uniform(rng, dt, shape, -m if lo < 0 else 0, m), uniform(rng, dt, shape, -m if lo < 0 else 0, m,
                                                                           bcast_b)
    if op in ("ELEMENT_WISE_MAX", "ELEMENT_WISE_MIN"):
        return uniform(rng, dt, shape, lo, hi), uniform(rng, dt, shape, lo, hi, bcast_b)
    # DIVIDE (exact quotients) and MODULUS (non-zero divisors)
    bl, bh = (-9, 9) if lo < 0 else (1, 9)
    b = uniform(rng, dt, shape, bl, bh, bcast_b)
    b = np.where(b == 0, np.asarray(3, dtype=b.dtype), b).astype(b.dtype)
    if op == "ELEMENT_WISE_DIVIDE":
        qmax = hi // 9
        q = uniform(rng, dt, shape, -qmax if lo < 0 else 0, qmax)
        return (q.astype(np.int64) * b.astype(np.int64)).astype(b.dtype), b
    return uniform(rng, dt, shape, lo + 1, hi), b


def binary_expected(op, a, b, dt):
    if op == "ELEMENT_WISE_MODULUS_FLOOR" and dtype_of(dt).kind == "f":
        return ew.to_output(ew.modulus_floor_float(a, b), dtype_of(dt))
    return ew.to_output(ew.binary(op, a, b), dtype_of(dt))


def gen_binary(fam):
    for op, types in ARITH_TYPES.items():
        short = op.replace("ELEMENT_WISE_", "").lower()
        for dt in types:
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            a, b = binary_operands(op, dt, rng, SHAPE)
            y = binary_expected(op, a, b, dt)
            fam.add(name, f"{op} {dt}", op, {"ATensor": a, "BTensor": b}, dt, y, tags=["dtype-coverage"])
        if op == "ELEMENT_WISE_MEAN":
            continue
        # B broadcast per channel ({1,C,1,1} through strides [0,1,0,0]), the usual bias-add pattern.
        dt = "FLOAT32" if "FLOAT32" in types else types[0]
        name = f"{short}/{dt.lower()}/broadcast_b"
        rng = gc.case_rng(name)
        a, b = binary_operands(op, dt, rng, [2, 3, 2, 4], bcast_b=(0, 2, 3))
        y = binary_expected(op, a, b, dt)
        fam.add(name, f"{op}: BTensor broadcast along N, H, W (strides 0)", op, {"ATensor": a, "BTensor": b}, dt,
                y, layouts={"BTensor": gc.Layout(bcast=[0, 2, 3])}, tags=["broadcast"])
    # ADD1's FusedActivation: an activation desc without tensors, applied to A + B (each fusable activation of the
    # facts table that has attributes gets its own values).
    fused = [("ACTIVATION_RELU", {}), ("ACTIVATION_LEAKY_RELU", {"Alpha": 0.1}), ("ACTIVATION_SIGMOID", {}),
             ("ACTIVATION_ELU", {"Alpha": 0.5}), ("ACTIVATION_LINEAR", {"Alpha": 2.0, "Beta": -1.0}),
             ("ACTIVATION_HARD_SIGMOID", {"Alpha": 0.2, "Beta": 0.5}), ("ACTIVATION_GELU", {}),
             ("ACTIVATION_SHRINK", {"Bias": 0.5, "Threshold": 1.0}), ("ACTIVATION_SCALED_TANH",
                                                                       {"Alpha": 1.5, "Beta": 0.5})]
    for act, attrs in fused:
        for dt in FLOATS if act == "ACTIVATION_RELU" else ("FLOAT32",):
            name = f"add1/{dt.lower()}/fused_{act.replace('ACTIVATION_', '').lower()}"
            rng = gc.case_rng(name)
            a, b = uniform(rng, dt, SHAPE, -4, 4), uniform(rng, dt, SHAPE, -4, 4)
            y = ew.to_output(ew.evaluate(act, {"InputTensor": ew.binary("ELEMENT_WISE_ADD", a, b)}, attrs, F32),
                             dtype_of(dt))
            fam.add(name, f"ELEMENT_WISE_ADD1 {dt} with FusedActivation {act}: f(A + B)", "ELEMENT_WISE_ADD1",
                    {"ATensor": a, "BTensor": b}, dt, y,
                    attrs={"FusedActivation": {"type": f"DML_OPERATOR_{act}", "desc": dict(attrs)}},
                    tags=["fused-activation"])
    # Both operands broadcast differently (an outer product), and a strided, padded output.
    name = "multiply/float32/outer_product"
    rng = gc.case_rng(name)
    a = uniform(rng, "FLOAT32", [1, 1, 5, 6], -4, 4, bcast=(3,))
    b = uniform(rng, "FLOAT32", [1, 1, 5, 6], -4, 4, bcast=(2,))
    y = ew.to_output(ew.binary("ELEMENT_WISE_MULTIPLY", a, b), F32)
    fam.add(name, "ELEMENT_WISE_MULTIPLY: A broadcast along W, B along H, padded output", "ELEMENT_WISE_MULTIPLY",
            {"ATensor": a, "BTensor": b}, "FLOAT32", y,
            layouts={"ATensor": gc.Layout(bcast=[3]), "BTensor": gc.Layout(bcast=[2]),
                     "OutputTensor": gc.Layout(pad=[0, 0, 1, 2], extra_bytes=16)}, tags=["broadcast", "layout"])
    name = "subtract/float16/rank5_permuted"
    rng = gc.case_rng(name)
    a = uniform(rng, "FLOAT16", [2, 1, 3, 2, 4], -8, 8)
    b = uniform(rng, "FLOAT16", [2, 1, 3, 2, 4], -8, 8)
    y = ew.to_output(ew.binary("ELEMENT_WISE_SUBTRACT", a, b), np.float16)
    fam.add(name, "ELEMENT_WISE_SUBTRACT 5-D, A channels-last (permuted strides): A - B, not B - A",
            "ELEMENT_WISE_SUBTRACT", {"ATensor": a, "BTensor": b}, "FLOAT16", y,
            layouts={"ATensor": gc.Layout(perm=[0, 2, 3, 4, 1])}, tags=["layout", "rank-coverage"])
    name = "add/float32/infinities"
    a = np.array([np.inf, -np.inf, np.inf, 1, -0.0, 0.0, -0.0, 3e38], dtype=F32).reshape(1, 1, 2, 4)
    b = np.array([1, -1, -np.inf, np.nan, -0.0, -0.0, 0.0, 3e38], dtype=F32).reshape(1, 1, 2, 4)
    y = ew.to_output(ew.binary("ELEMENT_WISE_ADD", a, b), F32)
    fam.add(name, "ELEMENT_WISE_ADD IEEE: inf + x, inf - inf = NaN, NaN propagates, -0 + -0 = -0, overflow to inf",
            "ELEMENT_WISE_ADD", {"ATensor": a, "BTensor": b}, "FLOAT32", y, tags=["special-values"])
    name = "divide/float32/by_zero"
    a = np.array([1, -1, 0, 2, -3, 5, np.inf, 0], dtype=F32).reshape(1, 1, 2, 4)
    b = np.array([0, 0, 0, -0.0, np.inf, 2, 2, -4], dtype=F32).reshape(1, 1, 2, 4)
    y = ew.to_output(ew.binary("ELEMENT_WISE_DIVIDE", a, b), F32)
    fam.add(name, "ELEMENT_WISE_DIVIDE IEEE: x/0 = ±inf, 0/0 = NaN, x/inf = ±0", "ELEMENT_WISE_DIVIDE",
            {"ATensor": a, "BTensor": b}, "FLOAT32", y, tags=["special-values"])


def gen_compare_logic(fam):
    for op in ew.COMPARE:
        short = op.replace("ELEMENT_WISE_LOGICAL_", "").lower()
        for dt in FLOATS + ("INT32", "UINT32", "INT8", "UINT8"):
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            if dtype_of(dt).kind == "f":
                a = uniform(rng, dt, SHAPE, -3, 3).round()  # small integers: many equal pairs
                b = uniform(rng, dt, SHAPE, -3, 3).round()
            else:
                lo, hi = (-3, 3) if dtype_of(dt).kind == "i" else (0, 5)
                a, b = uniform(rng, dt, SHAPE, lo, hi), uniform(rng, dt, SHAPE, lo, hi)
            a, b = a.astype(dtype_of(dt)), b.astype(dtype_of(dt))
            y = ew.to_output(ew.compare(op, a, b), np.uint8)
            fam.add(name, f"{op} {dt} -> UINT8", op, {"ATensor": a, "BTensor": b}, "UINT8", y,
                    tags=["dtype-coverage"])
        name = f"{short}/float32/special_values"
        # No subnormals: a GPU may flush them to 0 before comparing (D3D allows it for float32).
        a = np.array([np.nan, 1, np.inf, -np.inf, -0.0, 2, np.nan, -1], dtype=F32).reshape(1, 1, 2, 4)
        b = np.array([np.nan, np.nan, np.inf, 0, 0.0, 3, 1, -2], dtype=F32).reshape(1, 1, 2, 4)
        y = ew.to_output(ew.compare(op, a, b), np.uint8)
        if len(set(y.ravel().tolist())) > 1:
            fam.add(name, f"{op}: NaN compares false, -0 == +0, infinities", op, {"ATensor": a, "BTensor": b},
                    "UINT8", y, tags=["special-values"])
    for op in ew.LOGICAL:
        short = op.replace("ELEMENT_WISE_LOGICAL_", "").lower()
        name = f"logical_{short}/uint8"
        rng = gc.case_rng(name)
        a, b = uniform(rng, "UINT8", SHAPE, 0, 3), uniform(rng, "UINT8", SHAPE, 0, 3)
        y = ew.to_output(ew.logical(op, a, b), np.uint8)
        fam.add(name, f"{op}: any non-zero byte is true", op, {"ATensor": a, "BTensor": b}, "UINT8", y,
                tags=["dtype-coverage"])
    name = "logical_not/uint8"
    rng = gc.case_rng(name)
    x = uniform(rng, "UINT8", SHAPE, 0, 2)
    fam.add(name, "ELEMENT_WISE_LOGICAL_NOT: any non-zero byte is true", "ELEMENT_WISE_LOGICAL_NOT",
            {"InputTensor": x}, "UINT8", ew.to_output(ew.logical_not(x), np.uint8), tags=["dtype-coverage"])
    for dt in ("FLOAT32", "FLOAT16", "INT32", "INT8", "UINT16"):
        name = f"if/{dt.lower()}"
        rng = gc.case_rng(name)
        cond = uniform(rng, "UINT8", SHAPE, 0, 2)
        if dtype_of(dt).kind == "f":
            a, b = uniform(rng, dt, SHAPE, -9, 9), uniform(rng, dt, SHAPE, -9, 9)
        else:
            a, b = uniform(rng, dt, SHAPE, *int_range(dt)), uniform(rng, dt, SHAPE, *int_range(dt))
        y = ew.if_(cond, a, b).astype(dtype_of(dt))
        fam.add(name, f"ELEMENT_WISE_IF {dt}: Condition != 0 ? A : B", "ELEMENT_WISE_IF",
                {"ConditionTensor": cond, "ATensor": a, "BTensor": b}, dt, y, tags=["dtype-coverage"])
    name = "if/float32/broadcast_condition"
    rng = gc.case_rng(name)
    cond = uniform(rng, "UINT8", [2, 3, 2, 4], 0, 1, bcast=(0, 2))
    a, b = uniform(rng, "FLOAT32", [2, 3, 2, 4], -9, 9), uniform(rng, "FLOAT32", [2, 3, 2, 4], -9, 9, bcast=(1,))
    y = ew.if_(cond, a, b).astype(F32)
    fam.add(name, "ELEMENT_WISE_IF: Condition broadcast along N and H, B along C", "ELEMENT_WISE_IF",
            {"ConditionTensor": cond, "ATensor": a, "BTensor": b}, "FLOAT32", y,
            layouts={"ConditionTensor": gc.Layout(bcast=[0, 2]), "BTensor": gc.Layout(bcast=[1])},
            tags=["broadcast"])


# ================================================================================================================
# Sign, negate, NaN/inf tests, rounding, bits
# ================================================================================================================

SPECIAL_F = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5]


def specials_with_subnormals(dt, rng):
    """NaN, ±inf, ±0, subnormals and ordinary values: IS_NAN/IS_INFINITY must classify each (no arithmetic, so a
    denormal flush cannot change the answer)."""
    finfo = np.finfo(dtype_of(dt))
    vals = SPECIAL_F + [float(finfo.smallest_subnormal), -float(finfo.smallest_subnormal), float(finfo.max),
                        -float(finfo.max)]
    x = uniform(rng, dt, [2, 3, 4], -9, 9).reshape(-1)
    x[rng.permutation(x.size)[:len(vals)]] = np.array(vals, dtype=dtype_of(dt))
    return x.reshape(1, 2, 3, 4)


def gen_misc_unary(fam):
    for dt in FLOATS:
        name = f"is_nan/{dt.lower()}"
        x = specials_with_subnormals(dt, gc.case_rng(name))
        fam.add(name, f"ELEMENT_WISE_IS_NAN {dt}: NaN of either sign -> 1", "ELEMENT_WISE_IS_NAN",
                {"InputTensor": x}, "UINT8", ew.to_output(ew.is_nan(x), np.uint8), tags=["special-values"])
        for mode in ("EITHER", "POSITIVE", "NEGATIVE"):
            name = f"is_infinity/{dt.lower()}/{mode.lower()}"
            x = specials_with_subnormals(dt, gc.case_rng(name))
            fam.add(name, f"ELEMENT_WISE_IS_INFINITY {dt}, InfinityMode {mode}", "ELEMENT_WISE_IS_INFINITY",
                    {"InputTensor": x}, "UINT8", ew.to_output(ew.is_infinity(x, mode), np.uint8),
                    attrs={"InfinityMode": f"DML_IS_INFINITY_MODE_{mode}"}, tags=["special-values", "attributes"])
    for dt in FLOATS + SIGNED:
        for op, fn in (("ELEMENT_WISE_SIGN", ew.sign), ("ELEMENT_WISE_NEGATE", ew.negate)):
            short = op.replace("ELEMENT_WISE_", "").lower()
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            if dtype_of(dt).kind == "f":
                x = uniform(rng, dt, SHAPE, -5, 5)
                x.reshape(-1)[:3] = np.array([0.0, np.inf, -np.inf], dtype=x.dtype)
            else:
                lo, hi = int_range(dt)
                x = uniform(rng, dt, SHAPE, lo + 1, hi)  # -MIN overflows: not described
                x.reshape(-1)[0] = 0
            fam.add(name, f"{op} {dt}", op, {"InputTensor": x}, dt, ew.to_output(fn(x), dtype_of(dt)),
                    tags=["dtype-coverage"])
    # ROUND: the docs' own table for each mode, then random values with exact halves.
    doc_in = np.array([-2.5, -1.75, -1.5, -1.25, 0, 1.25, 1.5, 1.75, 2.5], dtype=F32)
    doc_out = {"HALVES_TO_NEAREST_EVEN": [-2, -2, -2, -1, 0, 1, 2, 2, 2],
               "TOWARD_ZERO": [-2, -1, -1, -1, 0, 1, 1, 1, 2],
               "TOWARD_INFINITY": [-3, -2, -2, -1, 0, 1, 2, 2, 3]}
    for mode, want in doc_out.items():
        got = ew.to_output(ew.round_(doc_in, mode), F32)
        gc.require_equal(f"DML_ROUNDING_MODE_{mode} table", got, want)
        x = doc_in.reshape(1, 1, 1, 9)
        fam.add(f"round/float32/{mode.lower()}/doc_table", f"ELEMENT_WISE_ROUND {mode}: the DML_ROUNDING_MODE table",
                "ELEMENT_WISE_ROUND", {"InputTensor": x}, "FLOAT32", got.reshape(1, 1, 1, 9),
                attrs={"RoundingMode": f"DML_ROUNDING_MODE_{mode}"}, tags=["doc-example", "attributes"])
        for dt in FLOATS:
            name = f"round/{dt.lower()}/{mode.lower()}"
            rng = gc.case_rng(name)
            x = (np.round(rng.uniform(-40, 40, size=SHAPE) * 4) / 4).astype(dtype_of(dt))  # quarters and halves
            fam.add(name, f"ELEMENT_WISE_ROUND {dt}, RoundingMode {mode}", "ELEMENT_WISE_ROUND",
                    {"InputTensor": x}, dt, ew.to_output(ew.round_(x, mode), dtype_of(dt)),
                    attrs={"RoundingMode": f"DML_ROUNDING_MODE_{mode}"}, tags=["attributes"])
    for dt in INTS:
        bits = dtype_of(dt).itemsize * 8
        for op in ("ELEMENT_WISE_BIT_AND", "ELEMENT_WISE_BIT_OR", "ELEMENT_WISE_BIT_XOR"):
            short = op.replace("ELEMENT_WISE_", "").lower()
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            a, b = uniform(rng, dt, SHAPE, *int_range(dt)), uniform(rng, dt, SHAPE, *int_range(dt))
            fam.add(name, f"{op} {dt}", op, {"ATensor": a, "BTensor": b}, dt,
                    ew.to_output(ew.bitwise(op, a, b), dtype_of(dt)), tags=["dtype-coverage"])
        for op in ("ELEMENT_WISE_BIT_SHIFT_LEFT", "ELEMENT_WISE_BIT_SHIFT_RIGHT"):
            if dt not in UNSIGNED:
                continue  # the shifts take unsigned types only
            short = op.replace("ELEMENT_WISE_", "").lower()
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            # Non-negative values, shifts below the width: what every reading of "shift" agrees on.
            a = uniform(rng, dt, SHAPE, 0, int_range(dt)[1])
            b = uniform(rng, dt, SHAPE, 0, bits - 1)
            fam.add(name, f"{op} {dt}, shift counts 0..{bits - 1}, bits shifted out are lost", op,
                    {"ATensor": a, "BTensor": b}, dt, ew.to_output(ew.bitwise(op, a, b), dtype_of(dt)),
                    tags=["dtype-coverage"])
        name = f"bit_not/{dt.lower()}"
        rng = gc.case_rng(name)
        x = uniform(rng, dt, SHAPE, *int_range(dt))
        fam.add(name, f"ELEMENT_WISE_BIT_NOT {dt}", "ELEMENT_WISE_BIT_NOT", {"InputTensor": x}, dt,
                ew.to_output(ew.bit_not(x), dtype_of(dt)), tags=["dtype-coverage"])
        name = f"bit_count/{dt.lower()}"
        rng = gc.case_rng(name)
        x = uniform(rng, dt, SHAPE, *int_range(dt))
        fam.add(name, f"ELEMENT_WISE_BIT_COUNT {dt} -> UINT8 (two's complement bits)", "ELEMENT_WISE_BIT_COUNT",
                {"InputTensor": x}, "UINT8", ew.to_output(ew.bit_count(x), np.uint8), tags=["dtype-coverage"])


def gen_element_wise():
    fam = Family("element_wise", "ew")
    gen_unary(fam)
    gen_clip_threshold_pow(fam)
    gen_binary(fam)
    gen_compare_logic(fam)
    gen_misc_unary(fam)
    import gen_cases_dtype_coverage
    import gen_cases_quantization
    gen_cases_quantization.gen_quantize(fam)
    gen_cases_dtype_coverage.gen_coverage(fam, [fam.cf], "ELEMENT_WISE_")
    return fam.cf
