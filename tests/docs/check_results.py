#!/usr/bin/env python3
"""The measured results the README and results/README.md present read true.

    check_results.py [--root DIR]      # the checks below on the repository
    check_results.py --self-test       # each check fails on a planted untrue statement

1. results/README.md's "latest full run per device" table: each row names a clean commit (no "-dirty": a binary
   with uncommitted changes says which commit holds its code instead), and a correctness count "A/B" is today's
   suite (B = the cases in cases/*.json) or says which suite it was ("the B-case suite").
2. Each summary.md that table or the README links: one GPU target count ("GPU targets: N of M met"), a link to
   the one definition (docs/benchmarks.md#speed-targets), and, where its data is kept beside it (bench.json,
   pytorch.json, report.json), exactly what scripts/gpu_machine/compare.py prints from that data today.
3. The README's figure (a bench.png beside a summary.md) was drawn by today's scripts/plot_bench.py from the same
   run: its PNG description states every target drawn and the same "N of M met" as the summary.
4. The README's timing claims of the suite ("N cases in T s") cite, on the same line, a file in results/ that
   holds exactly that text, and N is today's suite or the line says which suite it was ("the N-case suite").
Exit 0 when all hold, 1 with one line per untrue statement.
"""
import argparse
import glob
import json
import pathlib
import re
import struct
import subprocess
import sys
import tempfile

LINK = re.compile(r'\]\(([^)\s#]+)(?:#[^)]*)?\)')
COUNT = re.compile(r'GPU targets: (\d+) of (\d+) met')
CLAIM = re.compile(r'(\d+) cases in ([\d.]+) s')


def suite_size(root):
    total = 0
    for path in sorted(glob.glob(str(root / 'cases' / '*.json'))):
        document = json.load(open(path))
        total += len(document['cases']) if 'cases' in document else 1
    return total


def latest_rows(results_readme):
    """(line number, cells) of the 'latest full run per device' table."""
    rows, inside = [], False
    for number, line in enumerate(results_readme.read_text(encoding='utf-8').split('\n'), 1):
        if line.startswith('## '):
            inside = 'latest' in line.lower()
            continue
        if inside and line.startswith('|') and not re.match(r'\|\s*-', line) and not line.startswith('| device'):
            rows.append((number, [cell.strip() for cell in line.strip('|').split('|')]))
    return rows


def check_latest_table(root, suite):
    readme = root / 'results' / 'README.md'
    problems, summaries = [], []
    rows = latest_rows(readme)
    if not rows:
        return [f'{readme}: no "latest full run per device" table'], []
    for number, cells in rows:
        where = f'{readme}:{number}'
        if len(cells) < 4:
            problems.append(f'{where}: expected 4 cells (device, run, date and commit, what it shows), found {len(cells)}')
            continue
        if '-dirty' in cells[2]:
            problems.append(f'{where}: the commit cell names a dirty build ({cells[2]}); name the commit that '
                            'holds the code the binary was built from')
        for passed, total in re.findall(r'\b(\d{3,})/(\d{3,})\b', cells[3]):
            if int(total) != suite and f'{total}-case suite' not in cells[3]:
                problems.append(f'{where}: {passed}/{total} is not today\'s {suite}-case suite and the row does '
                                f'not say which suite it was ("the {total}-case suite")')
        summaries += [readme.parent / target for target in LINK.findall(cells[1]) if target.endswith('summary.md')]
    return problems, summaries


def regenerated_summary(root, folder):
    data = [folder / name for name in ('bench.json', 'pytorch.json', 'report.json')]
    if not all(path.exists() for path in data):
        return None
    done = subprocess.run([sys.executable, str(root / 'scripts' / 'gpu_machine' / 'compare.py'), str(data[0]),
                           str(data[1]), '--report', str(data[2])], stdout=subprocess.PIPE, text=True, check=True)
    return done.stdout


def check_summary(root, summary):
    if not summary.exists():
        return [f'{summary}: no such file'], None
    text = summary.read_text(encoding='utf-8')
    problems = []
    counts = COUNT.findall(text) + re.findall(r'(?<!of )(?<!\d)(\d+) met, (\d+) missed', text)  # old style too
    if len(counts) != 1:
        problems.append(f'{summary}: expected one GPU target count ("GPU targets: N of M met"), found {len(counts)}')
    if 'benchmarks.md#speed-targets' not in text:
        problems.append(f'{summary}: no link to the definition of the targets (docs/benchmarks.md#speed-targets)')
    fresh = regenerated_summary(root, summary.parent)
    if fresh is not None and fresh != text:
        problems.append(f'{summary}: differs from what scripts/gpu_machine/compare.py prints from the data beside it '
                        f'(regenerate: compare.py bench.json pytorch.json --report report.json > summary.md)')
    found = COUNT.search(text)
    return problems, (found.group(1), found.group(2)) if found else None


def png_description(path):
    data = path.read_bytes()
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack('>I4s', data[at:at + 8])
        if kind == b'tEXt':
            key, _, value = data[at + 8:at + 8 + length].partition(b'\0')
            if key == b'Description':
                return value.decode('latin-1')
        at += 12 + length
    return None


