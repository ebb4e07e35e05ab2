#!/usr/bin/env python3
"""The committed JSON Schema validates every bundled case file and rejects misspelled members.

    check_schema.py SCHEMA.json CASE.json...
Uses Debian's python3-jsonschema (scripts/install_deps.sh). That the committed schema equals `dmltool schema`'s
output is the ctest schema_current. Exit 0 when every file validates and every planted typo is rejected.
"""
import copy
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    for path in sys.argv[2:]:
        errors = list(validator.iter_errors(json.load(open(path))))
        if errors:
            failures += 1
            print(f'{path}: {errors[0].message[:300]} at /{"/".join(map(str, errors[0].absolute_path))}')
    doc = json.load(open(sys.argv[2]))
    first = doc['cases'][0] if 'cases' in doc else doc
    # A typo at each level: the desc, a tensor desc, a tensor source, the case itself.
    def typo_desc(c): c['operator']['desc']['BlockSzie'] = c['operator']['desc'].pop(next(iter(c['operator']['desc'])))
    def typo_tensor(c): c['operator']['desc']['InputTensor']['Size'] = c['operator']['desc']['InputTensor'].pop('Sizes')
    def typo_source(c): c['inputs']['InputTensor'] = {'valeus': [1]}
    def typo_case(c): c['expectd'] = c.pop('expected', {})
    for plant in (typo_desc, typo_tensor, typo_source, typo_case):
        case = copy.deepcopy(first)
        plant(case)
        if validator.is_valid(case):
            failures += 1
            print(f'{plant.__name__}: a misspelled member was accepted')
    print(f'check_schema: {len(sys.argv) - 2} files, {failures} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
