#!/usr/bin/env python3
"""Per-layer and per-model tables of imported models: dmltool's kernels vs DirectML's shaders vs PyTorch.

    model_table.py CASES.json --ours REPORT.json [--wine-ours REPORT.json ...] [--directml REPORT.json ...]
                   [--pytorch pytorch.json] > table.md

CASES.json is the imported case file that was benchmarked (each case's tag `nodes:N` says how many of the model's
nodes it stands for; `model:NAME` names the model). --ours is the Linux build's bench report (vkd3d), --wine-ours
and --directml the reports of dmltool.exe under Wine with --backend gpu and --backend directml (same Wine, same
GPU), --pytorch pytorch_baseline.py's output. A layer's time is its case's median time per execution; a model's
time is the sum over its layers of time x nodes. Each layer is timed alone, back to back with warm caches: this is
the sum of the layers, not an end-to-end inference time.

Totals are given twice: over the layers each column measured, and over the layers every column measured (the
only totals whose ratios compare like with like).
"""
import argparse
import json
import sys


def load_report_times(paths):
    """case name -> median seconds per execution, from one or more bench reports."""
    times = {}
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        for case in report["cases"]:
            times[case["name"]] = case["seconds"]
    return times


def load_pytorch(path):
    with open(path) as f:
        results = json.load(f)["results"]
    return {r["name"]: r for r in results}


def tag_value(case, prefix):
    for tag in case.get("tags", []):
        if tag.startswith(prefix):
            return tag[len(prefix):]
    return None


def us(seconds):
    return "—" if seconds is None else f"{seconds * 1e6:.1f}"


def ratio(other, ours):
    return "—" if other is None or not ours else f"{other / ours:.2f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases")
    ap.add_argument("--ours", action="append", required=True)
    ap.add_argument("--wine-ours", action="append", default=[])
    ap.add_argument("--directml", action="append", default=[])
    ap.add_argument("--pytorch")
    args = ap.parse_args()
    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    ours = load_report_times(args.ours)
    wine_ours = load_report_times(args.wine_ours)
    directml = load_report_times(args.directml)
    pytorch = load_pytorch(args.pytorch) if args.pytorch else {}
    columns = [("ours (Linux, vkd3d 1.2)", ours)]
    if args.wine_ours:
        columns.append(("ours (Wine, vkd3d 1.6)", wine_ours))
    if args.directml:
        columns.append(("DirectML (Wine, vkd3d 1.6)", directml))
    if args.pytorch:
        columns.append(("PyTorch float32", {n: r["median_ms"] / 1e3 for n, r in pytorch.items() if "median_ms" in r}))

    models = {}
    for case in cases:
        model = tag_value(case, "model:")
        if model is None:
            continue
        models.setdefault(model, []).append(case)

    summary = []
    for model, layers in models.items():
        print(f"## {model}\n")
        header = ["layer", "operator", "nodes"] + [c[0] + ", µs" for c in columns]
        header += ["DirectML / ours (Wine)"] if args.directml and args.wine_ours else []
        header += ["PyTorch / ours (Linux)"] if args.pytorch else []
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        totals = [0.0] * len(columns)
        counted = [0] * len(columns)
        common = [0.0] * len(columns)
        common_layers = common_nodes = 0
        node_total = 0
        for case in layers:
            name = case["name"]
            nodes = int(tag_value(case, "nodes:") or 1)
            node_total += nodes
            values = [col.get(name) for _, col in columns]
            for i, v in enumerate(values):
                if v is not None:
                    totals[i] += v * nodes
                    counted[i] += nodes
            if all(v is not None for v in values):
                common_layers += 1
                common_nodes += nodes
                for i, v in enumerate(values):
                    common[i] += v * nodes
            operator = case["operator"]["type"].removeprefix("DML_OPERATOR_")
            row = [name.split("/", 2)[-1], operator, str(nodes)] + [us(v) for v in values]
            if args.directml and args.wine_ours:
                row.append(ratio(directml.get(name), wine_ours.get(name)))
            if args.pytorch:
                record = pytorch.get(name, {})
                row.append(ratio(record["median_ms"] / 1e3, ours.get(name)) if "median_ms" in record
                           else "— " + record.get("not_measured", "not run")[:60])
            print("| " + " | ".join(row) + " |")
        print()
        summary.append((model, len(layers), node_total, totals, counted, common, common_layers, common_nodes))

    print("## Per model (sum over layers of time x nodes)\n")
    print("| model | column | layers' nodes measured | total, µs | over the layers every column measured, µs | vs ours (Linux) on those |")
    print("|---|---|---|---|---|---|")
    for model, n_cases, node_total, totals, counted, common, common_layers, common_nodes in summary:
        for i, (label, _) in enumerate(columns):
            print(f"| {model} | {label} | {counted[i]} of {node_total} | {totals[i] * 1e6:.0f} | "
                  f"{common[i] * 1e6:.0f} ({common_layers} cases, {common_nodes} nodes) | "
                  f"{(common[i] / common[0]) if common[0] else float('nan'):.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
