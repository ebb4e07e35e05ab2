"""Quantization cases of the element-wise family (QUANTIZE_LINEAR, DEQUANTIZE_LINEAR, QUANTIZED_LINEAR_ADD).

Called by gen_cases_element_wise.py; expectations from dml_oracle_element_wise.py. Per-channel and per-tensor scales
and zero points are tensors of the input's sizes read through 0 strides (DirectML requires equal sizes); inputs
keep x / scale at least 0.01 from a .5 tie (the docs' "round" names no tie rule); each QUANTIZE case saturates.
"""

import numpy as np

import dml_oracle_element_wise as ew
import gen_cases as gc
from gen_cases_element_wise import F32, SHAPE, dtype_of, uniform


# ================================================================================================================
# Quantization
# ================================================================================================================


def off_ties(x, scale):
    """Move values whose x / scale lies within 0.01 of a .5 tie by a quarter step (the docs name no tie rule)."""
    r = ew.quantize_real(x, scale)
    near = np.abs(np.abs(r - np.floor(r)) - 0.5) < 0.01
    return np.where(near, x + np.float32(0.25) * np.asarray(scale, np.float32), x).astype(x.dtype)


def gen_quantize(fam):
    for in_dt, out_dt in (("FLOAT32", "UINT8"), ("FLOAT32", "INT8"), ("INT32", "INT8"), ("INT32", "UINT8")):
        name = f"quantize_linear/{in_dt.lower()}_to_{out_dt.lower()}"
        rng = gc.case_rng(name)
        shape = [2, 3, 2, 4]
        scale = uniform(rng, "FLOAT32", shape, 0.02, 0.2, bcast=(0, 2, 3)) if in_dt == "FLOAT32" else \
            uniform(rng, "FLOAT32", shape, 2.0, 9.0, bcast=(0, 2, 3))
        lo, hi = ew.QRANGE[out_dt]
        zp = uniform(rng, out_dt, shape, lo + 20, hi - 20, bcast=(0, 2, 3))
        if in_dt == "FLOAT32":
            x = off_ties(uniform(rng, in_dt, shape, -20, 20), scale)
        else:
            x = uniform(rng, in_dt, shape, -1500, 1500)
            x = np.where(np.abs(np.abs(ew.quantize_real(x, scale) % 1) - 0.5) < 0.01, x + 1, x).astype(np.int32)
        y = ew.to_output(ew.quantize_linear(x, scale, zp, out_dt), dtype_of(out_dt))
        assert np.any(y == lo) or np.any(y == hi), f"{name}: no saturated element"
        lay = {"ScaleTensor": gc.Layout(bcast=[0, 2, 3]), "ZeroPointTensor": gc.Layout(bcast=[0, 2, 3])}
        fam.add(name, f"ELEMENT_WISE_QUANTIZE_LINEAR {in_dt} -> {out_dt}, per-channel scale and zero point "
                f"(strides 0), saturating", "ELEMENT_WISE_QUANTIZE_LINEAR",
                {"InputTensor": x, "ScaleTensor": scale, "ZeroPointTensor": zp}, out_dt, y, layouts=lay,
                tags=["quantization", "broadcast", "saturation"])
    for in_dt in ("UINT8", "INT8"):
        name = f"dequantize_linear/{in_dt.lower()}_to_float32"
        rng = gc.case_rng(name)
        shape = [2, 3, 2, 4]
        x = uniform(rng, in_dt, shape, *ew.QRANGE[in_dt])
        scale = uniform(rng, "FLOAT32", shape, 0.01, 0.5, bcast=(0, 1, 2))
        zp = uniform(rng, in_dt, shape, *ew.QRANGE[in_dt], bcast=(0, 1, 2))
        y = ew.to_output(ew.dequantize_linear(x, scale, zp), F32)
        lay = {"ScaleTensor": gc.Layout(bcast=[0, 1, 2]), "ZeroPointTensor": gc.Layout(bcast=[0, 1, 2])}
        fam.add(name, f"ELEMENT_WISE_DEQUANTIZE_LINEAR {in_dt} -> FLOAT32, per-column scale and zero point",
                "ELEMENT_WISE_DEQUANTIZE_LINEAR", {"InputTensor": x, "ScaleTensor": scale, "ZeroPointTensor": zp},
                "FLOAT32", y, layouts=lay, tags=["quantization", "broadcast"])
    # The other type combinations of the tables: FLOAT16 input and scale (FL 6_0); 16/32-bit integers and FLOAT16
    # outputs of DEQUANTIZE_LINEAR.
    name = "quantize_linear/float16_to_uint8/float16_scale"
    rng = gc.case_rng(name)
    scale = uniform(rng, "FLOAT16", SHAPE, 0.05, 0.2, bcast=(0, 2, 3))
    zp = uniform(rng, "UINT8", SHAPE, 100, 150, bcast=(0, 2, 3))
    x = off_ties(uniform(rng, "FLOAT16", SHAPE, -20, 20), scale).astype(np.float16)
    y = ew.to_output(ew.quantize_linear(x, scale, zp, "UINT8"), np.uint8)
    fam.add(name, "ELEMENT_WISE_QUANTIZE_LINEAR FLOAT16 -> UINT8 with a FLOAT16 per-channel scale",
            "ELEMENT_WISE_QUANTIZE_LINEAR", {"InputTensor": x, "ScaleTensor": scale, "ZeroPointTensor": zp}, "UINT8",
            y, layouts={"ScaleTensor": gc.Layout(bcast=[0, 2, 3]), "ZeroPointTensor": gc.Layout(bcast=[0, 2, 3])},
            tags=["quantization", "dtype-coverage"])
    for in_dt, out_dt in (("INT16", "FLOAT32"), ("UINT16", "FLOAT32"), ("INT32", "FLOAT16"), ("UINT32", "FLOAT16")):
        name = f"dequantize_linear/{in_dt.lower()}_to_{out_dt.lower()}"
        rng = gc.case_rng(name)
        x = uniform(rng, in_dt, SHAPE, 0 if in_dt.startswith("U") else -3000, 3000)
        scale = uniform(rng, out_dt, SHAPE, 0.001, 0.01, bcast=(0, 1, 2))
        zp = uniform(rng, in_dt, SHAPE, 0 if in_dt.startswith("U") else -100, 100, bcast=(0, 1, 2))
        y = ew.to_output(ew.dequantize_linear(x, scale, zp), dtype_of(out_dt))
        lay = {"ScaleTensor": gc.Layout(bcast=[0, 1, 2]), "ZeroPointTensor": gc.Layout(bcast=[0, 1, 2])}
        fam.add(name, f"ELEMENT_WISE_DEQUANTIZE_LINEAR {in_dt} -> {out_dt}, per-column {out_dt} scale",
                "ELEMENT_WISE_DEQUANTIZE_LINEAR", {"InputTensor": x, "ScaleTensor": scale, "ZeroPointTensor": zp},
                out_dt, y, layouts=lay, tags=["quantization", "dtype-coverage"])
    # ZeroPointTensor is optional in DirectML 1.15 (_Maybenull_): absent means 0, and OutputTensor names the type.
    name = "quantize_linear/float32_to_int8/no_zero_point"
    rng = gc.case_rng(name)
    scale = uniform(rng, "FLOAT32", SHAPE, 0.05, 0.1, bcast=(0, 1, 2, 3))
    x = off_ties(uniform(rng, "FLOAT32", SHAPE, -15, 15), scale)
    y = ew.to_output(ew.quantize_linear(x, scale, 0, "INT8"), np.int8)
    fam.add(name, "ELEMENT_WISE_QUANTIZE_LINEAR FLOAT32 -> INT8 without ZeroPointTensor (0), per-tensor scale",
            "ELEMENT_WISE_QUANTIZE_LINEAR", {"InputTensor": x, "ScaleTensor": scale}, "INT8", y,
            layouts={"ScaleTensor": gc.Layout(bcast=[0, 1, 2, 3])}, tags=["quantization", "optional-absent"])
    name = "dequantize_linear/uint8_to_float32/no_zero_point"
    rng = gc.case_rng(name)
    x = uniform(rng, "UINT8", SHAPE, 0, 255)
    scale = uniform(rng, "FLOAT32", SHAPE, 0.01, 0.5, bcast=(0, 2, 3))
    y = ew.to_output(ew.dequantize_linear(x, scale, 0), F32)
    fam.add(name, "ELEMENT_WISE_DEQUANTIZE_LINEAR UINT8 -> FLOAT32 without ZeroPointTensor (0)",
            "ELEMENT_WISE_DEQUANTIZE_LINEAR", {"InputTensor": x, "ScaleTensor": scale}, "FLOAT32", y,
            layouts={"ScaleTensor": gc.Layout(bcast=[0, 2, 3])}, tags=["quantization", "optional-absent"])
    # QUANTIZED_LINEAR_ADD: 1-element scale/zero-point tensors of the same rank; optional zero points absent once.
    for a_dt, b_dt, o_dt, with_zp in (("UINT8", "UINT8", "UINT8", True), ("INT8", "INT8", "INT8", True),
                                      ("INT8", "UINT8", "UINT8", True), ("UINT8", "INT8", "INT8", False)):
        name = f"quantized_linear_add/{a_dt.lower()}_{b_dt.lower()}_to_{o_dt.lower()}" + ("" if with_zp else
                                                                                         "/no_zero_points")
        rng = gc.case_rng(name)
        shape = [1, 2, 3, 4]
        a, b = uniform(rng, a_dt, shape, *ew.QRANGE[a_dt]), uniform(rng, b_dt, shape, *ew.QRANGE[b_dt])
        a_s, b_s, o_s = F32(0.05), F32(0.03), F32(0.07)
        pick = lambda dt: int(rng.integers(*ew.QRANGE[dt])) // 2  # noqa: E731
        a_zp, b_zp, o_zp = (pick(a_dt), pick(b_dt), pick(o_dt)) if with_zp else (0, 0, 0)
        real = ew.quantized_linear_add_real(a, a_s, a_zp, b, b_s, b_zp, o_s)
        tie = np.abs(np.abs(real - np.floor(real)) - 0.5) < 1e-3
        a = np.where(tie, np.where(a < ew.QRANGE[a_dt][1], a + 1, a - 1), a).astype(a.dtype)
        y = ew.to_output(ew.quantized_linear_add(a, a_s, a_zp, b, b_s, b_zp, o_s, o_zp, o_dt), dtype_of(o_dt))
        one = [1, 1, 1, 1]
        ins = {"ATensor": a, "AScaleTensor": np.full(one, a_s, F32)}
        if with_zp:
            ins["AZeroPointTensor"] = np.full(one, a_zp, dtype_of(a_dt))
        ins.update({"BTensor": b, "BScaleTensor": np.full(one, b_s, F32)})
        if with_zp:
            ins["BZeroPointTensor"] = np.full(one, b_zp, dtype_of(b_dt))
        ins["OutputScaleTensor"] = np.full(one, o_s, F32)
        if with_zp:
            ins["OutputZeroPointTensor"] = np.full(one, o_zp, dtype_of(o_dt))
        fam.add(name, f"ELEMENT_WISE_QUANTIZED_LINEAR_ADD {a_dt} + {b_dt} -> {o_dt}" +
                ("" if with_zp else ", zero points omitted (0)"), "ELEMENT_WISE_QUANTIZED_LINEAR_ADD", ins, o_dt, y,
                tags=["quantization"])
