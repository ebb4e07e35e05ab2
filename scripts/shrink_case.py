#!/usr/bin/env python3
"""Shrinks a failing dmltool case to a small one that still fails the same way (a repro for a bug report).

    scripts/shrink_case.py --dmltool 'build/app/dmltool' --backend all CASES.json --case NAME --out repro.json
    scripts/shrink_case.py --dmltool 'scripts/wine.sh build-windows/app/dmltool.exe' --backend all ...

The predicate runs `DMLTOOL run --backend B --json REPORT ONE_CASE.json` on a one-case file: a variant is kept when
the case is still FAILED and one of the comparisons that failed originally ("directml vs reference", "gpu vs
reference", ...) still fails. Variants are tried greedily, smallest change of meaning first:
  1. layout: outputs derived (their Sizes/Strides dropped), inputs packed (Strides/TotalTensorSizeInBytes dropped);
  2. dimensions: each dimension set to 1, halved or decremented, with the members that depend on it kept valid
     (operator by operator: BlockSize multiples, split parts, kernel extents, resample scales);
  3. parameters: resample scales to 1, conv strides/dilations to 1 and pads to 0;
  4. values: random ranges narrowed, random sources to sequences, halves of explicit values zeroed.
Explicit values follow a shrunk dimension (the leading sub-block is kept). Bounded by --max-runs predicate runs
(default 40) and --time-limit seconds (default 300). Writes the smallest failing variant to --out (the original
when nothing smaller fails) and prints one line: runs, elements before and after. Exit 0 when the original fails
(a repro was written), 1 when it does not fail to begin with, 2 on bad input.
"""
import argparse
import copy
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time


def element_count(sizes):
    return math.prod(sizes) if sizes else 0


def tensors_of(desc):
    """(key, index or None, tensor) of every tensor desc member."""
    out = []
    for key, value in desc.items():
        if isinstance(value, dict) and "DataType" in value:
            out.append((key, None, value))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out.extend((key, i, t) for i, t in enumerate(value))
    return out


def case_size(case):
    desc = case["operator"]["desc"]
    return sum(element_count(t.get("Sizes", [])) for k, _, t in tensors_of(desc) if k in case["inputs"])


def slice_values(values, old, new):
    """The leading sub-block `new` of row-major `values` of shape `old`."""
    out = []
    for flat in range(element_count(new)):
        index, rest = 0, flat
        coords = []
        for n in reversed(new):
            coords.append(rest % n)
            rest //= n
        for c, o in zip(reversed(coords), old):
            index = index * o + c
        out.append(values[index])
    return out


def flatten(values):
    if isinstance(values, list):
        return [x for v in values for x in flatten(v)]
    return [values]


def resize_input(case, key, new_sizes):
    """Sets an input's Sizes, slicing explicit values; False when the source cannot follow."""
    desc = case["operator"]["desc"]
    tensor = desc[key]
    old = tensor["Sizes"]
    source = case["inputs"].get(key)
    if isinstance(source, dict) and "values" in source:
        source["values"] = slice_values(flatten(source["values"]), old, new_sizes)
    if isinstance(source, dict) and "hdf5" in source:
        return False
    tensor["Sizes"] = list(new_sizes)
    if "Strides" in tensor and len(tensor["Strides"]) != len(new_sizes):
        del tensor["Strides"]
    return True


