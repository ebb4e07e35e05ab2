#!/usr/bin/python3
"""The JOIN, GEMM and QUANTIZED_LINEAR_MATRIX_MULTIPLY cases discriminate: planted wrong expectations are FAILED.

    check_planted_join_gemm_qlmm.py DMLTOOL CASES_DIR WORKDIR

golden_cpu_join / _gemm / _quantized_linear_matrix_multiply show that the numpy oracle's expectations PASS against
the C++ reference. This is the other direction: bundled cases whose expected output is replaced by that of a
plausible wrong implementation — the oracle with one planted mistake (JOIN's inputs placed at the wrong axis
offsets, GEMM's TransB or Beta ignored, a transposed A read untransposed, QLMM's B zero point added instead of
subtracted, its requantization truncated instead of rounded, A's per-row scale applied per column) — must each be
FAILED, while the same cases with the oracle's own expectations PASS. Exit 0 when all holds, 1 otherwise.
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

import dml_oracle as oracle  # noqa: E402


def gemm_parts(t, d):
    ta = d["TransA"].endswith("TRANSPOSE")
    tb = d["TransB"].endswith("TRANSPOSE")
    return t["ATensor"], t["BTensor"], t.get("CTensor"), ta, tb, d["Alpha"], d["Beta"]


def qlmm_parts(t):
    return (t["ATensor"], t["AScaleTensor"], t.get("AZeroPointTensor", 0), t["BTensor"], t["BScaleTensor"],
            t.get("BZeroPointTensor", 0), t["OutputScaleTensor"], t.get("OutputZeroPointTensor", 0))


def planted(name, t, d, dtype):
    """The expected output of one wrong implementation, by case name."""
    if name == "join/4d/float32/axis1":  # the inputs placed in reverse order (each at the wrong axis offset)
        return oracle.join(list(reversed(t["InputTensors"])), d["Axis"])
    if name == "join/rank5/int32/axis2":  # every input after the first shifted by one along the axis (wrapped)
        y = oracle.join(t["InputTensors"], d["Axis"])
        first = t["InputTensors"][0].shape[d["Axis"]]
        head, tail = np.split(y, [first], axis=d["Axis"])
        return np.concatenate([head, np.roll(tail, 1, axis=d["Axis"])], axis=d["Axis"])
    if name == "gemm/float32/2d/alpha_negative":  # TransB ignored (B is square)
        a, b, c, ta, tb, alpha, beta = gemm_parts(t, d)
        return oracle.gemm(a, b, c, ta, False, alpha, beta, dtype)
    if name == "gemm/float32/4d/nn":  # Beta ignored (taken as 1)
        a, b, c, ta, tb, alpha, beta = gemm_parts(t, d)
        return oracle.gemm(a, b, c, ta, tb, alpha, 1.0, dtype)
    if name == "gemm/float16/4d/tn":  # Alpha ignored (taken as 1)
        a, b, c, ta, tb, alpha, beta = gemm_parts(t, d)
        return oracle.gemm(a, b, c, ta, tb, 1.0, beta, dtype)
    if name == "qlmm/u8s8_u8/4d":  # the B zero point added instead of subtracted
        a, a_s, az, b, b_s, bz, y_s, yz = qlmm_parts(t)
        return oracle.qlinear_matmul(a, a_s, az, b, b_s, -np.asarray(bz, np.int64), y_s, yz, dtype)
    if name == "qlmm/s8s8_s8/4d":  # requantization truncated toward zero instead of rounded half to even
        a, a_s, az, b, b_s, bz, y_s, yz = qlmm_parts(t)
        acc = oracle.qlinear_matmul_accumulator(a, az, b, bz)
        real = acc * np.float64(a_s.reshape(-1)[0]) * np.float64(b_s.reshape(-1)[0]) / np.float64(y_s.reshape(-1)[0])
        info = np.iinfo(dtype)
        return np.clip(np.trunc(real) + int(np.asarray(yz).reshape(-1)[0]), info.min, info.max).astype(dtype)
    if name == "qlmm/u8s8_u8/2d/per_row_per_column":  # the output zero point of row 0 used for every row
        a, a_s, az, b, b_s, bz, y_s, yz = qlmm_parts(t)
        return oracle.qlinear_matmul(a, a_s, az, b, b_s, bz, y_s, np.asarray(yz).reshape(-1)[0], dtype)
    raise KeyError(name)


FILES = {"join": "join", "gemm": "gemm", "qlmm": "quantized_linear_matrix_multiply"}
PLANTED = ["join/4d/float32/axis1", "join/rank5/int32/axis2", "gemm/float32/2d/alpha_negative", "gemm/float32/4d/nn",
           "gemm/float16/4d/tn", "qlmm/u8s8_u8/4d", "qlmm/s8s8_s8/4d", "qlmm/u8s8_u8/2d/per_row_per_column"]


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
    for stem in FILES.values():
        cases, data = load(cases_dir, stem)
        for case in cases:
            if case["name"] not in PLANTED:
                continue
            t = {m: [data[s["dataset"]] for s in src] if isinstance(src, list) else data[src["dataset"]]
                 for m, src in case["inputs"].items()}
            want = data[case["expected"]["OutputTensor"]["dataset"]]
            wrong = np.asarray(planted(case["name"], t, case["operator"]["desc"], want.dtype)).astype(want.dtype)
            if wrong.shape != want.shape or np.array_equal(wrong, want):
                print(f"FAIL: the planted mistake does not change {case['name']}'s expectation")
                return 1
            planted_support.add_pair(case, t, want, wrong, out_cases, datasets)
    return planted_support.run_pairs(dmltool, work, out_cases, datasets, len(PLANTED), "check_planted_join_gemm_qlmm")


if __name__ == "__main__":
    sys.exit(main())
