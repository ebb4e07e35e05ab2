#!/usr/bin/env python3
"""Checks the internal consistency of ops/element_wise/dml_facts.inc (DirectML's element-wise and activation
operator facts) and that the files built on it agree with it.

The facts themselves come from DirectML's headers and reference pages (the .inc says which); this check cannot
tell whether a transcribed fact is true, but it catches the slips of transcription that leave the table
inconsistent:
  - every row is one of the known row kinds with the right number of arguments and known words;
  - operator names and DML_OPERATOR_TYPE values are unique, and the counts are the documented ones;
  - every operator has at least one input and one output tensor, its member rows follow its own row and
    member names are unique within it; an array member follows its count member;
  - every row of an operator follows its own DMLTOOL_DML_OP row, and each operator has one formula;
  - every feature-level support row names one of the operator's tensor members with a kind that matches it
    (an OPTIONAL_INPUT only where the desc allows null), a feature level DirectML defines, ranks within 1 to 8
    and known data types; each level's table lists every tensor member exactly once; the lowest documented
    level is the DirectML.h block that introduced the operator (two independent sources agreeing);
  - SAME constraints name at least two tensor members; FUSABLE rows are activations;
  - gpu/directml/dml_api.h declares no value of these operators that differs from the table;
  - docs/operators-element-wise.md (when present) states the counts and lists every operator.
--self-test plants one slip of each kind in a copy of the table and checks that each is reported.
Exit 0 when consistent, 1 otherwise.

    scripts/check_dml_facts.py [--root DIR] [--self-test]
"""
import argparse
import os
import re
import sys

FACTS = "ops/element_wise/dml_facts.inc"
DML_API = "gpu/directml/dml_api.h"
DOC = "docs/operators-element-wise.md"

EXPECTED_FORWARD = 89
EXPECTED_GRADIENT = 3

ROW = re.compile(r"^(DMLTOOL_DML_[A-Z_]+)\((.*)\)\s*$")
ARITY = {
    "DMLTOOL_DML_OP": 6,
    "DMLTOOL_DML_MEMBER": 6,
    "DMLTOOL_DML_ENUM_VALUE": 3,
    "DMLTOOL_DML_SUPPORT": 8,
    "DMLTOOL_DML_SAME": 3,
    "DMLTOOL_DML_FORMULA": 2,
    "DMLTOOL_DML_NOTE": 3,
    "DMLTOOL_DML_FUSABLE": 1,
}
ROLES = {"FORWARD", "GRADIENT"}
IN_PLACE = {"IN_PLACE", "NOT_IN_PLACE", "NOT_LISTED"}
KINDS = {"INPUT", "OUTPUT", "ATTRIBUTE"}
TYPES = {"TENSOR", "OPERATOR_DESC", "UINT", "INT", "FLOAT", "UINT_ARRAY", "SCALE_BIAS", "SCALAR_UNION"}
PRESENCE = {"REQUIRED", "OPTIONAL"}
DATA_TYPES = {"FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32", "INT16", "INT8", "FLOAT64", "UINT64",
              "INT64", "UINT4", "INT4"}
FEATURE_LEVELS = {(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1), (5, 0), (5, 1), (5, 2), (6, 0), (6, 1),
                  (6, 2), (6, 3), (6, 4)}
NOTE_KINDS = {"CONSTRAINT", "SPECIAL_VALUES", "REMARK"}
SUPPORT_KINDS = {"INPUT", "OPTIONAL_INPUT", "OUTPUT"}
PROPERTIES = {"DATA_TYPE", "DIMENSION_COUNT", "SIZES"}


def split_args(text):
    """Splits a macro argument list at top-level commas, keeping string literals whole."""
    args, current, in_string, escaped = [], "", False, False
    for ch in text:
        if in_string:
            current += ch
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            current += ch
        elif ch == ",":
            args.append(current.strip())
            current = ""
        else:
            current += ch
    args.append(current.strip())
    return args


