#!/usr/bin/env python3
"""Checks dmltool's CPU reference against ONNX Runtime's CPU execution provider, layer by layer, on imported models
(docs/importing-models.md, "Checked against ONNX Runtime").

For each model:
  1. a copy of the model with every node's outputs exposed as graph outputs runs once in ONNX Runtime 1.30 (CPU,
     graph optimizations off, one thread: scripts/ort_dump_tensors.js with the binding scripts/fetch_onnxruntime.sh
     unpacks) on a seeded random input (normal(0, 1) floats, the statistics the generated models were calibrated
     on); every tensor of the network goes into one HDF5 file, a dataset per ONNX tensor;
  2. `dmltool import MODEL --batch 1 --tensors-from THAT.h5` writes one case per node that it maps to a DirectML
     operator, whose inputs are ONNX Runtime's actual inputs to that node and whose expected outputs are ONNX
     Runtime's outputs of it (the importer's own mapping: nothing here knows ONNX -> DirectML);
  3. `dmltool run --backend cpu` judges the reference against them with dmltool's normal tolerances (the operators'
     contracts, docs/semantics.md);
  4. a second run with every tolerance set to zero counts the elements where the two differ at all. An integer
     output may differ only where that is explained: for QLinearConv and QLinearAdd each such element is worked out
     in exact rational arithmetic, and the reference must give the exactly rounded value while a model of ONNX
     Runtime's float32 requantization reproduces ONNX Runtime's value. Without this, the contract's +-1 would let
     a reference that truncates instead of rounding pass.

Prints one line per node (agree / DISAGREE with the largest difference and the tolerance / not run by ONNX Runtime /
not imported, with the importer's reason), the worked-out differences, and one summary line per model.

  scripts/ort_per_layer.py --dmltool build/app/dmltool --work /tmp/ort_check MODEL.onnx...
  scripts/ort_per_layer.py --dmltool build/app/dmltool --work /tmp/ort_check --make-models resnet50,mobilenetv2

Exit 0: every imported layer agrees and every integer difference is explained; 1: a layer disagrees, an integer
difference is unexplained, or ONNX Runtime could not run a model; 2: usage or a
failed step; 77: ONNX Runtime is not installed (run scripts/fetch_onnxruntime.sh), or node is missing.
Needs Debian's python3-onnx, python3-numpy and python3-h5py, and nodejs.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from fractions import Fraction

import h5py
import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ORT_VERSION = "1.30.0"
SKIP = 77


def default_node_path():
    cache = os.environ.get("DMLTOOL_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "dmltool"))
    return os.path.join(cache, "onnxruntime", ORT_VERSION, "node_modules")


def tensor_dataset(name):
    """The importer's dataset name for an ONNX tensor (model_import/importer.h, tensor_dataset)."""
    return "/" + "".join(ch if ch.isascii() and (ch.isalnum() or ch in "_-") else
                         "".join("%%%02X" % b for b in ch.encode("utf-8")) for ch in name)


def run(command, ok=(0,), **kwargs):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False,
                            **kwargs)
    if result.returncode not in ok:
        print(f"ort_per_layer: {' '.join(shlex.quote(c) for c in command)}: exit {result.returncode}:\n"
              f"{result.stdout[-4000:]}", file=sys.stderr)
        sys.exit(2)
    return result


def expose_every_tensor(model_path, out_path):
    """The model with every node output a graph output (no type: ONNX Runtime infers it). Returns the model."""
    model = onnx.load(model_path)
    graph = model.graph
    have = {o.name for o in graph.output}
    for node in graph.node:
        for name in node.output:
            if name and name not in have:
                graph.output.append(onnx.ValueInfoProto(name=name))
                have.add(name)
    onnx.save(model, out_path)
    return model


def random_inputs(model, seed, batch):
    """Seeded inputs for the graph inputs that are not initializers: floats normal(0, 1), integers over their range."""
    initializers = {i.name for i in model.graph.initializer}
    rng = np.random.default_rng(seed)
    inputs = []
    for value in model.graph.input:
        if value.name in initializers:
            continue
        t = value.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else batch for d in t.shape.dim]
        dtype = np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type])  # ONNX 1.12's table
        if np.issubdtype(dtype, np.floating):
            data = rng.normal(0.0, 1.0, dims).astype(dtype)
        else:
            info = np.iinfo(dtype)
            data = rng.integers(info.min, info.max, dims, endpoint=True, dtype=dtype)
        inputs.append((value.name, data))
    return inputs


