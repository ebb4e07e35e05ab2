"""Bundled cases of the activation family (cases/activation.json); called by gen_cases.py.

Expected outputs come from dml_oracle_element_wise.py (float64, rounded once to the output type). Per operator:
FLOAT32 and FLOAT16 on a small 4-D tensor, the attribute values of interest (Alpha/Beta/Gamma/Steepness/
Threshold/Bias/SigmoidInputScale, including the ONNX defaults), a broadcast input, and the reduction axes of the
softmax family (the first generation over the last dimension, the *1 versions over any set of Axes).
"""

import numpy as np

import dml_oracle_element_wise as ew
import gen_cases as gc
from gen_cases_element_wise import FLOATS, SHAPE, Family, dtype_of, uniform

F32 = np.float32

# (operator, attribute sets as ordered desc members, input range)
POINTWISE = [
    ("ACTIVATION_IDENTITY", [{}], (-50, 50)),
    ("ACTIVATION_RELU", [{}], (-5, 5)),
    ("ACTIVATION_LEAKY_RELU", [{"Alpha": 0.01}, {"Alpha": 0.2}, {"Alpha": -1.5}], (-5, 5)),
    ("ACTIVATION_THRESHOLDED_RELU", [{"Alpha": 1.0}, {"Alpha": -0.5}], (-3, 3)),
    ("ACTIVATION_LINEAR", [{"Alpha": 1.5, "Beta": -0.25}, {"Alpha": -0.5, "Beta": 2.0}], (-10, 10)),
    ("ACTIVATION_HARD_SIGMOID", [{"Alpha": 0.2, "Beta": 0.5}, {"Alpha": 1.0 / 6.0, "Beta": 0.5}], (-6, 6)),
    ("ACTIVATION_HARD_SWISH", [{"Alpha": 1.0 / 6.0, "Beta": 0.5}, {"Alpha": 0.25, "Beta": 0.25}], (-6, 6)),
    ("ACTIVATION_SIGMOID", [{}], (-12, 12)),
    ("ACTIVATION_SWISH", [{"SigmoidInputScale": 1.0}, {"SigmoidInputScale": 1.702}], (-8, 8)),
    ("ACTIVATION_TANH", [{}], (-6, 6)),
    ("ACTIVATION_SCALED_TANH", [{"Alpha": 1.7159, "Beta": 0.6667}, {"Alpha": 0.5, "Beta": 2.0}], (-4, 4)),
    ("ACTIVATION_ELU", [{"Alpha": 1.0}, {"Alpha": 0.5}], (-6, 4)),
    ("ACTIVATION_CELU", [{"Alpha": 1.0}, {"Alpha": 2.0}], (-6, 4)),
    ("ACTIVATION_SCALED_ELU", [{"Alpha": 1.67326319217681884765625, "Gamma": 1.05070102214813232421875},
                               {"Alpha": 2.0, "Gamma": 0.5}], (-6, 4)),
    ("ACTIVATION_SOFTSIGN", [{}], (-20, 20)),
    ("ACTIVATION_SOFTPLUS", [{"Steepness": 1.0}, {"Steepness": 3.0}], (-10, 10)),
    ("ACTIVATION_PARAMETRIC_SOFTPLUS", [{"Alpha": 1.0, "Beta": 1.0}, {"Alpha": 0.5, "Beta": 2.0}], (-8, 8)),
    ("ACTIVATION_SHRINK", [{"Bias": 0.0, "Threshold": 0.5}, {"Bias": 1.5, "Threshold": 1.0}], (-4, 4)),
    ("ACTIVATION_GELU", [{}], (-5, 5)),
]
FP16_RANGE = {"ACTIVATION_IDENTITY": (-20, 20), "ACTIVATION_SOFTSIGN": (-20, 20)}


def attr_text(attrs):
    return ", ".join(f"{k} {v:g}" for k, v in attrs.items()) or "no attributes"


def attr_tag(attrs):
    return "_".join(f"{k.lower()}{v:g}" for k, v in attrs.items()).replace("-", "m")


