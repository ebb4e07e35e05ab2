#!/usr/bin/env python3
"""Checks a `dmltool run --json` report of a DirectML run against what its deviation registry predicts.

dmltool evaluates every registered deviation model on every case it speaks about and writes, per case, the
registry's predictions (`predicted_deviations`: certain when the model's output breaks the contract) and the
deviations that explain the case (`deviations`, status DEVIATES). This check holds the two together:
  - no case is FAILED, MISTRUSTED or INVALID (every departure from the contract is registered, or a bug);
  - every DEVIATES case names entries the registry predicted for it;
  - every certain prediction happened (a case the registry says DirectML departs on, and that passed, means the
    entry is stale or its model wrong);
  - no case is UNSUPPORTED because DirectML refused a desc the registry does not list.
Prints one line per operator and per deviation id, then the problems. Exit 0 when all hold, 1 otherwise, 2 on
bad input.

    scripts/check_deviations.py report.json
"""
import argparse
import json
import sys
from collections import Counter, defaultdict

REFUSAL = "rejected a desc that dmltool validated"


def check(report):
    problems = []
    by_operator = defaultdict(Counter)
    by_deviation = Counter()
    for case in report["cases"]:
        name, status, reason = case["name"], case["status"], case.get("reason", "")
        by_operator[case.get("operator") or "?"][status] += 1
        predicted = {p["id"]: p["certain"] for p in case.get("predicted_deviations", [])}
        explained = [d["id"] for d in case.get("deviations", [])]
        for d in explained:
            by_deviation[d] += 1
        if status in ("FAILED", "MISTRUSTED", "INVALID"):
            problems.append(f"{name}: {status}: {reason}")
            continue
        if status == "DEVIATES":
            for d in explained:
                if d not in predicted:
                    problems.append(f"{name}: DEVIATES as {d}, which the registry did not predict for this case")
        # A certain prediction fails only on a case that PASSED (the entry is stale or its model wrong): a case that
        # DEVIATES may name another entry whose model also explains it (overlapping models of one operator, e.g.
        # ASINH's coarse approximation and its float32 formula; the runner names the first that matches), and an
        # UNSUPPORTED case did not run.
        for d, certain in predicted.items():
            if certain and status == "PASSED":
                problems.append(f"{name}: {status}, but the registry predicts {d} (the model's output breaks the "
                                f"contract here): a stale entry or a wrong model")
        if status == "UNSUPPORTED" and REFUSAL in reason:
            problems.append(f"{name}: DirectML refused a desc that no registry entry lists: {reason}")
    return problems, by_operator, by_deviation


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    args = parser.parse_args()
    try:
        with open(args.report, encoding="utf-8") as f:
            report = json.load(f)
        report["cases"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{args.report}: cannot read the JSON report: {e}", file=sys.stderr)
        return 2
    problems, by_operator, by_deviation = check(report)
    for op in sorted(by_operator):
        print(f"{op}: " + ", ".join(f"{n} {s}" for s, n in sorted(by_operator[op].items())))
    for d in sorted(by_deviation):
        print(f"  DEVIATES {by_deviation[d]:3d} x {d}")
    for p in problems:
        print(f"check_deviations: {p}", file=sys.stderr)
    print(f"check_deviations: {len(report['cases'])} cases, {sum(by_deviation.values())} deviations explained, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
