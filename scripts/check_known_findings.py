#!/usr/bin/env python3
"""Checks a `dmltool run --json` report of a DirectML run against gpu/directml/known_findings.txt.

Every case that did not pass must be listed for that run's backend with its exact status and a substring of its
reason; every listed finding must still occur (a finding that went away is stale and must be removed, so the
list can never hide a regression behind an old entry). Exit 0 when both hold, 1 otherwise, 2 on bad input.

    scripts/check_known_findings.py --backend directml report.json gpu/directml/known_findings.txt
"""
import argparse
import json
import sys


def load_findings(path, backend):
    findings = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 4 or not all(fields):
                sys.exit(f"{path}:{number}: expected 'backend | case | STATUS | reason substring', found {line!r}")
            run, case, status, reason = fields
            if run not in ("directml", "all"):
                sys.exit(f"{path}:{number}: backend must be directml or all, found {run!r}")
            if run != backend:
                continue
            if case in findings:
                sys.exit(f"{path}:{number}: {case} is listed twice for --backend {run}")
            findings[case] = (status, reason, number)
    return findings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", required=True, choices=["directml", "all"])
    parser.add_argument("report")
    parser.add_argument("findings")
    args = parser.parse_args()
    try:
        with open(args.report, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{args.report}: cannot read the JSON report: {e}", file=sys.stderr)
        return 2
    findings = load_findings(args.findings, args.backend)
    problems = []
    seen = set()
    counts = {}
    for case in report["cases"]:
        name, status, reason = case["name"], case["status"], case["reason"]
        op = case.get("operator") or "?"
        counts.setdefault(op, {}).setdefault(status, 0)
        counts[op][status] += 1
        if status == "PASSED":
            if name in findings:
                problems.append(f"{name}: passes now, but {args.findings}:{findings[name][2]} lists it as "
                                f"{findings[name][0]}: remove the stale entry")
                seen.add(name)
            continue
        listed = findings.get(name)
        if not listed:
            problems.append(f"{name}: {status} and not a known finding: {reason}")
            continue
        seen.add(name)
        if listed[0] != status or listed[1] not in reason:
            problems.append(f"{name}: {status} ({reason}); {args.findings}:{listed[2]} expects {listed[0]} with "
                            f"'{listed[1]}'")
    for name, (status, _, number) in findings.items():
        if name not in seen:
            problems.append(f"{name}: listed at {args.findings}:{number} ({status}) but not in the report")
    for op in sorted(counts):
        print(f"--backend {args.backend}: {op}: " + ", ".join(f"{n} {s}" for s, n in sorted(counts[op].items())))
    for p in problems:
        print(f"known findings: {p}", file=sys.stderr)
    print(f"--backend {args.backend}: {len(report['cases'])} cases, {len(findings)} known findings, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