def parse_rows(lines):
    """Yields (line number, macro, args) for every row; problems for lines that look like rows but are not."""
    rows, problems = [], []
    in_directive = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        # #define lines (and their continuations) declare the macros; they are not rows.
        if in_directive or stripped.startswith("#"):
            in_directive = stripped.endswith("\\")
            continue
        if not stripped.startswith("DMLTOOL_DML_"):
            continue
        match = ROW.match(stripped)
        if not match:
            problems.append(f"line {number}: not a well-formed row: {stripped}")
            continue
        macro, args = match.group(1), split_args(match.group(2))
        if macro not in ARITY:
            problems.append(f"line {number}: unknown row kind {macro}")
        elif len(args) != ARITY[macro]:
            problems.append(f"line {number}: {macro} takes {ARITY[macro]} arguments, found {len(args)}")
        else:
            rows.append((number, macro, args))
    return rows, problems


def check_facts(lines):
    """Returns (problems, operators) where operators maps name -> dict of facts."""
    rows, problems = parse_rows(lines)
    operators, values, current = {}, {}, None
    for number, macro, args in rows:
        where = f"line {number}"
        if macro == "DMLTOOL_DML_OP":
            name, value, role, major, minor, in_place = args
            if name in operators:
                problems.append(f"{where}: operator {name} listed twice")
                current = None
                continue
            if not value.isdigit():
                problems.append(f"{where}: {name}: DML_OPERATOR_TYPE value {value!r} is not a number")
                continue
            if int(value) in values:
                problems.append(f"{where}: {name}: DML_OPERATOR_TYPE value {value} already belongs to {values[int(value)]}")
            values[int(value)] = name
            if role not in ROLES:
                problems.append(f"{where}: {name}: role {role!r} not in {sorted(ROLES)}")
            if in_place not in IN_PLACE:
                problems.append(f"{where}: {name}: in-place flag {in_place!r} not in {sorted(IN_PLACE)}")
            if not (major.isdigit() and minor.isdigit()) or (int(major), int(minor)) not in FEATURE_LEVELS:
                problems.append(f"{where}: {name}: introduced level {major}.{minor} is not a DirectML feature level")
                introduced = (0, 0)
            else:
                introduced = (int(major), int(minor))
            current = name
            operators[name] = {"value": int(value), "role": role, "introduced": introduced, "members": [],
                               "support": [], "formulas": 0, "line": number, "closed": False}
        elif macro == "DMLTOOL_DML_MEMBER":
            name, kind, type_, presence, member, c_type = args
            op = operators.get(name)
            if op is None or name != current or op["closed"]:
                problems.append(f"{where}: member {member} of {name} does not follow {name}'s own row")
                continue
            if kind not in KINDS:
                problems.append(f"{where}: {name}.{member}: kind {kind!r} not in {sorted(KINDS)}")
            if type_ not in TYPES:
                problems.append(f"{where}: {name}.{member}: type {type_!r} not in {sorted(TYPES)}")
            if presence not in PRESENCE:
                problems.append(f"{where}: {name}.{member}: presence {presence!r} not in {sorted(PRESENCE)}")
            if not (c_type.startswith('"') and c_type.endswith('"')):
                problems.append(f"{where}: {name}.{member}: C type must be a string literal, found {c_type}")
            if (kind in ("INPUT", "OUTPUT")) != (type_ == "TENSOR"):
                problems.append(f"{where}: {name}.{member}: kind {kind} does not go with type {type_}")
            if any(m["name"] == member for m in op["members"]):
                problems.append(f"{where}: {name}: member {member} listed twice")
            if type_ == "UINT_ARRAY" and not (op["members"] and op["members"][-1]["type"] == "UINT"):
                problems.append(f"{where}: {name}.{member}: an array member must follow its UINT count member")
            op["members"].append({"name": member, "kind": kind, "type": type_, "optional": presence == "OPTIONAL"})
        elif macro == "DMLTOOL_DML_SUPPORT":
            if current:
                operators[current]["closed"] = True
            name, major, minor, member, kind, rank_min, rank_max, types = args
            op = operators.get(name)
            if op is None:
                problems.append(f"{where}: support row of unknown operator {name}")
                continue
            if name != current:
                problems.append(f"{where}: support row of {name} is not among {name}'s rows")
            tensors = {m["name"]: m for m in op["members"] if m["type"] == "TENSOR"}
            if member not in tensors:
                problems.append(f"{where}: {name}: support row names {member}, not a tensor member of {name} "
                                f"({', '.join(sorted(tensors))})")
            elif kind not in SUPPORT_KINDS:
                problems.append(f"{where}: {name}.{member}: kind {kind!r} not in {sorted(SUPPORT_KINDS)}")
            elif (kind == "OUTPUT") != (tensors[member]["kind"] == "OUTPUT"):
                problems.append(f"{where}: {name}.{member}: support kind {kind} but the member is an {tensors[member]['kind']}")
            elif kind == "OPTIONAL_INPUT" and not tensors[member]["optional"]:
                problems.append(f"{where}: {name}.{member}: optional in the table but required in the desc")
            if not (major.isdigit() and minor.isdigit()) or (int(major), int(minor)) not in FEATURE_LEVELS:
                problems.append(f"{where}: {name}: feature level {major}.{minor} is not a DirectML feature level")
            elif (int(major), int(minor)) < op["introduced"]:
                problems.append(f"{where}: {name}: documented at level {major}.{minor}, before the header block "
                                f"that introduced it ({op['introduced'][0]}.{op['introduced'][1]})")
            if not (rank_min.isdigit() and rank_max.isdigit()) or not 1 <= int(rank_min) <= int(rank_max) <= 8:
                problems.append(f"{where}: {name}.{member}: ranks {rank_min} to {rank_max} are not within 1 to 8")
            words = types.strip('"').split()
            unknown = [w for w in words if w not in DATA_TYPES]
            if not types.startswith('"') or not words or unknown:
                problems.append(f"{where}: {name}.{member}: data types {types} must be a string of DirectML data "
                                f"type names (unknown: {unknown})")
            op["support"].append((int(major) if major.isdigit() else 0, int(minor) if minor.isdigit() else 0, member))
        elif macro == "DMLTOOL_DML_SAME":
            name, prop, members = args
            op = operators.get(name)
            if op is None or name != current:
                problems.append(f"{where}: constraint row of {name} is not among {name}'s rows")
                continue
            if prop not in PROPERTIES:
                problems.append(f"{where}: {name}: property {prop!r} not in {sorted(PROPERTIES)}")
            tensors = {m["name"] for m in op["members"] if m["type"] == "TENSOR"}
            listed = members.strip('"').split()
            if len(listed) < 2 or any(m not in tensors for m in listed):
                problems.append(f"{where}: {name}: SAME {prop} must name at least two tensor members of {name}, "
                                f"found {members}")
        elif macro == "DMLTOOL_DML_FUSABLE":
            name = args[0]
            if name not in operators or not name.startswith("ACTIVATION_") or name != current:
                problems.append(f"{where}: FUSABLE row of {name}: not an activation's own row")
        elif macro in ("DMLTOOL_DML_FORMULA", "DMLTOOL_DML_NOTE"):
            if current:
                operators[current]["closed"] = True
            name = args[0]
            if name not in operators or name != current:
                problems.append(f"{where}: {macro} row of {name} is not among {name}'s rows")
            if macro == "DMLTOOL_DML_FORMULA" and name in operators and name == current:
                operators[name]["formulas"] += 1
            if macro == "DMLTOOL_DML_NOTE" and args[1] not in NOTE_KINDS:
                problems.append(f"{where}: {name}: note kind {args[1]!r} not in {sorted(NOTE_KINDS)}")
            if not (args[-1].startswith('"') and args[-1].endswith('"')):
                problems.append(f"{where}: {name}: {macro}'s text must be a string literal")
        elif macro == "DMLTOOL_DML_ENUM_VALUE":
            if current:
                operators[current]["closed"] = True
                current = None
            if not args[2].isdigit():
                problems.append(f"{where}: {args[0]}::{args[1]}: value {args[2]!r} is not a number")

    for name, op in operators.items():
        kinds = [m["kind"] for m in op["members"]]
        if "OUTPUT" not in kinds:
            problems.append(f"{name}: no output tensor member")
        if "INPUT" not in kinds:
            problems.append(f"{name}: no input tensor member")
        if op["formulas"] != 1:
            problems.append(f"{name}: expected one formula row, found {op['formulas']}")
        tensors = sorted(m["name"] for m in op["members"] if m["type"] == "TENSOR")
        levels = sorted({(major, minor) for major, minor, _ in op["support"]})
        for level in levels:
            listed = sorted(member for major, minor, member in op["support"] if (major, minor) == level)
            if listed != tensors:
                problems.append(f"{name}: the table of level {level[0]}.{level[1]} lists {' '.join(listed)}, "
                                f"expected each tensor member once: {' '.join(tensors)}")
        if not levels:
            problems.append(f"{name}: no feature-level support rows")
        elif levels[0] != op["introduced"]:
            problems.append(f"{name}: the lowest documented level {levels[0][0]}.{levels[0][1]} is not the header "
                            f"block that introduced it ({op['introduced'][0]}.{op['introduced'][1]})")

    forward = sum(1 for op in operators.values() if op["role"] == "FORWARD")
    gradient = sum(1 for op in operators.values() if op["role"] == "GRADIENT")
    if forward != EXPECTED_FORWARD or gradient != EXPECTED_GRADIENT:
        problems.append(f"expected {EXPECTED_FORWARD} forward and {EXPECTED_GRADIENT} gradient operators, found "
                        f"{forward} and {gradient}")
    for name in operators:
        if not (name.startswith("ELEMENT_WISE_") or name.startswith("ACTIVATION_")):
            problems.append(f"{name}: not an ELEMENT_WISE_ or ACTIVATION_ operator")
    return problems, operators


