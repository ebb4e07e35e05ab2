#!/usr/bin/env python3
"""Prints a probe run's DirectML outputs per case and element (run with --deviations none).

    python3 results/directml_element_wise_2026-11-30_probes/show_outputs.py REPORT.json PROBES.json...

'agrees': DirectML's element is within the contract's bound (not in first_mismatches); else the reference's exact
value (or a case's `expected` value, where it has one) and DirectML's.
"""
import json, sys
rep = json.load(open(sys.argv[1]))
src = {}
for f in sys.argv[2:]:
    for c in json.load(open(f))["cases"]: src[c["name"]] = c
for c in rep["cases"]:
    case = src[c["name"]]
    d = case["operator"]["desc"]
    attrs = {k: v for k, v in d.items() if not (isinstance(v, dict) and "DataType" in v)}
    ins = case["inputs"]
    slots = list(ins)
    n = len(ins[slots[0]]["values"])
    got = {}
    for o in c["outputs"]:
        if o["comparison"] == ("directml vs expected" if "expected" in case else "directml vs reference"):
            for m in o["first_mismatches"]:
                got[m["coordinates"][-1]] = (m["expected"], m["got"])
    print(f"{c['name']} [{c['status']}] {attrs} " + " ".join(f"{k}:{v['DataType']}" for k, v in d.items() if isinstance(v, dict) and 'DataType' in v))
    if c["status"] not in ("PASSED", "FAILED", "DEVIATES"): print("   ", c.get("reason", "")[:300])
    for i in range(n):
        args = ", ".join(str(ins[s]["values"][i]) for s in slots)
        e = got.get(i)
        print(f"   ({args}) -> " + (f"exact {e[0]}  DirectML {e[1]}" if e else "agrees"))
