"""Data-type coverage of the element-wise/activation cases, driven by the facts table.

ops/element_wise/dml_facts.inc lists, per operator and tensor member, the data types of every feature level's
tensor-support table (from DirectML's reference pages). The hand-written generators (gen_cases_element_wise.py,
gen_cases_activation.py) cover the common types with operator-specific data; this module adds one small case for
every (operator, member, data type) the table allows and those cases do not yet use — 64-bit integers, FLOAT64,
bit operations on float bit patterns, UINT32 boolean outputs, integer CLIP/THRESHOLD/POW/SHRINK/RELU, ... —
with operands chosen so the exact result is in range and away from what the docs leave open (small integers,
non-negative shifts below 3, exact quotients, positive float operands of the bit operations, no NaN results).
"""

import collections
import os
import re

import numpy as np

import dml_oracle_element_wise as ew
import gen_cases as gc
from gen_cases_element_wise import SHAPE, dtype_of, uniform

FACTS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ops", "element_wise",
                                      "dml_facts.inc"))
TYPE_ORDER = ["FLOAT32", "FLOAT16", "FLOAT64", "INT32", "UINT32", "INT16", "UINT16", "INT8", "UINT8", "INT64",
              "UINT64"]


def read_facts(path=FACTS):
    """-> (members: op -> [tensor member] in desc order, types: (op, member) -> set, same: op -> [set of members])."""
    text = open(path, encoding="utf-8").read()
    members = collections.defaultdict(list)
    for m in re.finditer(r"^DMLTOOL_DML_MEMBER\((\w+), (INPUT|OUTPUT), TENSOR, (\w+), (\w+),", text, re.M):
        members[m.group(1)].append((m.group(4), m.group(2), m.group(3) == "OPTIONAL"))
    types = collections.defaultdict(set)
    for m in re.finditer(r'^DMLTOOL_DML_SUPPORT\((\w+), \d+, \d+, (\w+), \w+, \d+, \d+, "([^"]*)"\)', text, re.M):
        types[(m.group(1), m.group(2))] |= set(m.group(3).split())
    same = collections.defaultdict(list)
    for m in re.finditer(r'^DMLTOOL_DML_SAME\((\w+), DATA_TYPE, "([^"]*)"\)', text, re.M):
        same[m.group(1)].append(set(m.group(2).split()))
    roles = dict(re.findall(r"^DMLTOOL_DML_OP\((\w+), \d+, (\w+),", text, re.M))
    return members, types, same, roles


def used_types(case_files):
    used = collections.defaultdict(set)
    for cf in case_files:
        for case in cf.cases:
            op = case["operator"]["type"].replace("DML_OPERATOR_", "")
            for member, d in case["operator"]["desc"].items():
                if isinstance(d, dict) and "DataType" in d:
                    used[(op, member)].add(d["DataType"])
    return used


def assign_types(op, members, types, same, member, dt):
    """Every tensor member's type when `member` has type dt: its same-type group follows, others take their most
    common allowed type (the first of TYPE_ORDER), preferring dt when allowed."""
    chosen = {member: dt}
    for group in same.get(op, []):
        if member in group:
            chosen.update({m: dt for m in group})
    for m, _, _ in members[op]:
        if m in chosen:
            continue
        allowed = types.get((op, m), set())
        group = next((g for g in same.get(op, []) if m in g), {m})
        pick = dt if all(dt in types.get((op, g), set()) for g in group) else \
            next(t for t in TYPE_ORDER if all(t in types.get((op, g), set()) for g in group))
        if not allowed:
            continue
        chosen.update({g: pick for g in group})
    return chosen


def small_values(rng, dt, shape, op, member):
    """Operands whose exact result fits every allowed output type (see the module docstring)."""
    kind = dtype_of(dt).kind
    if op.startswith("ELEMENT_WISE_BIT_"):
        if kind == "f":
            return uniform(rng, dt, shape, 0.5, 1.99)  # positive, exponents 126/127: AND/OR/XOR/NOT stay finite
        if op.startswith("ELEMENT_WISE_BIT_SHIFT") and member == "BTensor":
            return uniform(rng, dt, shape, 0, 3)
        lo, hi = (-100, 100) if kind == "i" else (0, 100)
        return uniform(rng, dt, shape, lo, hi)
    if op in ("ELEMENT_WISE_IS_NAN", "ELEMENT_WISE_IS_INFINITY"):
        x = uniform(rng, dt, shape, -8, 8)
        x.reshape(-1)[:4] = np.array([np.nan, np.inf, -np.inf, 0], dtype=x.dtype)
        return x
    if member == "ConditionTensor":
        return uniform(rng, dt, shape, 0, 1)
    if op.startswith("ELEMENT_WISE_LOGICAL_") and op.replace("ELEMENT_WISE_LOGICAL_", "") in ("AND", "OR", "XOR",
                                                                                             "NOT"):
        return uniform(rng, dt, shape, 0, 2)
    if op in ("ELEMENT_WISE_DIVIDE", "ELEMENT_WISE_MODULUS_TRUNCATE", "ELEMENT_WISE_MODULUS_FLOOR") and \
            member == "BTensor":
        b = uniform(rng, dt, shape, 1, 5)
        return b if kind == "u" else (b * np.where(rng.integers(0, 2, size=shape) == 0, 1, -1)).astype(b.dtype)
    if op == "ELEMENT_WISE_POW" and member == "ExponentTensor":
        return uniform(rng, dt, shape, 0, 3)
    if op == "ELEMENT_WISE_POW":
        return uniform(rng, dt, shape, 0 if kind != "f" else 0.5, 5)
    if op.startswith("ACTIVATION_") and kind in "iu":  # PRelu multiplies two of them
        return uniform(rng, dt, shape, -9 if kind == "i" else 0, 9)
    if kind == "u":
        return uniform(rng, dt, shape, 0, 60)
    return uniform(rng, dt, shape, -60, 60) if kind == "i" else uniform(rng, dt, shape, -8, 8)