def check_dml_api(text, operators):
    problems = []
    for name, value in re.findall(r"\bDML_OPERATOR_([A-Z0-9_]+)\s*=\s*(\d+)", text):
        if name in operators and operators[name]["value"] != int(value):
            problems.append(f"{DML_API}: DML_OPERATOR_{name} = {value}, the facts say {operators[name]['value']}")
    return problems


def check_doc(text, operators):
    problems = []
    forward = [n for n, op in operators.items() if op["role"] == "FORWARD"]
    gradient = [n for n, op in operators.items() if op["role"] == "GRADIENT"]
    for count, what in ((len(forward), "forward"), (len(gradient), "gradient")):
        if not re.search(rf"\b{count} {what}\b", text):
            problems.append(f"{DOC}: does not state the count '{count} {what}'")
    for name in operators:
        if not re.search(rf"\bDML_OPERATOR_{name}\b", text):
            problems.append(f"{DOC}: does not list DML_OPERATOR_{name}")
    return problems


def check_all(facts_lines, api_text, doc_text):
    problems, operators = check_facts(facts_lines)
    problems += check_dml_api(api_text, operators)
    if doc_text is not None:
        problems += check_doc(doc_text, operators)
    return problems, operators


def self_test(facts_lines, api_text, doc_text):
    """Plants one slip of each kind and checks that the check reports it."""
    def first(prefix):
        return next(i for i, line in enumerate(facts_lines) if line.startswith(prefix))

    def replaced(index, new_line):
        copy = list(facts_lines)
        copy[index] = new_line
        return copy

    def inserted_after(prefix, new_line):
        index = first(prefix)
        return facts_lines[:index + 1] + [new_line] + facts_lines[index + 1:]

    op_row = first("DMLTOOL_DML_OP(ELEMENT_WISE_ABS,")
    output_row = first("DMLTOOL_DML_MEMBER(ELEMENT_WISE_ABS, OUTPUT")
    input_row = first("DMLTOOL_DML_MEMBER(ELEMENT_WISE_ABS, INPUT")
    axes_count_row = first("DMLTOOL_DML_MEMBER(ACTIVATION_SOFTMAX1, ATTRIBUTE, UINT")
    gelu_support = first("DMLTOOL_DML_SUPPORT(ACTIVATION_GELU, 5, 1, InputTensor")
    add_output = first("DMLTOOL_DML_SUPPORT(ELEMENT_WISE_ADD, 1, 0, OutputTensor")
    add_lowest = [i for i, line in enumerate(facts_lines) if line.startswith("DMLTOOL_DML_SUPPORT(ELEMENT_WISE_ADD, 1, 0,")]
    abs_formula = "DMLTOOL_DML_FORMULA(ELEMENT_WISE_ABS,"
    plants = {
        "duplicate name": (replaced(op_row, facts_lines[op_row].replace("ELEMENT_WISE_ABS,", "ELEMENT_WISE_IDENTITY,")),
                           "listed twice"),
        "duplicate value": (replaced(op_row, facts_lines[op_row].replace(", 2,", ", 1,")), "already belongs to"),
        "no output": (replaced(output_row, facts_lines[output_row].replace("OUTPUT", "INPUT")), "no output tensor"),
        "no input": (replaced(input_row, ""), "no input tensor"),
        "array before count": (replaced(axes_count_row, ""), "must follow its UINT count"),
        "unknown word": (replaced(op_row, facts_lines[op_row].replace("FORWARD", "FORWARDS")), "role"),
        "bad arity": (replaced(op_row, facts_lines[op_row].replace(", IN_PLACE)", ")")), "takes 6 arguments"),
        "support names non-member": (
            inserted_after(abs_formula, 'DMLTOOL_DML_SUPPORT(ELEMENT_WISE_ABS, 1, 0, ATensor, INPUT, 1, 8, "FLOAT32")'),
            "not a tensor member"),
        "support before introduced": (replaced(gelu_support, facts_lines[gelu_support].replace(", 5, 1,", ", 5, 0,")),
                                      "before the header block"),
        "unknown data type": (replaced(gelu_support, facts_lines[gelu_support].replace("FLOAT16", "FLOAT8")),
                              "data types"),
        "member missing at a level": (replaced(add_output, ""), "expected each tensor member once"),
        "support kind against member": (replaced(add_output, facts_lines[add_output].replace("OUTPUT", "INPUT")),
                                        "support kind"),
        "optional in table, required in desc": (
            replaced(add_output - 1, facts_lines[add_output - 1].replace(", INPUT,", ", OPTIONAL_INPUT,")),
            "optional in the table"),
        "lowest level after introduced": ([line for i, line in enumerate(facts_lines) if i not in add_lowest],
                                          "lowest documented level"),
        "same names non-member": (inserted_after(abs_formula, 'DMLTOOL_DML_SAME(ELEMENT_WISE_ABS, SIZES, "InputTensor ATensor")'),
                                  "at least two tensor members"),
        "fusable element-wise": (inserted_after(abs_formula, "DMLTOOL_DML_FUSABLE(ELEMENT_WISE_ABS)"), "FUSABLE row"),
        "row of another operator": (inserted_after(abs_formula, 'DMLTOOL_DML_FORMULA(ELEMENT_WISE_ACOS, "y = 1")'),
                                    "not among"),
        "no formula": (replaced(first(abs_formula), ""), "formula"),
        "wrong count": ([line for line in facts_lines if not line.startswith("DMLTOOL_DML_MEMBER(ACTIVATION_TANH,")
                         and not line.startswith("DMLTOOL_DML_OP(ACTIVATION_TANH,")], "forward and"),
    }
    failures = []
    for what, (lines, expected) in plants.items():
        problems, _ = check_all(lines, api_text, doc_text)
        if not any(expected in p for p in problems):
            failures.append(f"planted '{what}' not reported (expected a problem containing '{expected}'; got "
                            f"{problems[:3]})")
    problems, operators = check_facts(facts_lines)
    api_plant = check_dml_api("DML_OPERATOR_ELEMENT_WISE_ABS = 3,", operators)
    if not api_plant:
        failures.append("planted wrong value in dml_api.h not reported")
    if doc_text is not None and not check_doc(doc_text.replace("DML_OPERATOR_ACTIVATION_GELU", "GELU"), operators):
        failures.append("planted missing operator in the doc not reported")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--self-test", action="store_true", help="plant slips and check that each is reported")
    options = parser.parse_args()

    def read(relative, required=True):
        path = os.path.join(options.root, relative)
        if not required and not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as f:
            return f.read()

    facts_lines = read(FACTS).splitlines()
    api_text = read(DML_API)
    doc_text = read(DOC, required=False)
    problems, operators = check_all(facts_lines, api_text, doc_text)
    if options.self_test:
        problems += self_test(facts_lines, api_text, doc_text)
    forward = sum(1 for op in operators.values() if op["role"] == "FORWARD")
    print(f"{FACTS}: {len(operators)} operators ({forward} forward, {len(operators) - forward} gradient), "
          f"{sum(len(op['members']) for op in operators.values())} members, "
          f"{sum(len(op['support']) for op in operators.values())} support rows")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
