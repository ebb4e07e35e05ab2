#!/usr/bin/env python3
"""Triage helper: for each FAILED/MISTRUSTED case of a diff_directml.sh output folder, the first mismatches of one
comparison with the inputs of each element (the generated cases' random/sequence/constant/values sources
materialized as dmltool does: core/tensor_source.cpp, then the physical round trip of strided inputs).

    python3 results/directml_element_wise_2026-11-30_probes/first_mismatch_inputs.py OUTDIR [NAME_SUBSTRING] [COMPARISON]

COMPARISON: a substring of the comparison ('directml vs reference', the default; 'deviation model'; 'any').
"""
import json, math, struct, sys, os

MASK64 = (1 << 64) - 1
def random_bits(seed, index):
    z = (seed + (index + 1) * 0x9e3779b97f4a7c15) & MASK64
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK64
    return z ^ (z >> 31)

def fnv(case_name, slot):
    h = 0xcbf29ce484222325
    for c in (case_name + "/" + slot).encode():
        h = ((h ^ c) * 0x100000001b3) & MASK64
    return h

INT = {"INT8": (8, True), "INT16": (16, True), "INT32": (32, True), "INT64": (64, True),
       "UINT8": (8, False), "UINT16": (16, False), "UINT32": (32, False), "UINT64": (64, False)}

def to_type(v, t):
    if t == "FLOAT32":
        if math.isnan(v) or math.isinf(v): return v
        try: return struct.unpack('f', struct.pack('f', v))[0]
        except OverflowError: return math.copysign(math.inf, v)
    if t == "FLOAT16":
        if math.isnan(v) or math.isinf(v): return v
        try: return struct.unpack('e', struct.pack('e', v))[0]
        except OverflowError: return math.copysign(math.inf, v)
    if t == "FLOAT64": return v
    bits, signed = INT[t]
    if isinstance(v, float):
        if math.isnan(v): return 0
        v = int(v)
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    return max(lo, min(hi, v))

def wrap(v, t):
    bits, signed = INT[t]
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1): v -= 1 << bits
    return v

def num(x):
    if isinstance(x, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(x, None) if x in ("nan","inf","-inf") else float(x)
    return x

def flatten(v):
    if isinstance(v, list):
        out = []
        for e in v: out.extend(flatten(e))
        return out
    return [v]

def materialize(case, slot, desc):
    t = desc["DataType"]; sizes = desc["Sizes"]; n = math.prod(sizes)
    src = case["inputs"][slot]
    isf = t.startswith("FLOAT")
    if "values" in src:
        vals = [to_type(num(x), t) if isf else num(x) for x in flatten(src["values"])]
    elif "random" in src:
        r = src["random"]
        seed = r.get("seed", fnv(case["name"], slot))
        if isf:
            lo, hi = num(r.get("min", -1)), num(r.get("max", 1))
            vals = [to_type(lo + (random_bits(seed, i) >> 11) * 2.0**-53 * (hi - lo), t) for i in range(n)]
        else:
            bits, signed = INT[t]
            dlo, dhi = ((-32768, 32767) if signed else (0, 65535)) if bits > 16 else \
                ((-(1 << (bits-1)), (1 << (bits-1)) - 1) if signed else (0, (1 << bits) - 1))
            lo, hi = int(num(r.get("min", dlo))), int(num(r.get("max", dhi)))
            w = hi - lo + 1
            vals = [wrap(lo + random_bits(seed, i) % w, t) for i in range(n)]
    elif "sequence" in src:
        s = src["sequence"]; st, sp = num(s["start"]), num(s["step"])
        if isf: vals = [to_type(st + i * sp, t) for i in range(n)]
        else: vals = [wrap(int(st) + i * int(sp), t) for i in range(n)]
    elif "constant" in src:
        vals = [to_type(num(src["constant"]), t) if isf else num(src["constant"])] * n
    else:
        raise SystemExit("hdf5 source")
    strides = desc.get("Strides")
    if strides is None: return vals
    # physical round trip: last write wins
    phys = {}
    def offsets():
        idx = [0] * len(sizes)
        for i in range(n):
            yield i, sum(c * s for c, s in zip(idx, strides))
            for d in range(len(sizes) - 1, -1, -1):
                idx[d] += 1
                if idx[d] < sizes[d]: break
                idx[d] = 0
    offs = list(offsets())
    for i, o in offs: phys[o] = vals[i]
    return [phys[o] for i, o in offs]

def flat_index(coords, sizes):
    i = 0
    for c, s in zip(coords, sizes): i = i * s + c
    return i

def inputs_at(case, coords):
    desc = case["operator"]["desc"]
    out = {}
    for slot in case["inputs"]:
        d = desc[slot]
        vals = materialize(case, slot, d)
        out[slot] = (d["DataType"], vals[flat_index(coords, d["Sizes"])])
    return out

def main():
    diff = sys.argv[1]; filt = sys.argv[2] if len(sys.argv) > 2 else ""
    comp = sys.argv[3] if len(sys.argv) > 3 else "directml vs reference"
    rep = json.load(open(os.path.join(diff, "report.json")))
    files = {}
    for c in rep["cases"]:
        if c["status"] not in ("FAILED", "MISTRUSTED") or filt not in c["name"]: continue
        if c["file"] not in files: files[c["file"]] = {x["name"]: x for x in json.load(open(c["file"]))["cases"]}
        case = files[c["file"]][c["name"]]
        d = case["operator"]["desc"]
        extra = {k: v for k, v in d.items() if not (isinstance(v, dict) and "DataType" in v)}
        print(f"== {c['status']} {c['name']} {extra} types " +
              " ".join(f"{k}:{v['DataType']}" for k, v in d.items() if isinstance(v, dict) and "DataType" in v))
        for o in c["outputs"]:
            if o["verdict"] != "failed": continue
            if comp not in o["comparison"] and comp != "any": continue
            print(f"   [{o['comparison']}] {o['mismatches']}/{o['elements']} max_ratio {o['max_bound_ratio']}")
            for m in o["first_mismatches"]:
                ins = inputs_at(case, m["coordinates"])
                print(f"     {ins}  exact {m['expected']}  got {m['got']}  bound {m['bound']}")
main()