def derive_outputs(case):
    """Drops the outputs' sizes so that the operator derives them (and `expected` sources, sized by them, stay only
    when they fit any size: constants, sequences, random)."""
    desc = case["operator"]["desc"]
    if "OutputTensor" in desc:
        desc["OutputTensor"] = {"DataType": desc["OutputTensor"]["DataType"]}
    if "Axis" in desc and "OutputSizesAlongAxis" not in desc:  # SPLIT: parts as a list that shrinking can edit
        axis = desc["Axis"]
        if isinstance(desc.get("OutputTensors"), list):
            desc["OutputSizesAlongAxis"] = [t["Sizes"][axis] for t in desc["OutputTensors"]]
        else:
            count = desc["OutputCount"]
            desc["OutputSizesAlongAxis"] = [desc["InputTensor"]["Sizes"][axis] // count] * count
        desc.pop("OutputTensors", None)
        desc.pop("OutputCount", None)
    for key, source in list(case.get("expected", {}).items()):
        sources = source if isinstance(source, list) else [source]
        if any("values" in s or "hdf5" in s for s in sources):
            return False
    return True


def layout_variants(case):
    desc = case["operator"]["desc"]
    v = copy.deepcopy(case)
    if derive_outputs(v) and v != case:
        yield "derived outputs", v
    v = copy.deepcopy(case)
    for key, _, t in tensors_of(v["operator"]["desc"]):
        if key in v["inputs"]:
            t.pop("Strides", None)
            t.pop("TotalTensorSizeInBytes", None)
    if v != case:
        yield "packed inputs", v
    for key, _, t in tensors_of(desc):
        if key in case["inputs"] and ("Strides" in t or "TotalTensorSizeInBytes" in t):
            v = copy.deepcopy(case)
            v["operator"]["desc"][key].pop("Strides", None)
            v["operator"]["desc"][key].pop("TotalTensorSizeInBytes", None)
            yield "packed " + key, v


def smaller(n, step=1):
    """Candidate sizes below n: 1, half, n - step."""
    out = []
    for c in (step, (n // 2) // step * step, n - step):
        if step <= c < n and c not in out:
            out.append(c)
    return out


def dimension_variants(case):
    desc = case["operator"]["desc"]
    op = case["operator"]["type"].replace("DML_OPERATOR_", "")
    inp = desc["InputTensor"]["Sizes"]
    for d, n in enumerate(inp):
        step = 1
        if op == "DEPTH_TO_SPACE1" and d == 1:
            step = desc["BlockSize"] ** 2
        if op == "QUANTIZED_LINEAR_CONVOLUTION" and d == 1:
            continue  # channels tie the filter, groups, scales and bias: left as they are
        for new in smaller(n, step):
            v = copy.deepcopy(case)
            if not derive_outputs(v):
                return
            vd = v["operator"]["desc"]
            sizes = list(inp)
            sizes[d] = new
            if op == "SPLIT" and d == vd["Axis"]:
                parts = vd["OutputSizesAlongAxis"]
                while sum(parts) > new:  # take from the last parts first
                    parts[-1] -= 1
                    if parts[-1] == 0:
                        parts.pop()
            if op == "RESAMPLE" and math.floor(new * vd["Scales"][d]) < 1:
                continue
            if op == "QUANTIZED_LINEAR_CONVOLUTION" and d >= 2:
                i = d - 2
                k = vd["FilterTensor"]["Sizes"][d]
                if new + vd["StartPadding"][i] + vd["EndPadding"][i] < (k - 1) * vd["Dilations"][i] + 1:
                    continue
            if resize_input(v, "InputTensor", sizes):
                yield f"InputTensor dim {d}: {n} -> {new}", v
    if op == "QUANTIZED_LINEAR_CONVOLUTION":
        filt = desc["FilterTensor"]["Sizes"]
        for d in range(2, len(filt)):
            for new in smaller(filt[d]):
                v = copy.deepcopy(case)
                if derive_outputs(v):
                    sizes = list(filt)
                    sizes[d] = new
                    if resize_input(v, "FilterTensor", sizes):
                        yield f"FilterTensor dim {d}: {filt[d]} -> {new}", v
    if op == "DEPTH_TO_SPACE1" and desc["BlockSize"] > 1:
        v = copy.deepcopy(case)
        if derive_outputs(v):
            v["operator"]["desc"]["BlockSize"] = 1  # C stays a multiple of 1
            yield "BlockSize 1", v


def parameter_variants(case):
    desc = case["operator"]["desc"]
    if "Scales" in desc:
        for d, s in enumerate(desc["Scales"]):
            if s != 1:
                v = copy.deepcopy(case)
                if derive_outputs(v):
                    v["operator"]["desc"]["Scales"][d] = 1.0
                    yield f"Scales[{d}] = 1", v
    for member, plain in (("Strides", 1), ("Dilations", 1), ("StartPadding", 0), ("EndPadding", 0)):
        if "GroupCount" in desc and any(x != plain for x in desc[member]):
            v = copy.deepcopy(case)
            if derive_outputs(v):
                v["operator"]["desc"][member] = [plain] * len(desc[member])
                yield f"{member} all {plain}", v


def value_variants(case):
    for key, source in case["inputs"].items():
        if not isinstance(source, dict):
            continue
        if "random" in source and "min" in source["random"] and "max" in source["random"]:
            lo, hi = source["random"]["min"], source["random"]["max"]
            if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and hi - lo > 2:
                mid = (lo + hi) / 2
                quarter = (hi - lo) / 4
                v = copy.deepcopy(case)
                r = v["inputs"][key]["random"]
                if isinstance(lo, int) and isinstance(hi, int):
                    r["min"], r["max"] = int(mid - quarter), int(mid + quarter)
                else:
                    r["min"], r["max"] = mid - quarter, mid + quarter
                yield f"{key}: random range narrowed", v
            v = copy.deepcopy(case)
            v["inputs"][key] = {"sequence": {"start": 1, "step": 1}}
            yield f"{key}: random -> sequence", v
        if "values" in source:
            values = flatten(source["values"])
            nonzero = [i for i, x in enumerate(values) if x != 0]
            if len(nonzero) > 1:
                for half in (nonzero[: len(nonzero) // 2], nonzero[len(nonzero) // 2:]):
                    v = copy.deepcopy(case)
                    vals = list(values)
                    for i in half:
                        vals[i] = 0
                    v["inputs"][key] = {"values": vals}
                    yield f"{key}: {len(half)} values zeroed", v


class Predicate:
    def __init__(self, dmltool, backend, workdir, max_runs, deadline, extra):
        self.dmltool, self.backend, self.workdir = dmltool, backend, workdir
        self.max_runs, self.deadline, self.extra = max_runs, deadline, extra
        self.runs = 0
        self.target = None  # comparisons that failed originally

    def exhausted(self):
        return self.runs >= self.max_runs or time.monotonic() > self.deadline

    def failing(self, case):
        """The comparisons that failed, or None when the case is not FAILED."""
        self.runs += 1
        path = os.path.join(self.workdir, "case.json")
        report = os.path.join(self.workdir, "report.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"cases": [case]}, f)
        if os.path.exists(report):
            os.remove(report)
        command = self.dmltool + ["run", "--backend", self.backend, "--json", report, path] + self.extra
        left = max(1.0, self.deadline - time.monotonic() + 60)
        try:
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=left, check=False)
            with open(report, encoding="utf-8") as f:
                result = json.load(f)["cases"][0]
        except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired):
            return None
        if result.get("status") != "FAILED":
            return None
        return {o["comparison"] for o in result.get("outputs", []) if o.get("verdict") == "failed"}

    def still_fails(self, case):
        failed = self.failing(case)
        return failed is not None and bool(failed & self.target)


def shrink(case, predicate, log):
    while not predicate.exhausted():
        accepted = False
        for phase in (layout_variants, dimension_variants, parameter_variants, value_variants):
            for what, variant in phase(case):
                if predicate.exhausted():
                    return case
                if predicate.still_fails(variant):
                    log(f"kept: {what} ({case_size(variant)} input elements)")
                    case, accepted = variant, True
                    break
            if accepted:
                break
        if not accepted:
            return case
    return case


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dmltool", required=True, help="the dmltool command (split like a shell would)")
    parser.add_argument("--backend", default="all", choices=["cpu", "gpu", "both", "directml", "all"])
    parser.add_argument("--case", help="the case's name (default: the file's only or first case)")
    parser.add_argument("--out", required=True, help="where to write the repro case file")
    parser.add_argument("--max-runs", type=int, default=40)
    parser.add_argument("--time-limit", type=float, default=300)
    parser.add_argument("--dmltool-arg", action="append", default=[], help="extra argument for dmltool run")
    parser.add_argument("-q", "--quiet", action="store_true")
    parser.add_argument("cases")
    args = parser.parse_args()
    if args.max_runs < 1 or args.time_limit <= 0:
        sys.exit("shrink_case.py: --max-runs and --time-limit must be positive")
    try:
        with open(args.cases, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as error:
        print(f"shrink_case.py: cannot read {args.cases}: {error}", file=sys.stderr)
        return 2
    cases = document["cases"] if isinstance(document, dict) and "cases" in document else [document]
    if args.case:
        cases = [c for c in cases if c.get("name") == args.case]
    if not cases:
        print(f"shrink_case.py: {args.cases}: no case named {args.case!r}", file=sys.stderr)
        return 2
    original = cases[0]
    log = (lambda message: None) if args.quiet else (lambda message: print("  " + message, file=sys.stderr))
    with tempfile.TemporaryDirectory(prefix="shrink_case.") as workdir:
        predicate = Predicate(shlex.split(args.dmltool), args.backend, workdir, args.max_runs,
                              time.monotonic() + args.time_limit, args.dmltool_arg)
        target = predicate.failing(original)
        if not target:
            print(f"shrink_case.py: {original.get('name')}: does not fail with --backend {args.backend}; nothing to shrink",
                  file=sys.stderr)
            return 1
        predicate.target = target
        small = shrink(original, predicate, log)
    small = copy.deepcopy(small)
    small["tags"] = ["shrunk"]  # the original's feature tags no longer describe it
    small["description"] = (f"shrunk by scripts/shrink_case.py from {original.get('name')} ({case_size(original)} -> "
                            f"{case_size(small)} input elements); fails: {', '.join(sorted(target))}")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"cases": [small]}, f, indent=1)
        f.write("\n")
    print(f"shrink_case.py: {original.get('name')}: {predicate.runs} runs, {case_size(original)} -> "
          f"{case_size(small)} input elements, still failing ({', '.join(sorted(target))}): {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
