#!/usr/bin/python3
"""Writes the generated part of the bad-input corpus: tests/bad_inputs/generated/*.json (one failure mode each:
a valid base case of each operator with exactly one thing broken) and generated/expectations.txt, the message
each must produce (see ../expectations.txt for the format). Symbolic links used by the path cases are made here
too; the HDF5 fixtures come from make_h5.py.

  /usr/bin/python3 tests/bad_inputs/gen_corpus.py          # rewrite generated/
  /usr/bin/python3 tests/bad_inputs/gen_corpus.py --check  # exit 1 if generated/ is not what this script writes
"""
import copy
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from corpus_cases import (BASES, DELETE, case_level_cases, d2s_cases, file_level_cases, hdf5_cases,
                          qlconv_cases, resample_cases, source_cases, split_cases, tensor_desc_cases)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "generated")


def regex_escape(text):
    """CMake regex syntax: these characters are special; there is no \\d or {n}."""
    return "".join("\\" + c if c in "\\.[]()?*+^$|" else c for c in text)


class Corpus:
    def __init__(self):
        self.files = {}  # name -> bytes
        self.expectations = []  # (name, regex)

    def add_text(self, name, text, message, case=None):
        """`message`: the literal start of the one-line message after "file: case 'name': " (or "file: ")."""
        assert name not in self.files, name
        self.files[name] = text.encode() if isinstance(text, str) else text
        where = "generated/" + name + (f": case '{case}': " if case is not None else ": ")
        self.expectations.append((name, regex_escape(where + message)))

    def add(self, base, stem, mutations, message):
        """A copy of BASES[base] named "<base>/<stem>" with `mutations` [(path tuple, value)] applied."""
        case = copy.deepcopy(BASES[base])
        case["name"] = f"{base}/{stem}"
        for path, value in mutations:
            node = case
            for key in path[:-1]:
                node = node[key]
            if value is DELETE:
                del node[path[-1]]
            else:
                node[path[-1]] = value
        self.add_text(f"{base}_{stem}.json", json.dumps(case, indent=1) + "\n", message, case["name"])


def generate():
    c = Corpus()
    tensor_desc_cases(c)
    d2s_cases(c)
    split_cases(c)
    resample_cases(c)
    qlconv_cases(c)
    source_cases(c)
    hdf5_cases(c)
    case_level_cases(c)
    file_level_cases(c)
    lines = ["# Written by gen_corpus.py: do not edit (see ../expectations.txt for the format)."]
    for name, regex in sorted(c.expectations):
        lines.append(name + "|" + regex)
    c.files["expectations.txt"] = ("\n".join(lines) + "\n").encode()
    return c.files


# Symbolic links that leave generated/: each target exists, so only the canonical-path check refuses them.
# The directory link goes to a tree without links, so nothing that walks these folders can loop.
SYMLINKS = {"escape_link.h5": "../data.h5", "escape_dir": "../../../cases/data"}


def main():
    files = generate()
    check = "--check" in sys.argv[1:]
    problems = []
    os.makedirs(OUT, exist_ok=True)
    present = {n for n in os.listdir(OUT) if n.endswith(".json") or n == "expectations.txt"}
    for name in sorted(present - set(files)):
        problems.append(f"{name}: not written by this script")
        if not check:
            os.remove(os.path.join(OUT, name))
    for name, data in sorted(files.items()):
        path = os.path.join(OUT, name)
        current = open(path, "rb").read() if os.path.exists(path) else None
        if current != data:
            problems.append(f"{name}: {'differs from' if current is not None else 'missing, unlike'} what this script writes")
            if not check:
                with open(path, "wb") as f:
                    f.write(data)
    for name, target in SYMLINKS.items():
        path = os.path.join(OUT, name)
        if os.path.islink(path) and os.readlink(path) == target:
            continue
        problems.append(f"{name}: expected a symbolic link to {target}")
        if not check:
            if os.path.lexists(path):
                os.remove(path)
            os.symlink(target, path)
    if check and problems:
        print("tests/bad_inputs/generated is stale (rerun /usr/bin/python3 tests/bad_inputs/gen_corpus.py):")
        print("\n".join("  " + p for p in problems))
        return 1
    print(f"{len(files) - 1} generated corpus files" + (", current" if check else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
