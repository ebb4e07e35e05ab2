#!/usr/bin/env python3
"""One case file of imported models for the GPU machine, their weights drawn at random (same shapes).

    imported_cases.py OUT.json IMPORTED.json [IMPORTED.json ...]

The device call takes the checkout and its carried files, 64 MiB in all: with the Linux and Wine packages that
leaves no room for ResNet-50's 21 MB of weights (HDF5). Every HDF5 tensor source becomes `{"random": {}}` of the
same shape and data type, and each description says so. The timing of these layers does not depend on the
weights' values (integer multiply-adds and float multiply-adds with no data-dependent branch); each case is still
checked against the CPU reference before it is timed.
"""
import json
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    cases = []
    for path in sys.argv[2:]:
        with open(path) as f:
            for case in json.load(f)["cases"]:
                for name, source in case.get("inputs", {}).items():
                    if isinstance(source, dict) and "hdf5" in source:
                        case["inputs"][name] = {"random": {}}
                case["description"] += " [weights random, same shapes]"
                cases.append(case)
    with open(sys.argv[1], "w") as f:
        json.dump({"cases": cases}, f, indent=0)
    print(f"{sys.argv[1]}: {len(cases)} cases")


if __name__ == "__main__":
    main()
