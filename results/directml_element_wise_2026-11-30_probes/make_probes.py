#!/usr/bin/env python3
"""The probe case files of results/directml_element_wise_2026-11-30_pow_modulus.txt (issue 38: POW, CONSTANT_POW,
MODULUS_TRUNCATE, MODULUS_FLOOR against DirectML 1.15.4). Each case has at most 8 elements, so that a report's
first_mismatches list every element that disagrees. pow_probes3/4/5.json carry deliberately wrong `expected`
outputs (a sequence), so that `directml vs expected` lists DirectML's every output value.

    python3 results/directml_element_wise_2026-11-30_probes/make_probes.py results/directml_element_wise_2026-11-30_probes
"""
import json
import os
import sys


def case(name, op, types, values, attrs=None):
    n = len(next(iter(values.values())))
    assert n <= 8, name
    desc = {}
    for slot, t in types.items():
        desc[slot] = {"DataType": t, "Sizes": [1, 1, 1, n]}
    if attrs: desc.update(attrs)
    return {"name": name, "operator": {"type": "DML_OPERATOR_" + op, "desc": desc},
            "inputs": {k: {"values": v} for k, v in values.items()}}

def pow_case(name, xt, et, xs, es, sb=None, ot=None):
    return case(name, "ELEMENT_WISE_POW", {"InputTensor": xt, "ExponentTensor": et, "OutputTensor": ot or xt},
                {"InputTensor": xs, "ExponentTensor": es}, {"ScaleBias": {"Scale": sb[0], "Bias": sb[1]}} if sb else None)

def mod_case(name, op, t, a, b):
    return case(name, op, {"ATensor": t, "BTensor": t, "OutputTensor": t}, {"ATensor": a, "BTensor": b})

def with_expected(c):
    """Bogus expected outputs, so that every output element of DirectML is reported ('directml vs expected')."""
    t = c["operator"]["desc"]["OutputTensor"]["DataType"]
    c["expected"] = {"OutputTensor": {"sequence": {"start": 1234.5, "step": 1.25} if t.startswith("FLOAT") else {"start": 101, "step": 3}}}
    return c