def ort_tensors(model_path, work, node, node_path, seed, batch):
    """Runs the model in ONNX Runtime with every tensor exposed; returns (HDF5 path, ORT's error or None)."""
    dump = os.path.join(work, "ort")
    shutil.rmtree(dump, ignore_errors=True)
    os.makedirs(dump)
    exposed = os.path.join(dump, "every_tensor.onnx")
    model = expose_every_tensor(model_path, exposed)
    inputs = random_inputs(model, seed, batch)
    manifest = []
    for i, (name, data) in enumerate(inputs):
        data.tofile(os.path.join(dump, f"in_{i}.bin"))
        manifest.append({"name": name, "type": str(data.dtype), "dims": list(data.shape), "file": f"in_{i}.bin"})
    with open(os.path.join(dump, "inputs.json"), "w") as f:
        json.dump(manifest, f)
    env = dict(os.environ, NODE_PATH=node_path)
    result = subprocess.run([node, os.path.join(HERE, "ort_dump_tensors.js"), exposed, dump], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, check=False)
    if result.returncode != 0:
        return None, result.stdout.strip().splitlines()[-1] if result.stdout.strip() else f"exit {result.returncode}"
    with open(os.path.join(dump, "outputs.json")) as f:
        outputs = json.load(f)
    h5 = os.path.join(work, "tensors.h5")
    with h5py.File(h5, "w") as f:
        for entry in manifest + outputs:
            dtype = "uint8" if entry["type"] == "bool" else entry["type"]
            data = np.fromfile(os.path.join(dump, entry["file"]), dtype=dtype).reshape(entry["dims"])
            f[tensor_dataset(entry["name"])] = data
    return h5, None


def zero_tolerance(case_file, out_file):
    """The case file with every output's tolerance 0: the run's mismatches count the elements that differ at all."""
    with open(case_file) as f:
        doc = json.load(f)
    for case in doc["cases"]:
        members = case["operator"]["desc"]
        tolerance = {"reason": "ort_per_layer.py: counts the elements where ONNX Runtime and the reference differ"}
        for member in ("OutputTensor", "OutputTensors"):  # Split's OutputTensors: one tolerance for them all
            if member in members:
                tolerance[member] = {"ulp": 0, "abs": 0}
        case["tolerance"] = tolerance
    with open(out_file, "w") as f:
        json.dump(doc, f)


def case_tensor(case, case_dir, member):
    """A case input's logical tensor (an hdf5 dataset or a constant) as a numpy array of the member's Sizes."""
    sizes = case["operator"]["desc"][member]["Sizes"]
    source = case["inputs"][member]
    if "constant" in source:
        return np.full(sizes, source["constant"])
    with h5py.File(os.path.join(case_dir, source["hdf5"]), "r") as f:
        return np.asarray(f[source["dataset"]]).reshape(sizes)


def f32(x):
    return float(np.float32(x))


def round_half_even(fraction):
    """Exact round-half-to-even of a Fraction."""
    floor = fraction.numerator // fraction.denominator
    rest = fraction - floor
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and floor % 2):
        return floor + 1
    return floor