def gen_pointwise(fam):
    for op, attr_sets, (lo, hi) in POINTWISE:
        short = op.replace("ACTIVATION_", "").lower()
        for i, attrs in enumerate(attr_sets):
            for dt in FLOATS if i == 0 else ("FLOAT32",):
                name = f"{short}/{dt.lower()}" + (f"/{attr_tag(attrs)}" if attrs else "")
                rng = gc.case_rng(name)
                dlo, dhi = FP16_RANGE.get(op, (lo, hi)) if dt == "FLOAT16" else (lo, hi)
                x = uniform(rng, dt, SHAPE if i == 0 else [2, 3, 2, 4], dlo, dhi)
                y = ew.to_output(ew.activation(op, x, **attrs), dtype_of(dt))
                fam.add(name, f"{op} {dt}, {attr_text(attrs)}", op, {"InputTensor": x}, dt, y, attrs=attrs,
                        tags=["attributes" if i else "dtype-coverage"])
    # Broadcast input (a per-channel value read through 0 strides).
    for op, attrs in (("ACTIVATION_SIGMOID", {}), ("ACTIVATION_LEAKY_RELU", {"Alpha": 0.1})):
        short = op.replace("ACTIVATION_", "").lower()
        name = f"{short}/float32/broadcast_input"
        rng = gc.case_rng(name)
        x = uniform(rng, "FLOAT32", [2, 4, 2, 3], -4, 4, bcast=(0, 2, 3))
        y = ew.to_output(ew.activation(op, x, **attrs), F32)
        fam.add(name, f"{op}: input broadcast along N, H, W (strides 0)", op, {"InputTensor": x}, "FLOAT32", y,
                attrs=attrs, layouts={"InputTensor": gc.Layout(bcast=[0, 2, 3])}, tags=["broadcast"])
    # Saturation and special points: sigmoid/tanh/softplus far out, ±inf, -0 through relu.
    name = "sigmoid/float32/special_values"
    x = np.array([-np.inf, np.inf, -100, 100, 0, -0.0, 20, -20], dtype=F32).reshape(1, 1, 2, 4)
    fam.add(name, "ACTIVATION_SIGMOID saturates to 0 and 1 without NaN", "ACTIVATION_SIGMOID", {"InputTensor": x},
            "FLOAT32", ew.to_output(ew.activation("ACTIVATION_SIGMOID", x), F32), tags=["special-values"])
    name = "softplus/float32/large_inputs"
    x = np.array([-200, 200, -50, 50, 0, 1e-3, 88, 90], dtype=F32).reshape(1, 1, 2, 4)
    fam.add(name, "ACTIVATION_SOFTPLUS: log(1 + exp(x)) must not overflow to inf for large x",
            "ACTIVATION_SOFTPLUS", {"InputTensor": x}, "FLOAT32",
            ew.to_output(ew.activation("ACTIVATION_SOFTPLUS", x, Steepness=1.0), F32), attrs={"Steepness": 1.0},
            tags=["special-values"])
    name = "relu/float32/special_values"
    x = np.array([-np.inf, np.inf, -0.0, 0.0, -1, 1, -3e38, 3e38], dtype=F32).reshape(1, 1, 2, 4)
    fam.add(name, "ACTIVATION_RELU of ±inf and extremes", "ACTIVATION_RELU", {"InputTensor": x}, "FLOAT32",
            ew.to_output(ew.activation("ACTIVATION_RELU", x), F32), tags=["special-values"])
    # PARAMETERIZED_RELU: slope per channel through 0 strides, and a full slope tensor.
    for dt in FLOATS:
        name = f"parameterized_relu/{dt.lower()}/per_channel_slope"
        rng = gc.case_rng(name)
        x = uniform(rng, dt, [2, 3, 2, 4], -5, 5)
        slope = uniform(rng, dt, [2, 3, 2, 4], -1, 1, bcast=(0, 2, 3))
        y = ew.to_output(ew.parameterized_relu(x, slope), dtype_of(dt))
        fam.add(name, f"ACTIVATION_PARAMETERIZED_RELU {dt}, slope per channel (strides 0)",
                "ACTIVATION_PARAMETERIZED_RELU", {"InputTensor": x, "SlopeTensor": slope}, dt, y,
                layouts={"SlopeTensor": gc.Layout(bcast=[0, 2, 3])}, tags=["broadcast", "dtype-coverage"])
    name = "parameterized_relu/float32/full_slope"
    rng = gc.case_rng(name)
    x, slope = uniform(rng, "FLOAT32", SHAPE, -5, 5), uniform(rng, "FLOAT32", SHAPE, -2, 2)
    fam.add(name, "ACTIVATION_PARAMETERIZED_RELU, one slope per element", "ACTIVATION_PARAMETERIZED_RELU",
            {"InputTensor": x, "SlopeTensor": slope}, "FLOAT32", ew.to_output(ew.parameterized_relu(x, slope), F32))