def make_pow_probes():
    cases = []
    big = [65504, 65505, 65519, 65520, 65536, -70000, 1e6, 3.0e38]
    for et in ["INT8", "INT16", "INT32", "UINT8", "UINT16", "UINT32", "FLOAT16", "FLOAT32"]:
        cases.append(pow_case(f"a_range_f32_{et.lower()}", "FLOAT32", et, big, [1] * 8))
        cases.append(pow_case(f"a_small_f32_{et.lower()}", "FLOAT32", et,
                              [1e-8, 1e-5, 1e-20, 1e-30, 6e-8, 3e-8, 1e-4, 2.0**-14], [1] * 8))
        cases.append(pow_case(f"a_prec_f32_{et.lower()}", "FLOAT32", et, [1.1, 3.14159, 2, 2, 2, 0.999, 7.5, -3.3],
                              [3, 2, 15, 16, 17, 5, 5, 3]))
    cases.append(pow_case("a_sqrt_f32_f16", "FLOAT32", "FLOAT16", [1e6, 4294967296, 1e10, 4.2e9, 2, 1e-12, 1e-20, 9],
                          [0.5, 0.5, 0.5, 0.5, 16.5, 0.5, 0.5, 0.5]))
    cases.append(pow_case("a_range_f16_f32", "FLOAT16", "FLOAT32", [2, 2, 256, 255.875, 1.5, -2, 1e-3, 1],
                          [15, 16, 2, 2, 3, 3, 1.5, 0.5]))
    cases.append(pow_case("a_range_f16_i8", "FLOAT16", "INT8", [2, 2, 256, 255.875, 1.5, -2, 1e-3, 1e-4],
                          [15, 16, 2, 2, 3, 3, 2, 2]))
    # parity of large exponents
    huge = [2147483520, 2147483648, 4294967296, -2147483648, -4294967296, 3e38, -3e38, 16777216]
    cases.append(pow_case("b_parity_f32", "FLOAT32", "FLOAT32", [-1] * 8, huge))
    cases.append(pow_case("b_parity_f16_f32", "FLOAT16", "FLOAT32", [-1] * 8, huge))
    cases.append(pow_case("b_parity_f32_m2", "FLOAT32", "FLOAT32", [-2, -2, -0.5, -0.5, "-inf", "-inf", -0.0, -0.0],
                          [1e10, -1e10, 1e10, -1e10, 1e10, -1e10, -1e10, -3e9]))
    for e in [4294967296.0, 2147483648.0, -2147483648.0, 3e38]:
        cases.append(case(f"b_cpow_{e:g}", "ELEMENT_WISE_CONSTANT_POW", {"InputTensor": "FLOAT32", "OutputTensor": "FLOAT32"},
                          {"InputTensor": [-1, -2, -0.5, 2, "-inf", -0.0, 1, -1]}, {"Exponent": e}))
    # exponent conversion after ScaleBias
    cases.append(pow_case("c_i8_sb", "FLOAT32", "INT8", [2] * 8, [1, 2, 3, -1, -2, -3, 0, 5], sb=(1.5, 0.25)))
    cases.append(pow_case("c_u8_sb_neg", "FLOAT32", "UINT8", [-0.75] * 5, [0, 1, 2, 100, 200], sb=(-2, 0.5)))
    cases.append(pow_case("c_u8_sb_pos", "FLOAT32", "UINT8", [0.25390625] * 5, [100, 127, 128, 200, 255], sb=(2, 0.5)))
    cases.append(pow_case("c_i16_sb", "FLOAT32", "INT16", [0.25390625] * 4, [20000, -20000, 1000, 3], sb=(2, 0.5)))
    cases.append(pow_case("c_i32_sb", "FLOAT32", "INT32", [-0.75] * 4, [2000000000, -2000000000, 5, 6], sb=(2, 0.5)))
    cases.append(pow_case("c_u32_sb", "FLOAT32", "UINT32", [-0.75] * 4, [3000000000, 5, 0, 7], sb=(2, 0.5)))
    cases.append(pow_case("c_f16_sb", "FLOAT32", "FLOAT16", [2] * 4, [1.0009765625, 0.1, 3, 2.3], sb=(1.5, 0.25)))
    cases.append(pow_case("c_f32_sb", "FLOAT32", "FLOAT32", [2] * 4, [1.0009765625, 0.1, 3, 2.3], sb=(1.5, 0.25)))
    cases.append(pow_case("c_f16in_i8_sb", "FLOAT16", "INT8", [2] * 8, [1, 2, 3, -1, -2, -3, 0, 5], sb=(1.5, 0.25)))
    # denormal bases
    den = [2.0**-149, 2.0**-140, 2.0**-127, 0.75 * 2.0**-126, 2.0**-126, 2.0**-149, 2.0**-140, 1]
    cases.append(pow_case("d_denormal_f32", "FLOAT32", "FLOAT32", den, [0.01] * 5 + [1, 1, 1]))
    cases.append(case("d_denormal_cpow", "ELEMENT_WISE_CONSTANT_POW", {"InputTensor": "FLOAT32", "OutputTensor": "FLOAT32"},
                      {"InputTensor": den}, {"Exponent": 0.01}))
    # integer outputs through floats
    cases.append(pow_case("e_u8_f32", "UINT8", "FLOAT32", [0, 0, 2, 3, 0, 0, 0, 1], [-1.5, -2, -1, 0.5, 0, 0.5, -0.0, -3]))
    cases.append(pow_case("e_i32_f16", "INT32", "FLOAT16", [0, 0, -2, -3, 0, 2, 46341, -1], [-1.9443359375, -1, -1, 3, 0, 31, 2, 10000]))
    cases.append(pow_case("e_i16_f32", "INT16", "FLOAT32", [-22859, -3, 0, -1, -1, -2, 181, 182], [7e29, 1e10, -5, 3e38, -3e38, 15, 2, 2]))
    return cases

