#!/usr/bin/env python3
"""No folder includes a folder above it (docs/architecture.md, "Layers").

    check_includes.py [--root DIR]   # exit 0 when every #include "FOLDER/..." respects the layers, 1 otherwise
    check_includes.py --self-test    # the checker finds planted includes that break the layers

The rooms of the tool, bottom to top: bench/ (the benchmark engine), gate/ (the regression gate), store/ (the
results stores and reports), app/ (the CLI). Each may include its own folder, core/ and the rooms below it; app/
may include anything. The harness and the operators (core/, shaders/, ops/, gpu/, tools/, fuzz/) include none of
the rooms. Only quoted includes with a folder are checked: system headers and generated headers (no folder) are not
part of the layering.
"""
import argparse
import pathlib
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/')
ROOMS = ['bench', 'gate', 'store', 'model_import', 'app']  # bottom to top
# What each room may include: itself, core/ and the rooms below it.
ALLOWED = {room: {'core', *ROOMS[:i + 1]} for i, room in enumerate(ROOMS[:-1])}
# Folders below every room: they include none of them.
BELOW_ROOMS = ['core', 'shaders', 'ops', 'gpu', 'tools', 'fuzz']
SOURCE_SUFFIXES = {'.h', '.hpp', '.cpp', '.cc', '.inc'}


def check_file(path, folder):
    problems = []
    for number, line in enumerate(path.read_text(encoding='utf-8', errors='replace').split('\n'), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        included = m.group(1)
        if folder in ALLOWED and included not in ALLOWED[folder]:
            problems.append(f'{path}:{number}: includes {included}/, but {folder}/ may include only '
                            f'{", ".join(f + "/" for f in sorted(ALLOWED[folder]))}')
        elif folder in BELOW_ROOMS and included in ROOMS:
            problems.append(f'{path}:{number}: includes {included}/, but {folder}/ is below every room '
                            f'({", ".join(r + "/" for r in ROOMS)})')
    return problems


def check_tree(root):
    problems, files = [], 0
    for folder in [*ALLOWED, *BELOW_ROOMS]:
        for path in sorted((root / folder).rglob('*')):
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                files += 1
                problems += check_file(path, folder)
    return files, problems


def self_test():
    """Each planted include that breaks the layers is found; the allowed ones beside it are not reported."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        good = {'bench/a.h': '#include "core/status.h"\n#include "bench/b.h"\n#include <vector>\n'
                             '#include "generated.h"\n// #include "app/cli.h" in a comment is not an include\n',
                'gate/a.cpp': '#include "bench/stats.h"\n#include "gate/a.h"\n',
                'store/a.cpp': '#include "gate/compare.h"\n#include "bench/report.h"\n#include "store/a.h"\n',
                'app/a.cpp': '#include "store/a.h"\n#include "gpu/gpu_backend.h"\n#include "app/b.h"\n',
                'core/a.h': '#include "core/b.h"\n'}
        for name, text in good.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        files, found = check_tree(root)
        checked = sum(1 for name in good if not name.startswith('app/'))  # app/ may include anything
        if found or files != checked:
            print(f'self-test: allowed includes reported ({files} files): {found}')
            return 1
        planted = [('bench/a.h', '#include "app/commands.h"'), ('bench/a.h', '#include "gate/compare.h"'),
                   ('bench/a.h', '  #  include "store/results_db.h"'), ('gate/a.cpp', '#include "store/a.h"'),
                   ('gate/a.cpp', '#include "app/cli.h"'), ('store/a.cpp', '#include "app/device.h"'),
                   ('store/a.cpp', '#include "gpu/gpu_backend.h"'), ('core/a.h', '#include "bench/stats.h"'),
                   ('core/a.h', '#include "app/cli.h"')]
        for name, include in planted:
            (root / name).write_text(good[name] + include + '\n')
            _, found = check_tree(root)
            (root / name).write_text(good[name])
            if len(found) != 1 or name not in found[0]:
                print(f'self-test: planted {include} in {name} gave {found}, expected one line naming {name}')
                return 1
    print(f'self-test: all {len(planted)} planted includes were found')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    files, problems = check_tree(args.root)
    print(''.join(line + '\n' for line in problems) +
          f'check_includes: {files} files, {len(problems)} includes across the layers')
    return int(bool(problems))


if __name__ == '__main__':
    sys.exit(main())