def explain_element(case, case_dir, coordinates):
    """For an output element of a QLinearConv or QLinearAdd case: the exact requantized value (rational arithmetic
    on the float32 scales), its round-half-to-even, and ONNX Runtime's float32 evaluation (MLAS: a float32
    multiplier for QLinearConv, float32 scale ratios with the zero points folded into a bias for QLinearAdd)."""
    desc = case["operator"]["desc"]
    get = lambda member: case_tensor(case, case_dir, member) if member in desc else None
    n, m, oh, ow = coordinates
    if case["operator"]["type"] == "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION":
        x, w = get("InputTensor").astype(np.int64), get("FilterTensor").astype(np.int64)
        channel = lambda member: (float(get(member).reshape(-1)[m if get(member).size > 1 else 0])
                                  if member in desc else 0.0)
        xz, wz, yz = channel("InputZeroPointTensor"), channel("FilterZeroPointTensor"), channel("OutputZeroPointTensor")
        xs, ws, ys = channel("InputScaleTensor"), channel("FilterScaleTensor"), channel("OutputScaleTensor")
        groups = desc.get("GroupCount", 1)
        per_group = w.shape[0] // groups
        cg = w.shape[1]
        g = m // per_group
        acc = int(get("BiasTensor").reshape(-1)[m]) if "BiasTensor" in desc else 0
        for c in range(cg):
            for kh in range(w.shape[2]):
                for kw in range(w.shape[3]):
                    ih = oh * desc["Strides"][0] - desc["StartPadding"][0] + kh * desc["Dilations"][0]
                    iw = ow * desc["Strides"][1] - desc["StartPadding"][1] + kw * desc["Dilations"][1]
                    if 0 <= ih < x.shape[2] and 0 <= iw < x.shape[3]:
                        acc += (int(x[n, g * cg + c, ih, iw]) - int(xz)) * (int(w[m, c, kh, kw]) - int(wz))
        exact = Fraction(acc) * Fraction(xs) * Fraction(ws) / Fraction(ys)
        multiplier = f32(f32(xs * ws) / ys)
        ort = float(np.rint(np.float32(np.float32(acc) * np.float32(multiplier)))) + yz
        what = f"accumulator {acc}, exact value {float(exact):.9f} (+ zero point {yz:g})"
    else:
        a, b = float(get("ATensor")[tuple(coordinates)]), float(get("BTensor")[tuple(coordinates)])
        value = lambda member: float(get(member).reshape(-1)[0]) if member in desc else 0.0
        az, bz, yz = value("AZeroPointTensor"), value("BZeroPointTensor"), value("OutputZeroPointTensor")
        as_, bs, ys = value("AScaleTensor"), value("BScaleTensor"), value("OutputScaleTensor")
        exact = ((Fraction(a) - Fraction(az)) * Fraction(as_) + (Fraction(b) - Fraction(bz)) * Fraction(bs)) / Fraction(ys)
        ra, rb = np.float32(as_) / np.float32(ys), np.float32(bs) / np.float32(ys)
        bias = np.float32(np.float32(yz) - np.float32(az) * ra) - np.float32(bz) * rb
        ort = float(np.rint(np.float32(np.float32(np.float32(a) * ra) + np.float32(b) * rb) + np.float32(bias)))
        what = f"a {a:g}, b {b:g}, exact value {float(exact):.9f} (+ zero point {yz:g})"
    lo, hi = (0, 255) if desc["OutputTensor"]["DataType"] == "UINT8" else (-128, 127)
    rounded = min(max(round_half_even(exact) + int(yz), lo), hi)
    ort = min(max(int(ort), lo), hi)
    return what, rounded, ort


def explain(case_file, exact_report, lines):
    """Integer outputs: every element where the reference and ONNX Runtime differ at all must be explained, else
    the check fails even within the contract's +-1 (which a reference that truncated instead of rounding would
    meet). QLinearConv and QLinearAdd elements (the first 8 per layer that the report lists) are worked out exactly:
    explained when the reference equals the exactly rounded value and ONNX Runtime's float32 evaluation (modelled
    here) gives ONNX Runtime's output. Other operators have no such model: any difference there is unexplained.
    Returns the number of unexplained elements."""
    with open(case_file) as f:
        cases = {c["name"]: c for c in json.load(f)["cases"]}
    with open(exact_report) as f:
        report = json.load(f)["cases"]
    kinds = ("QUANTIZED_LINEAR_CONVOLUTION", "ELEMENT_WISE_QUANTIZED_LINEAR_ADD")
    unexplained = 0
    for entry in report:
        desc = cases[entry["name"]]["operator"]["desc"]
        output_types = [t["DataType"] for t in ([desc["OutputTensor"]] if "OutputTensor" in desc
                                                else desc.get("OutputTensors", []))]
        if not any(t in ("UINT8", "INT8") for t in output_types):
            continue
        for output in entry["outputs"]:
            if output["mismatches"] == 0:
                continue
            if entry["operator"] not in kinds:
                unexplained += output["mismatches"]
                lines.append(f"#   UNEXPLAINED {entry['name']}: {output['mismatches']} elements differ and this "
                             "check has no exact model of the operator")
                continue
            listed = output["first_mismatches"]
            lines.append(f"#   {entry['name']}: {output['mismatches']} of {output['elements']} elements differ"
                         f"{'' if len(listed) == output['mismatches'] else f' (the first {len(listed)} worked out)'}")
            for mismatch in listed:
                what, rounded, modelled = explain_element(cases[entry["name"]], os.path.dirname(case_file),
                                                          mismatch["coordinates"])
                reference, ort = int(mismatch["got"]), int(mismatch["expected"])
                right = "reference" if reference == rounded else "ONNX Runtime" if ort == rounded else "neither"
                ok = right == "reference" and modelled == ort
                unexplained += 0 if ok else 1
                lines.append(f"#   {'' if ok else 'UNEXPLAINED '}{mismatch['coordinates']}: {what}: exactly rounded "
                             f"{rounded}, reference {reference}, ONNX Runtime {ort} ({right} is exact); ONNX "
                             f"Runtime's float32 evaluation (modelled) gives {modelled}")
    return unexplained