def gen_softmax_family(fam):
    first_gen = (("ACTIVATION_SOFTMAX", ew.softmax), ("ACTIVATION_LOG_SOFTMAX", ew.log_softmax),
                 ("ACTIVATION_HARDMAX", ew.hardmax))
    for op, fn in first_gen:
        short = op.replace("ACTIVATION_", "").lower()
        # The first generation takes 2-D data (leading sizes 1): rows along the last dimension.
        for dt, shape in (("FLOAT32", [1, 1, 4, 5]), ("FLOAT16", [1, 1, 3, 4])):
            name = f"{short}/{dt.lower()}"
            rng = gc.case_rng(name)
            x = uniform(rng, dt, shape, -6, 6)
            assert not ew.hardmax_has_ties(x), name
            y = ew.to_output(fn(x), dtype_of(dt))
            fam.add(name, f"{op} {dt}: over the last dimension", op, {"InputTensor": x}, dt, y,
                    tags=["dtype-coverage", "reduction"])
        name = f"{short}/float32/large_offset"
        rng = gc.case_rng(name)
        x = (uniform(rng, "FLOAT32", [1, 1, 3, 8], -3, 3) + np.float32(1000)).astype(F32)
        fam.add(name, f"{op}: inputs near 1000 (exp would overflow without subtracting the maximum)", op,
                {"InputTensor": x}, "FLOAT32", ew.to_output(fn(x), F32), tags=["special-values", "reduction"])
    axes_sets = ([3], [1], [2, 3], [0, 1, 2, 3], [0, 2])
    for op, fn in (("ACTIVATION_SOFTMAX1", ew.softmax), ("ACTIVATION_LOG_SOFTMAX1", ew.log_softmax),
                   ("ACTIVATION_HARDMAX1", ew.hardmax)):
        short = op.replace("ACTIVATION_", "").lower()
        for axes in axes_sets:
            for dt in FLOATS if axes == [1] else ("FLOAT32",):
                name = f"{short}/{dt.lower()}/axes{''.join(map(str, axes))}"
                rng = gc.case_rng(name)
                x = uniform(rng, dt, [2, 3, 2, 4], -5, 5)
                assert not ew.hardmax_has_ties(x, axes), name
                y = ew.to_output(fn(x, axes), dtype_of(dt))
                fam.add(name, f"{op} {dt}, Axes {axes}", op, {"InputTensor": x}, dt, y,
                        attrs={"AxisCount": len(axes), "Axes": axes}, tags=["reduction", "attributes"])
        name = f"{short}/float32/rank5_axes14"
        rng = gc.case_rng(name)
        x = uniform(rng, "FLOAT32", [2, 2, 1, 3, 3], -5, 5)
        fam.add(name, f"{op} 5-D, Axes [1, 4]", op, {"InputTensor": x}, "FLOAT32",
                ew.to_output(fn(x, [1, 4]), F32), attrs={"AxisCount": 2, "Axes": [1, 4]},
                tags=["reduction", "rank-coverage"])
    # HARDMAX ties: the docs' "first largest element" (in increasing index order) is 1, the others 0.
    name = "hardmax1/float32/ties_first_wins"
    x = np.array([3, 1, 3, 2, 0, 0, 0, 0, -1, 5, 5, 5], dtype=F32).reshape(1, 1, 3, 4)
    fam.add(name, "ACTIVATION_HARDMAX1: ties pick the first maximum along the axis", "ACTIVATION_HARDMAX1",
            {"InputTensor": x}, "FLOAT32", ew.to_output(ew.hardmax(x, [3]), F32),
            attrs={"AxisCount": 1, "Axes": [3]}, tags=["special-values", "reduction"])


def gen_activation():
    fam = Family("activation", "act")
    gen_pointwise(fam)
    gen_softmax_family(fam)
    import gen_cases_dtype_coverage
    gen_cases_dtype_coverage.gen_coverage(fam, [fam.cf], "ACTIVATION_")
    return fam.cf
