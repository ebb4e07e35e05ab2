#!/usr/bin/python3
"""The element-wise/activation cases discriminate: planted wrong expectations are FAILED by `dmltool run`.

    check_planted_expectations.py DMLTOOL CASES_DIR WORKDIR

golden_cpu_element_wise / golden_cpu_activation show that the numpy oracle's expectations PASS against the C++
reference. This is the other direction: bundled cases whose expected output is replaced by that of a plausible
wrong implementation — the oracle with one planted mistake (a 1e-4 relative error in exp, a wrong clamp bound,
ScaleBias applied after the function, swapped A/B operands, an off-by-one quantization, the softmax over the wrong
axis, a broadcast read along the wrong dimension, halves rounded the wrong way) — must each be FAILED, while the
same cases with the oracle's own expectations PASS. Exit 0 when all holds, 1 otherwise.
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

import h5py  # noqa: E402
import numpy as np  # noqa: E402
import planted_support  # noqa: E402

import dml_oracle_element_wise as ew  # noqa: E402


def planted(name, t, dtype):
    """The expected output of one wrong implementation, by case name."""
    f32 = np.float32
    if name == "ew/exp/float32":
        return ew.unary_math("ELEMENT_WISE_EXP", t["InputTensor"]) * (1 + 1e-4)
    if name == "ew/exp/float32/scale_bias":  # ScaleBias applied after the function
        return np.exp(t["InputTensor"].astype(np.float64)) * 0.5 + 0.25
    if name == "ew/clip/float32/min-1_max1":  # clamped to 0.9 instead of 1
        return ew.clip(t["InputTensor"], -1.0, 0.9)
    if name == "ew/subtract/float32":  # B - A
        return ew.binary("ELEMENT_WISE_SUBTRACT", t["BTensor"], t["ATensor"])
    if name == "ew/divide/float16":  # B / A
        return ew.binary("ELEMENT_WISE_DIVIDE", t["BTensor"], t["ATensor"])
    if name == "ew/add/float32/broadcast_b":  # B's channel values read along the wrong axis (rolled by one)
        return ew.binary("ELEMENT_WISE_ADD", t["ATensor"], np.roll(t["BTensor"], 1, axis=1))
    if name == "ew/quantize_linear/float32_to_uint8":  # rounded down instead of to nearest
        q = np.floor(ew.quantize_real(t["InputTensor"], t["ScaleTensor"])) + t["ZeroPointTensor"]
        return np.clip(q, 0, 255)
    if name == "ew/round/float32/halves_to_nearest_even":  # halves away from zero
        return ew.round_(t["InputTensor"], "TOWARD_INFINITY")
    if name == "act/softmax1/float32/axes1":  # over the last axis instead of Axes {1}
        return ew.softmax(t["InputTensor"], [3])
    if name == "act/sigmoid/float32":  # 1e-4 relative error
        return ew.activation("ACTIVATION_SIGMOID", t["InputTensor"]) * (1 + f32(1e-4))
    if name == "act/elu/float32/alpha0.5":  # Alpha ignored (1.0)
        return ew.activation("ACTIVATION_ELU", t["InputTensor"], Alpha=1.0)
    if name == "act/leaky_relu/float32/alpha0.01":  # negative side not scaled
        return np.maximum(t["InputTensor"].astype(np.float64), 0.0)
    raise KeyError(name)


PLANTED = ["ew/exp/float32", "ew/exp/float32/scale_bias", "ew/clip/float32/min-1_max1", "ew/subtract/float32",
           "ew/divide/float16", "ew/add/float32/broadcast_b", "ew/quantize_linear/float32_to_uint8",
           "ew/round/float32/halves_to_nearest_even", "act/softmax1/float32/axes1", "act/sigmoid/float32",
           "act/elu/float32/alpha0.5", "act/leaky_relu/float32/alpha0.01"]


def load(cases_dir, stem):
    with open(os.path.join(cases_dir, f"{stem}.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    data = {}
    with h5py.File(os.path.join(cases_dir, "data", f"{stem}.h5"), "r") as h5:
        h5.visititems(lambda n, o: data.__setitem__("/" + n, o[()]) if isinstance(o, h5py.Dataset) else None)
    return cases, data


def main():
    dmltool, cases_dir, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(os.path.join(work, "data"), exist_ok=True)
    out_cases, datasets = [], {}
    for stem in ("element_wise", "activation"):
        cases, data = load(cases_dir, stem)
        for case in cases:
            if case["name"] not in PLANTED:
                continue
            t = {m: data[src["dataset"]] for m, src in case["inputs"].items()}
            want = data[case["expected"]["OutputTensor"]["dataset"]]
            wrong = ew.to_output(np.clip(planted(case["name"], t, want.dtype), *(
                (np.iinfo(want.dtype).min, np.iinfo(want.dtype).max) if want.dtype.kind in "iu" else
                (-np.inf, np.inf))), want.dtype)
            if np.array_equal(wrong, want):
                print(f"FAIL: the planted mistake does not change {case['name']}'s expectation")
                return 1
            planted_support.add_pair(case, t, want, wrong, out_cases, datasets)
    return planted_support.run_pairs(dmltool, work, out_cases, datasets, len(PLANTED), "check_planted_expectations")


if __name__ == "__main__":
    sys.exit(main())
