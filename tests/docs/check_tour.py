#!/usr/bin/env python3
"""The README's five-minute tour leaves nothing in the repository.

    check_tour.py [--root DIR]                     # every file the tour's commands write is outside the tree
    check_tour.py [--root DIR] --run DMLTOOL       # ... and its quick commands, run in a scratch clone,
                                                   #     leave `git status` clean there
    check_tour.py --self-test                      # the checks fail on a tour that writes into the tree

The tour is the ```sh blocks of README.md's "A five-minute tour" section. A command's outputs are its shell
redirections (`>`, `>>`), the values of dmltool's writing options (--json, --junit, --report-json, --report-csv,
--results-db, --html, --output, --tuning-cache) and `generate`'s output folder. Each must be absolute under /tmp,
or relative (to the repository root, where the tour runs) inside a git-ignored top-level folder (.gitignore).

With --run, the tour's commands run in a clone of the repository (`git clone --shared`, a couple of seconds) with
`build/app/dmltool` replaced by DMLTOOL and /tmp by a scratch folder; `bench` (its roofline probes take tens of
seconds on lavapipe), the commands that read bench's outputs (`compare`, `history`) and scripts/ (whole builds)
are left out: the output check above covers their paths. `run` gets `--backend cpu` where it names no backend:
what it writes does not depend on the backend, and the suite on lavapipe takes minutes on a loaded 2-core CI
machine (the device tests run it there). Then `git status --porcelain` in the clone must be empty.
Exit 0 when the tour is clean, 1 with one line per file it leaves in the tree.
"""
import argparse
import fnmatch
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

WRITING_OPTIONS = {'--json', '--junit', '--report-json', '--report-csv', '--results-db', '--html', '--output',
                   '--tuning-cache'}
SLOW_OR_DEPENDENT = {'bench', 'compare', 'history'}


def tour_commands(readme_text):
    """(line number, command text) of each shell command in the tour, continuation lines joined, heredocs kept."""
    section = re.search(r'^## A five-minute tour\n(.*?)(?=^## )', readme_text, re.S | re.M)
    if not section:
        return []
    first_line = readme_text[:section.start(1)].count('\n') + 1
    lines = section.group(1).split('\n')
    commands, in_sh, index = [], False, 0
    while index < len(lines):
        line, number = lines[index], first_line + index
        index += 1
        if re.match(r'\s*```sh\s*$', line):
            in_sh = True
            continue
        if in_sh and re.match(r'\s*```\s*$', line):
            in_sh = False
            continue
        if not in_sh or not line.strip():
            continue
        text = line
        while text.endswith('\\') and index < len(lines):
            text = text[:-1] + ' ' + lines[index].strip()
            index += 1
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", text)
        if heredoc:
            body = []
            while index < len(lines) and lines[index].strip() != heredoc.group(1):
                body.append(lines[index])
                index += 1
            index += 1
            text = text + '\n' + '\n'.join(body) + '\n' + heredoc.group(1)
        commands.append((number, text))
    return commands


def command_words(command):
    return shlex.split(command.split('\n')[0], comments=True)


def outputs(command):
    """The paths a command writes."""
    words = command_words(command)
    found = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else None
        if word in ('>', '>>') and following:
            found.append(following)
        elif word.startswith('>') and len(word) > 1 and not word.startswith('>>'):
            found.append(word[1:])
        elif word in WRITING_OPTIONS and following:
            found.append(following)
        elif '=' in word and word.split('=', 1)[0] in WRITING_OPTIONS:
            found.append(word.split('=', 1)[1])
    if len(words) > 1 and words[0].endswith('dmltool') and words[1] == 'generate':
        positional = [w for w in words[2:] if not w.startswith('-')]
        # generate's options take values: the output folder is the last positional word.
        if positional:
            found.append(positional[-1])
    return found


def ignored_patterns(root):
    patterns = ['.git']
    gitignore = root / '.gitignore'
    if gitignore.exists():
        for line in gitignore.read_text().split('\n'):
            line = line.strip()
            if line and not line.startswith('#'):
                patterns.append(line.strip('/'))
    return patterns


def leaves_in_tree(path, patterns):
    if path.startswith('/'):
        return not (path == '/tmp' or path.startswith('/tmp/'))  # elsewhere outside: not allowed either
    first = pathlib.PurePosixPath(path).parts[0]
    return not any(fnmatch.fnmatch(first, p) for p in patterns if '/' not in p)