INT_ATTRS = {  # attributes of the rows that take integer tensors (integral values: exact in any type)
    "ELEMENT_WISE_CLIP": lambda dt: {"Min": 2.0 if dtype_of(dt).kind == "u" else -5.0, "Max": 40.0},
    "ELEMENT_WISE_CLIP1": lambda dt: {"MinMaxDataType": dt, "Min": 2 if dtype_of(dt).kind == "u" else -5,
                                      "Max": 40},
    "ELEMENT_WISE_THRESHOLD": lambda dt: {"Min": 7.0},
    "ACTIVATION_SHRINK": lambda dt: {"Bias": 2.0, "Threshold": 3.0},
    "ELEMENT_WISE_ROUND": lambda dt: {"RoundingMode": "DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN"},
    "ELEMENT_WISE_IS_INFINITY": lambda dt: {"InfinityMode": "DML_IS_INFINITY_MODE_EITHER"},
    "ELEMENT_WISE_CONSTANT_POW": lambda dt: {"Exponent": 2.0},
}


def coverage_case(fam, op, chosen, members):
    tag = "_".join(chosen[m].lower() for m, _, _ in members[op] if m in chosen)
    name = f"{op.replace('ELEMENT_WISE_', '').replace('ACTIVATION_', '').lower()}/types/{tag}"
    rng = gc.case_rng(name)
    if op == "ELEMENT_WISE_DIVIDE":  # exact quotients: A = q * B
        b = small_values(rng, chosen["BTensor"], SHAPE, op, "BTensor")
        q = small_values(rng, chosen["ATensor"], SHAPE, "ELEMENT_WISE_ADD", "ATensor")
        q = (q.astype(np.int64) // 8).astype(q.dtype) if q.dtype.kind in "iu" else q
        inputs = {"ATensor": (q.astype(np.float64) * b.astype(np.float64)).astype(dtype_of(chosen["ATensor"])),
                  "BTensor": b}
    elif op == "ELEMENT_WISE_MEAN" and dtype_of(chosen["ATensor"]).kind in "iu":
        a = small_values(rng, chosen["ATensor"], SHAPE, op, "ATensor")
        b = small_values(rng, chosen["BTensor"], SHAPE, op, "BTensor")
        b = (b.astype(np.int64) - ((a.astype(np.int64) + b.astype(np.int64)) % 2)).astype(b.dtype)
        inputs = {"ATensor": a, "BTensor": np.abs(b).astype(b.dtype) if b.dtype.kind == "u" else b}
    elif op in ("ELEMENT_WISE_QUANTIZE_LINEAR", "ELEMENT_WISE_DEQUANTIZE_LINEAR"):
        return False  # gen_quantize in gen_cases_element_wise.py covers their type combinations by hand
    else:
        inputs = {m: small_values(rng, chosen[m], SHAPE, op, m) for m, kind, _ in members[op]
                  if kind == "INPUT" and m in chosen}
        if op == "ELEMENT_WISE_SUBTRACT" and dtype_of(chosen["OutputTensor"]).kind == "u":  # A >= B
            a, b = inputs["ATensor"], inputs["BTensor"]
            inputs = {"ATensor": np.maximum(a, b), "BTensor": np.minimum(a, b)}
    attrs = INT_ATTRS.get(op, lambda dt: {})(chosen[members[op][0][0]])
    out_dt = chosen["OutputTensor"]
    t = {m: v for m, v in inputs.items()}
    if op.startswith("ELEMENT_WISE_BIT_") or op == "ELEMENT_WISE_IF":
        y = ew.evaluate(op, t, attrs, dtype_of(out_dt))
        y = np.asarray(y).astype(dtype_of(out_dt)) if op == "ELEMENT_WISE_IF" else ew.to_output(y, dtype_of(out_dt))
    else:
        try:
            y = ew.to_output(ew.evaluate(op, t, attrs, dtype_of(out_dt)), dtype_of(out_dt))
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from e
    if np.all(y.reshape(-1) == y.reshape(-1)[0]):
        return False
    fam.add(name, f"DML_OPERATOR_{op} with " + ", ".join(f"{m} {chosen[m]}" for m, _, _ in members[op]
                                                         if m in chosen), op, inputs, out_dt, y, attrs=attrs,
            tags=["dtype-coverage", "from-facts-table"])
    return True


def gen_coverage(fam, case_files, family_prefix):
    """One case per (operator of the family, tensor member, allowed data type) not yet in case_files."""
    members, types, same, roles = read_facts()
    used = used_types(case_files)
    for op in sorted(members):
        if roles.get(op) != "FORWARD" or not op.startswith(family_prefix):
            continue
        for member, _, _ in members[op]:
            for dt in sorted(types.get((op, member), set()), key=TYPE_ORDER.index):
                if dt in used[(op, member)]:
                    continue
                chosen = assign_types(op, members, types, same, member, dt)
                if coverage_case(fam, op, chosen, members):
                    for m, t in chosen.items():
                        used[(op, m)].add(t)