def make_pow_modulus_probes2():
    cases = []
    cases.append(pow_case("f_i32_f16_range", "INT32", "FLOAT16", [300, 300, -300, 2, 65504, 65505, 256, 255], [2, 1, 3, 16, 1, 1, 2, 2]))
    cases.append(pow_case("f_u32_f16_range", "UINT32", "FLOAT16", [300, 300, 70000, 2, 65504, 65505, 256, 255], [2, 1, 1, 16, 1, 1, 2, 2]))
    cases.append(pow_case("f_i32_f32_range", "INT32", "FLOAT32", [300, 300, -300, 2, 65504, 65505, 256, 255], [2, 1, 3, 16, 1, 1, 2, 2]))
    big = [1200000000, 1070000000, 1073741823, -1073741824, 1500000000, 2000000000, -1500000000, -2000000000]
    cases.append(pow_case("g_i32_sb_parity", "FLOAT32", "INT32", [-0.75] * 8, big, sb=(2, 0.5)))
    cases.append(pow_case("g_i32_sb_sign", "FLOAT32", "INT32", [0] * 8, big, sb=(2, 0.5)))
    bigu = [1200000000, 1070000000, 1073741823, 1073741824, 1500000000, 2000000000, 2147483647, 2100000000]
    cases.append(pow_case("g_u32_sb_parity", "FLOAT32", "UINT32", [-0.75] * 8, bigu, sb=(2, 0.5)))
    cases.append(pow_case("g_u32_sb_sign", "FLOAT32", "UINT32", [0] * 8, bigu, sb=(2, 0.5)))
    cases.append(pow_case("g_i16_sb_parity", "FLOAT32", "INT16", [-0.75] * 6, [20000, -20000, 16383, 16384, -16384, 32767], sb=(2, 0.5)))
    cases.append(pow_case("g_u16_sb_parity", "FLOAT32", "UINT16", [-0.75] * 6, [20000, 40000, 32767, 32768, 65535, 1], sb=(2, 0.5)))
    # MODULUS
    inf_a = [5.5, -5.5, 0, 1e30, 99.75, -0.0, 3.4e38, 7]
    inf_b = ["inf", "-inf", "inf", "-inf", "-inf", "inf", "inf", "-inf"]
    for op in ["MODULUS_TRUNCATE", "MODULUS_FLOOR"]:
        o = op.lower()
        cases.append(mod_case(f"m_{o}_inf_f32", "ELEMENT_WISE_" + op, "FLOAT32", inf_a, inf_b))
        cases.append(mod_case(f"m_{o}_inf_f16", "ELEMENT_WISE_" + op, "FLOAT16", [5.5, -5.5, 0, 1000, 0.1, -0.1, 65504, 7], inf_b))
        cases.append(mod_case(f"m_{o}_tiny_quotient", "ELEMENT_WISE_" + op, "FLOAT32",
                              [1.1443479979171942e-34, -3.426231728031394e-19, 4.348733325652582e-17, 1e-30, -1e-30, 1.1754943508222875e-38, 5, 1],
                              [-3.929287873380421e+30, 1.4899715586370688e+35, -3.4028234663852886e+38, 1e10, 1e10, -8.176054775805116e+18, -1e38, -1e38]))
        cases.append(mod_case(f"m_{o}_huge_quotient", "ELEMENT_WISE_" + op, "FLOAT32",
                              [18.49816131591797, 8347.349609375, -9508.287109375, 3.4e38, -3.4e38, 22.0, 52.0, 3e38],
                              [2.186378871689571e-38, -4.695123461923546e-36, 4.1210766919150045e-38, 0.5, 0.25, 1.1754943508222875e-38, 1.1754943508222875e-38, 1.5]))
        cases.append(mod_case(f"m_{o}_near_integer", "ELEMENT_WISE_" + op, "FLOAT32",
                              [-184363.28125, 39.35759735107422, 21.733428955078125, -32.486412048339844, -5.0, -0.7280512452125549, 11.5, 1.0],
                              [-0.7212594151496887, -0.00022760452702641487, -8.574254934501369e-06, 5.6135333579732105e-05, 1.8913876829174114e-06, -2.839728381331952e-07, -4.6e-5, 0.1]))
    cases.append(mod_case("m_truncate_near_integer_f16", "ELEMENT_WISE_MODULUS_TRUNCATE", "FLOAT16",
                          [62.0, 60.0, -6412.0, 61.0, 1.0, 1000, 7, 3], [6.097555160522461e-05, 6.097555160522461e-05, 0.004108428955078125, 6.097555160522461e-05, 0.1, 0.1, 0.5, 1.5]))
    return cases