def check_model(args, model_path, dmltool, node, lines):
    name = os.path.splitext(os.path.basename(model_path))[0]
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    model = onnx.load(model_path)
    h5, ort_error = ort_tensors(model_path, work, node, args.node_path, args.seed, args.batch)
    counts = {"agree": 0, "disagree": 0, "ort": 0, "not imported": 0, "unexplained": 0}
    if ort_error:
        for n in model.graph.node:
            lines.append(f"{name}  {n.name}  {n.op_type}  -  not run by ONNX Runtime: {ort_error}")
            counts["ort"] += 1
        return counts, f"{name}: ONNX Runtime cannot run the model: {ort_error}"

    imported = os.path.join(work, "imported")
    result = run(dmltool + ["import", model_path, "--out", imported, "--batch", str(args.batch), "--name", name,
                            "--tensors-from", h5, "-v"])
    summary = result.stdout.strip().splitlines()[-1]
    why = {}
    for line in result.stdout.splitlines():
        if line.startswith("import: unsupported "):
            op, reason = line[len("import: unsupported "):].split(": ", 1)
            why[op.split(" (")[0]] = reason
    case_file = os.path.join(imported, name + ".json")
    with open(case_file) as f:
        cases = json.load(f)["cases"]
    node_of_case = {}
    for case in cases:
        node_of_case[case["name"]] = case["description"].split("): ", 1)[1]
    report_file = os.path.join(work, "report.json")
    run(dmltool + ["run", "--backend", "cpu", case_file, "--json", report_file], ok=(0, 1))
    exact_file = os.path.join(imported, name + "_exact.json")
    zero_tolerance(case_file, exact_file)
    exact_report = os.path.join(work, "report_exact.json")
    run(dmltool + ["run", "--backend", "cpu", exact_file, "--json", exact_report], ok=(0, 1))
    with open(report_file) as f:
        verdicts = {node_of_case[c["name"]]: c for c in json.load(f)["cases"]}
    with open(exact_report) as f:
        exact = {node_of_case[c["name"]]: c for c in json.load(f)["cases"]}

    layout_only = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"}
    for n in model.graph.node:
        op = n.op_type if not n.domain or n.domain == "ai.onnx" else f"{n.domain}:{n.op_type}"
        case = verdicts.get(n.name)
        if case is None:
            reason = "layout-only" if op in layout_only else why.get(op, "not mapped")
            lines.append(f"{name}  {n.name}  {op}  -  not imported ({reason})")
            counts["not imported"] += 1
            continue
        operator = case["operator"]
        parts = []
        for out in case["outputs"]:
            ex = next((o for o in exact[n.name]["outputs"] if o["output"] == out["output"]), None)
            differing = ex["mismatches"] if ex else "?"
            parts.append(f"{out['output']}: max |diff| {out['max_abs_error']:g}, max ulp {out['max_ulp_error']}, "
                         f"tolerance {out['tolerance']}, {out['mismatches']} outside it, {differing} of "
                         f"{out['elements']} elements differ at all")
        if case["status"] == "PASSED":
            verdict = "agree"
            counts["agree"] += 1
        else:
            verdict = f"DISAGREE ({case['status']})"
            counts["disagree"] += 1
        lines.append(f"{name}  {n.name}  {op}  {operator}  {verdict}  {'; '.join(parts)}")
    lines.append(f"# {name}: integer outputs where the reference and ONNX Runtime differ at all (each must be "
                 "explained):")
    counts["unexplained"] = explain(exact_file, exact_report, lines)
    line = (f"{name}: {len(model.graph.node)} nodes: {counts['agree']} agree, {counts['disagree']} disagree, "
            f"{counts['ort']} not run by ONNX Runtime, {counts['not imported']} not imported, "
            f"{counts['unexplained']} unexplained integer differences "
            f"(dmltool import: {summary})")
    return counts, line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("models", nargs="*", help=".onnx files")
    ap.add_argument("--dmltool", required=True, help="the dmltool command (may be several words, e.g. a wrapper)")
    ap.add_argument("--work", required=True, help="a scratch folder (emptied per model)")
    ap.add_argument("--make-models", help="build these generated models first (make_models.py --only, comma-separated)")
    ap.add_argument("--node-path", default=default_node_path(),
                    help="node_modules with onnxruntime-node (default: scripts/fetch_onnxruntime.sh's cache)")
    ap.add_argument("--seed", type=int, default=20261129, help="seed of the random input")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--report", help="also write the lines to this file")
    args = ap.parse_args()

    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        print("ort_per_layer: SKIP: node (Debian's nodejs) is not installed", file=sys.stderr)
        return SKIP
    if not os.path.isfile(os.path.join(args.node_path, "onnxruntime-node", "package.json")):
        print(f"ort_per_layer: SKIP: ONNX Runtime is not installed in {args.node_path} "
              "(scripts/fetch_onnxruntime.sh installs it)", file=sys.stderr)
        return SKIP
    os.makedirs(args.work, exist_ok=True)
    models = list(args.models)
    if args.make_models:
        names = {"resnet50": "resnet50_v1.5_int8", "mobilenetv2": "mobilenetv2_int8", "neck": "detector_neck_fp32"}
        command = [sys.executable, os.path.join(HERE, "models", "make_models.py"), "--out",
                   os.path.join(args.work, "models")]
        for m in args.make_models.split(","):
            if m not in names:
                print(f"ort_per_layer: --make-models: expected resnet50, mobilenetv2 or neck, found '{m}'",
                      file=sys.stderr)
                return 2
            command += ["--only", m]
        run(command)
        models += [os.path.join(args.work, "models", names[m] + ".onnx") for m in args.make_models.split(",")]
    if not models:
        print("ort_per_layer: no model given (MODEL.onnx... or --make-models)", file=sys.stderr)
        return 2
    dmltool = shlex.split(args.dmltool)
    version = run([node, "-e", "console.log(require('onnxruntime-node').env.versions.node)"],
                  env=dict(os.environ, NODE_PATH=args.node_path)).stdout.strip()
    commit = subprocess.run(["git", "-C", REPO, "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, check=False).stdout.strip() or "unknown"
    lines = [f"# command: {shlex.join(['scripts/ort_per_layer.py'] + sys.argv[1:])}",
             f"# dmltool source: {commit}",
             f"# ONNX Runtime {version} (onnxruntime-node, CPU execution provider, graph optimizations disabled, "
             f"1 thread) vs dmltool's CPU reference (dmltool run --backend cpu); input: normal(0, 1), seed {args.seed},"
             f" batch {args.batch}",
             "# model  node  ONNX operator  DirectML operator  verdict  per output: largest difference from the "
             "reference's exact value, tolerance (the operator's contract), elements that differ at all from the "
             "reference's rounded output"]
    summaries = []
    failed = False
    for model in models:
        counts, summary = check_model(args, model, dmltool, node, lines)
        summaries.append(summary)
        failed |= counts["disagree"] > 0 or counts["ort"] > 0 or counts["unexplained"] > 0
    lines += [""] + summaries
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