def check_figure(root, counts):
    readme = root / 'README.md'
    problems = []
    for image in re.findall(r'!\[[^\]]*\]\(([^)\s]+\.png)\)', readme.read_text(encoding='utf-8')):
        path = root / image
        description = png_description(path) if path.exists() else None
        if description is None:
            problems.append(f'{readme}: figure {image} has no description from scripts/plot_bench.py (re-render it '
                            'from its run\'s report.json and pytorch.json)')
            continue
        drawn = re.search(r'targets drawn: (\d+) of (\d+)', description)
        if not drawn or drawn.group(1) != drawn.group(2):
            problems.append(f'{readme}: figure {image}: not every target is drawn ({description})')
        met = re.search(r'speed targets: (\d+) of (\d+) met', description)
        summary_count = counts.get(path.parent / 'summary.md')
        if summary_count and (not met or met.groups() != summary_count):
            problems.append(f'{readme}: figure {image} says "{met.group(0) if met else "no count"}", its summary.md '
                            f'{summary_count[0]} of {summary_count[1]} met')
    return problems


def check_claims(root, suite):
    readme = root / 'README.md'
    problems = []
    for number, line in enumerate(readme.read_text(encoding='utf-8').split('\n'), 1):
        for claim in CLAIM.finditer(line):
            where = f'{readme}:{number}'
            if int(claim.group(1)) != suite and f'{claim.group(1)}-case suite' not in line:
                problems.append(f'{where}: "{claim.group(0)}" is not today\'s {suite}-case suite')
            cited = [root / p for p in re.findall(r'results/[\w./-]+\.txt', line)]
            if not any(p.exists() and claim.group(0) in p.read_text(encoding='utf-8') for p in cited):
                problems.append(f'{where}: "{claim.group(0)}" cites no file in results/ that holds that measurement')
    return problems


def check(root):
    suite = suite_size(root)
    problems, summaries = check_latest_table(root, suite)
    counts = {}
    for summary in sorted(set(summaries)):
        found, count = check_summary(root, summary)
        problems += found
        counts[summary] = count
    return problems + check_figure(root, counts) + check_claims(root, suite)


def self_test():
    """A tree where everything reads true passes; each planted untruth is found."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'cases').mkdir()
        (root / 'cases' / 'a.json').write_text(json.dumps({'cases': [{}] * 120}))
        run = root / 'results' / 'gpu_run'
        run.mkdir(parents=True)
        (run / 'summary.md').write_text('x\n\nGPU targets: 2 of 3 met, 1 missed ([Speed targets]'
                                        '(../../docs/benchmarks.md#speed-targets)).\n')
        (root / 'results' / 'suite.txt').write_text('dmltool: 120 cases in 1.5 s: 120 passed\n')
        table = ('# R\n\n## The latest full run per device\n\n| device | run | date, commit | what it shows |\n'
                 '|---|---|---|---|\n| GPU | [gpu_run/](gpu_run/) ([table](gpu_run/summary.md)) | 2026-11-28, '
                 'abc1234 | 120/120; 2 of 3 met |\n| old | [x](x) | 2026-11-20, abc1235 | 100/100 (the 100-case suite) |\n')
        def png(description):  # the chunks png_description reads (CRCs are not checked)
            text = b'Description\0' + description.encode()
            return b'\x89PNG\r\n\x1a\n' + struct.pack('>I4s', len(text), b'tEXt') + text + b'\0' * 4
        (run / 'bench.png').write_bytes(png('speed targets: 2 of 3 met; targets drawn: 3 of 3; above 100%: none'))
        readme = '# T\n\n![figure](results/gpu_run/bench.png)\n\n```sh\nrun cases/*.json   # dmltool: 120 cases in 1.5 s: 120 passed (results/suite.txt)\n```\n'
        def write(table_text, readme_text):
            (root / 'results' / 'README.md').write_text(table_text)
            (root / 'README.md').write_text(readme_text)
        write(table, readme)
        if check(root):
            print('self-test: a true tree was reported:', check(root))
            return 1
        planted = {
            'dirty build': (table.replace('abc1234', 'abc1234-dirty'), readme),
            "today's 120-case suite and the row": (table.replace('120/120;', '118/118;'), readme),
            'holds that measurement': (table, readme.replace('1.5 s', '1.2 s')),
            "today's 120-case suite": (table, readme.replace('120 cases in', '118 cases in')),
        }
        for why, (table_text, readme_text) in planted.items():
            write(table_text, readme_text)
            found = check(root)
            if not any(why in line for line in found):
                print(f'self-test: a planted untruth gave {found}, expected a line with "{why}"')
                return 1
        write(table, readme)
        for why, description in {'not every target': 'speed targets: 2 of 3 met; targets drawn: 2 of 3',
                                 'its summary.md': 'speed targets: 3 of 3 met; targets drawn: 3 of 3',
                                 'no description': None}.items():
            (run / 'bench.png').write_bytes(png(description) if description else b'\x89PNG\r\n\x1a\n')
            found = check(root)
            if not any(why in line for line in found):
                print(f'self-test: a planted figure gave {found}, expected a line with "{why}"')
                return 1
        (run / 'bench.png').write_bytes(png('speed targets: 2 of 3 met; targets drawn: 3 of 3; above 100%: none'))
        (run / 'summary.md').write_text('GPU targets: 29 met, 9 missed. Against the run\'s single copy probe: '
                                        '28 met, 10 missed.\n')
        found = check(root)
        if len(found) != 2:  # two counts, and no link to the definition
            print(f'self-test: a summary with two counts and no link gave {found}, expected two lines')
            return 1
    print('self-test: every planted untrue statement was found')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    problems = check(args.root.resolve())
    for p in problems:
        print(p)
    print(f'check_results: {len(problems)} untrue statements')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