def make_pow_probes3():
    cases = []
    big = [1200000000, 1070000000, 1073741823, -1073741824, 1500000000, 2000000000, -1500000000, -2000000000]
    cases.append(with_expected(pow_case("g_i32_sb_parity", "FLOAT32", "INT32", [-0.75] * 8, big, sb=(2, 0.5))))
    cases.append(with_expected(pow_case("g_i32_sb_sign", "FLOAT32", "INT32", [0] * 8, big, sb=(2, 0.5))))
    bigu = [1200000000, 1070000000, 1073741823, 1073741824, 1500000000, 2000000000, 2147483647, 2100000000]
    cases.append(with_expected(pow_case("g_u32_sb_parity", "FLOAT32", "UINT32", [-0.75] * 8, bigu, sb=(2, 0.5))))
    cases.append(with_expected(pow_case("g_u32_sb_sign", "FLOAT32", "UINT32", [0] * 8, bigu, sb=(2, 0.5))))
    cases.append(with_expected(pow_case("g_i16_sb_parity", "FLOAT32", "INT16", [-0.75] * 6, [20000, -20000, 16383, 16384, -16384, 32767], sb=(2, 0.5))))
    cases.append(with_expected(pow_case("g_u16_sb_parity", "FLOAT32", "UINT16", [-0.75] * 6, [20000, 40000, 32767, 32768, 65535, 1], sb=(2, 0.5))))
    cases.append(with_expected(pow_case("g_i8_sb_parity", "FLOAT32", "INT8", [-0.75] * 6, [1, 2, -1, -2, 127, -128], sb=(2, 0.5))))
    # the exponent's float ScaleBias then int: near x.5 and negative
    cases.append(with_expected(pow_case("g_i8_sb_trunc", "FLOAT32", "INT8", [0.75] * 8, [-1, -2, -3, 0, 1, 2, 3, 4], sb=(1.25, 0.25))))
    return cases

def make_pow_probes4():
    cases = []
    cases.append(with_expected(pow_case("h_zero_f32", "FLOAT32", "FLOAT32", [0, -0.0, 0, -0.0, 0, 0, -0.0, 1e-45], [0, 0, -0.0, -0.0, 0.5, 2, 3, 0])))
    cases.append(with_expected(pow_case("h_zero_f16", "FLOAT16", "FLOAT16", [0, -0.0, 0, -0.0, 0, 0, -0.0, 2], [0, 0, -0.0, -0.0, 0.5, 2, 3, 0])))
    cases.append(with_expected(pow_case("h_zero_f32_i8", "FLOAT32", "INT8", [0, -0.0, 0, 0, 2, 3, 4, 5], [0, 0, 1, -1, 0, 1, 2, 3])))
    cases.append(with_expected(pow_case("h_zero_u8_f32", "UINT8", "FLOAT32", [0, 0, 0, 0, 2, 3, 4, 5], [0, -0.0, 1, -1, 0, 1, 2, 3])))
    cases.append(with_expected(pow_case("h_zero_i32_f16", "INT32", "FLOAT16", [0, 0, 0, 0, 2, 3, 4, 5], [0, -0.0, 1, -1, 0, 1, 2, 3])))
    cases.append(with_expected(case("h_zero_cpow0", "ELEMENT_WISE_CONSTANT_POW", {"InputTensor": "FLOAT32", "OutputTensor": "FLOAT32"},
                      {"InputTensor": [0, -0.0, 1, 2, 3, 4, 5, 6]}, {"Exponent": 0.0})))
    return cases

def make_pow_probes5():
    cases = []
    big = [1200000000, 1073741823, -1073741824, 1500000000, 2000000000, -1500000000, -2000000000, 1]
    cases.append(with_expected(pow_case("k_i32_sb_parity", "FLOAT32", "INT32", [-0.75] * 7 + [1], big, sb=(2, 0.5))))
    bigu = [1200000000, 1073741823, 1073741824, 1500000000, 2000000000, 2147483647, 3000000000, 1]
    cases.append(with_expected(pow_case("k_u32_sb_parity", "FLOAT32", "UINT32", [-0.75] * 7 + [1], bigu, sb=(2, 0.5))))
    cases.append(with_expected(pow_case("k_u32_parity", "FLOAT32", "UINT32", [-1] * 7 + [2], [2147483647, 2147483648, 2147483649, 3000000001, 4294967295, 4294967294, 3, 3])))
    cases.append(with_expected(pow_case("k_i32_parity", "FLOAT32", "INT32", [-1] * 7 + [2], [2147483647, -2147483648, 2147483646, -2147483647, 16777217, 16777219, 3, 3])))
    return cases


if __name__ == "__main__":
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    json.dump({"cases": make_pow_probes()}, open(os.path.join(outdir, "pow_probes.json"), "w"), indent=1)
    json.dump({"cases": make_pow_modulus_probes2()}, open(os.path.join(outdir, "pow_modulus_probes2.json"), "w"), indent=1)
    json.dump({"cases": make_pow_probes3()}, open(os.path.join(outdir, "pow_probes3.json"), "w"), indent=1)
    json.dump({"cases": make_pow_probes4()}, open(os.path.join(outdir, "pow_probes4.json"), "w"), indent=1)
    json.dump({"cases": make_pow_probes5()}, open(os.path.join(outdir, "pow_probes5.json"), "w"), indent=1)