def check_outputs(root):
    readme = root / 'README.md'
    commands = tour_commands(readme.read_text(encoding='utf-8'))
    if not commands:
        return [f'{readme}: no "## A five-minute tour" section with ```sh blocks']
    patterns = ignored_patterns(root)
    problems = []
    for number, command in commands:
        for path in outputs(command):
            if leaves_in_tree(path, patterns):
                problems.append(f'{readme}:{number}: the tour writes {path} into the repository tree '
                                '(not under /tmp or a git-ignored folder)')
    return problems


def run_tour(root, dmltool, scratch):
    """Runs the quick tour commands in a clone; returns what `git status --porcelain` lists there."""
    clone = scratch / 'clone'
    subprocess.run(['git', 'clone', '--quiet', '--shared', str(root), str(clone)], check=True)
    temp = scratch / 'tmp'
    temp.mkdir()
    problems = []
    for number, command in tour_commands((root / 'README.md').read_text(encoding='utf-8')):
        words = command_words(command)
        if not words or words[0].startswith('scripts/') or (len(words) > 1 and words[1] in SLOW_OR_DEPENDENT):
            continue
        # /tmp first: the tool's own path may lie under /tmp (a clean clone checked there) and must stay as it is.
        text = command.replace('/tmp', str(temp)).replace('build/app/dmltool', shlex.quote(str(dmltool)))
        if len(words) > 1 and words[1] == 'run' and '--backend' not in words:
            first, _, rest = text.partition('\n')
            text = first.split(' #')[0] + ' --backend cpu' + ('\n' + rest if rest else '')
        try:
            done = subprocess.run(['bash', '-c', text], cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=120)
        except subprocess.TimeoutExpired:
            problems.append(f'README.md:{number}: {" ".join(words[:3])}... did not finish in 120 s')
            continue
        if done.returncode not in (0, 3):  # 3: no device here; the command still ran up to it
            problems.append(f'README.md:{number}: {words[0]} {" ".join(words[1:3])}... exited '
                            f'{done.returncode}: {done.stdout.strip()[-300:]}')
    status = subprocess.run(['git', 'status', '--porcelain', '--untracked-files=all'], cwd=clone,
                            stdout=subprocess.PIPE, text=True, check=True).stdout.split('\n')
    problems += [f'the tour left this in the tree: {line}' for line in status if line.strip()]
    return problems


def self_test():
    """A tour writing into the tree must fail the output check; the clean forms beside it must pass."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / '.gitignore').write_text('/build/\n/build-*/\n')
        clean = ('mkdir -p build/tour\n'
                 'build/app/dmltool run cases/*.json --json build/tour/r.json --junit /tmp/r.xml\n'
                 'build/app/dmltool schema > /tmp/s.json\n'
                 "cat > /tmp/case.json <<'JSON'\n{\"name\": \"x\"}\nJSON\n"
                 'build/app/dmltool bench x.json --report-json build-x/b.json \\\n    --results-db build/tour/r.sqlite\n')
        def readme(block):
            return f'# T\n\n## A five-minute tour\n\n```sh\n{block}```\n\n## Next\n'
        (root / 'README.md').write_text(readme(clean))
        if check_outputs(root):
            print('self-test: a clean tour was reported:', check_outputs(root))
            return 1
        planted = ['build/app/dmltool run a.json --json report.json\n',
                   'build/app/dmltool bench a.json \\\n    --results-db results.sqlite\n',
                   'build/app/dmltool compare a.json b.json --output=cmp.md\n',
                   'build/app/dmltool schema > schema.json\n',
                   'build/app/dmltool generate --count 3 --seed 7 gen/\n',
                   'build/app/dmltool report a.json --html /home/x/r.html\n']
        for plant in planted:
            (root / 'README.md').write_text(readme(clean + plant))
            found = check_outputs(root)
            if len(found) != 1:
                print(f'self-test: planted {plant.strip()!r} gave {found}, expected one line')
                return 1
    print('self-test: every planted in-tree output was found')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument('--run', type=pathlib.Path, metavar='DMLTOOL')
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    problems = check_outputs(args.root)
    if args.run and not problems:
        if not (args.root / '.git').exists() or not shutil.which('git'):
            print('check_tour: not a git work tree: the commands are not run (the output check passed)')
        else:
            with tempfile.TemporaryDirectory(prefix='dmltool-tour-') as scratch:
                problems += run_tour(args.root.resolve(), args.run.resolve(), pathlib.Path(scratch))
    for p in problems:
        print(p)
    print(f'check_tour: {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
