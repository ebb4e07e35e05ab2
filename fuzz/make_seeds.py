#!/usr/bin/python3
"""Writes the fuzzer's seed inputs: every case of the given case files as a single-case file, plus a variant
whose HDF5 sources become inline "random" sources (the fuzzer cannot read HDF5 files, so without it the
CPU-reference paths of most bundled cases would be out of reach). `scripts/fuzz.sh seed` merges the seeds into
fuzz/corpus/; the seeds themselves are not committed.

usage: make_seeds.py OUT_DIR CASE_FILE...
"""
import copy
import hashlib
import json
import pathlib
import sys

# The bundled suites (tens of KiB) would only slow every mutation down; their cases are seeded one by one.
MAX_WHOLE_FILE_BYTES = 8192


def cases_of(path):
    try:
        root = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        return []  # malformed on purpose (tests/bad_inputs): the raw bytes are seeded instead
    if isinstance(root, dict) and isinstance(root.get("cases"), list):
        return root["cases"]
    return [root]


def inline_sources(case):
    """The case with every HDF5 source replaced by a small random one and no expectations (they came from HDF5)."""
    if not isinstance(case, dict) or not isinstance(case.get("inputs"), dict):
        return None
    variant = copy.deepcopy(case)
    changed = False

    def replace(source):
        nonlocal changed
        if isinstance(source, dict) and "hdf5" in source:
            changed = True
            return {"random": {"seed": 7, "min": 0, "max": 3}}
        return source

    for field, source in variant["inputs"].items():
        variant["inputs"][field] = [replace(s) for s in source] if isinstance(source, list) else replace(source)
    if "expected" in variant:
        del variant["expected"]
        variant.pop("tolerance", None)
        changed = True
    return variant if changed else None


def main():
    out_dir = pathlib.Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    written = set()

    def write(data):
        name = hashlib.sha1(data).hexdigest()
        if name not in written:
            (out_dir / name).write_bytes(data)
            written.add(name)

    for path in sys.argv[2:]:
        data = pathlib.Path(path).read_bytes()
        if len(data) <= MAX_WHOLE_FILE_BYTES:
            write(data)  # whole files too: multi-case files, malformed JSON
        for case in cases_of(path):
            write(json.dumps(case, separators=(",", ":")).encode())
            variant = inline_sources(case)
            if variant is not None:
                write(json.dumps(variant, separators=(",", ":")).encode())
    print(f"{len(written)} seed inputs in {out_dir}")


if __name__ == "__main__":
    main()
