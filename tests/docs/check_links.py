#!/usr/bin/env python3
"""Every relative link and #anchor in the project's Markdown resolves, and so does every cited repository path.

    check_links.py [--root DIR] [FILE.md ...]   # default: README.md, docs/*.md, results/README.md, gpu READMEs
    check_links.py --self-test                  # the checker finds planted broken links and paths

A link is [text](target) or ![alt](target) outside code fences and code spans. http(s)/mailto links are not
fetched (CI has no network). A target's path is resolved against the linking file's directory and must exist;
an anchor must be the GitHub slug of a heading of the target file (or an <a id/name> in it). Slugs follow
GitHub's rules: the heading's rendered text, lower-cased, every character that is not a letter, digit, space,
'-' or '_' dropped, spaces turned into '-', and a repeated slug suffixed -1, -2, ... in document order.

A cited path is plain text (prose, code spans, code blocks) that looks like a path in the repository: words joined
by '/', not part of a URL or an absolute path. Paths are relative to the repository root (README.md says so), or
to the citing file's directory. One whose first folder is a top-level entry of the repository must exist (a '*'
is a glob, {a,b} alternatives each must exist); one under a git-ignored top-level folder (build/, failures/...) is
output and is not checked; any other that ends in a file extension (`spec/case-format.md`) cites something
outside the repository and is reported. A path prefixed with a commit, `82c716f:results/h200/`, names a file that
left the tree: it must exist at that commit (checked with git when the root is a git work tree). A path with a
placeholder (`results/<name>/`) is not checked.
Exit 0 when everything resolves, 1 with one line per broken link or path (file:line: target: why).
"""
import argparse
import fnmatch
import itertools
import pathlib
import re
import subprocess
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
HEADING = re.compile(r'^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+[^>]*(?:id|name)="([^"]+)"', re.I)
# A path: at least two components joined by '/', optionally after a commit ("82c716f:"). Not preceded by what
# makes it part of a URL, an absolute or home path or a longer word, nor by a regular expression's '^' (case
# names look like paths: "^gate/resample/..."); an option value glued with '=' is checked.
PATH = re.compile(r'(?<![\w./~:@$%^-])(?:([0-9a-f]{7,40}):)?((?:\.\./)*[\w.*{},<>-]*[\w*}>-]/(?:[\w.*{},<>-]+/?)*)')
FILE_EXTENSION = re.compile(r'\.(md|py|sh|json|h5|txt|png|svg|csv|cpp|h|inc|cmake|sql|html|yaml|yml|toml)$')


def strip_code_spans(line):
    # `...` spans may hold text that only looks like a link; drop them (a span of n backticks ends at n).
    return re.sub(r'(`+)(.+?)\1', '', line)


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split('\n'), 1):
        stripped = line.lstrip()
        marker = re.match(r'(`{3,}|~{3,})', stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * len(marker.group(1))
                continue
            if stripped.startswith(fence):
                fence = None
                continue
        if fence is None:
            yield number, line


def slug(heading_text):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading_text)   # a link renders as its text
    text = re.sub(r'<[^>]+>', '', text)                               # inline HTML renders as nothing
    text = text.strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line in prose_lines(path.read_text(encoding='utf-8')):
            found.update(HTML_ANCHOR.findall(line))
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f'{base}-{n}')
        cache[path] = found
    return cache[path]


class Repository:
    """What a cited path is checked against: the tree under root, its git-ignored top-level folders, its history."""

    def __init__(self, root):
        self.root = root.resolve()
        self.top_level = {p.name for p in self.root.iterdir()}
        self.ignored = ['.git', 'build', 'build-*', 'failures']
        gitignore = self.root / '.gitignore'
        if gitignore.exists():
            for line in gitignore.read_text().split('\n'):
                line = line.strip().strip('/')
                if line and not line.startswith('#') and '/' not in line:
                    self.ignored.append(line)
        self.is_git = (self.root / '.git').exists()

    def is_ignored(self, first):
        return any(fnmatch.fnmatch(first, pattern) for pattern in self.ignored)

    def exists_at(self, commit, relative):
        if not self.is_git:
            return True  # no history to ask (an exported tree): not checkable, not reported
        done = subprocess.run(['git', '-C', str(self.root), 'cat-file', '-e', f'{commit}:{relative.rstrip("/")}'],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return done.returncode == 0


def expand_braces(text):
    """'a/{b,c}.txt' -> ['a/b.txt', 'a/c.txt'] (one level per group, as the shell does)."""
    parts = re.split(r'\{([^{}]*)\}', text)
    choices = [[p] if i % 2 == 0 else p.split(',') for i, p in enumerate(parts)]
    return [''.join(c) for c in itertools.product(*choices)]


def path_problem(path, repo, commit, cited):
    """Why the cited path does not resolve, or None."""
    if '<' in cited or '>' in cited or cited.startswith('./'):
        return None  # a placeholder, or a path the text builds
    cited = cited.rstrip('.,;')
    first = cited.split('/')[0]
    if commit:
        return None if repo.exists_at(commit, cited) else f'not in commit {commit}'
    if first.startswith('..'):
        resolved = (path.parent / cited).resolve()
        if not resolved.is_relative_to(repo.root):
            return 'a path outside the repository'
        return None if resolved.exists() else 'no such file or directory'
    if repo.is_ignored(first):
        return None  # build output, not committed
    in_repo = first in repo.top_level
    if not in_repo and not (path.parent / first).exists() and not FILE_EXTENSION.search(cited):
        return None  # not a repository path: 'sizes/strides', 'int8/uint8'
    for each in expand_braces(cited):
        bases = [repo.root, path.parent]
        if not any(list(base.glob(each.rstrip('/'))) if '*' in each else (base / each).exists() for base in bases):
            return 'no such file or directory' if in_repo else 'cites a path that is not in the repository'
    return None


def quotes_a_message(span):
    # dmltool's messages quoted as examples name files that need not exist (`cases/x.json: ... expected ...`).
    return 'error:' in span or ' expected ' in span


def lines_outside_json_blocks(text):
    """(line number, line), skipping ```json blocks: they quote case files, whose paths are relative to the case."""
    in_json = False
    for number, line in enumerate(text.split('\n'), 1):
        stripped = line.strip()
        if not in_json and re.match(r'(`{3,}|~{3,})\s*json\b', stripped):
            in_json = True
        elif in_json and re.match(r'(`{3,}|~{3,})\s*$', stripped):
            in_json = False
        elif not in_json:
            yield number, line


def check_paths(path, repo):
    problems = []
    for number, line in lines_outside_json_blocks(path.read_text(encoding='utf-8')):
        text = LINK.sub(lambda m: m.group(0).split('](')[0] + ' ', line)  # a link's target is check_file's job
        text = re.sub(r'(`+)(.+?)\1', lambda m: ' ' if quotes_a_message(m.group(2)) else m.group(0), text)
        for commit, cited in PATH.findall(text):
            why = path_problem(path, repo, commit, cited)
            if why:
                problems.append(f'{path}:{number}: {commit + ":" if commit else ""}{cited}: {why}')
    return problems


def check_file(path, repo=None):
    problems = check_paths(path, repo) if repo else []
    for number, line in prose_lines(path.read_text(encoding='utf-8')):
        for target in LINK.findall(strip_code_spans(line)):
            if not target or re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                continue  # external (https:, mailto:): not fetched
            file_part, _, anchor = target.partition('#')
            dest = (path.parent / file_part).resolve() if file_part else path.resolve()
            where = f'{path}:{number}: {target}'
            if not dest.exists():
                problems.append(f'{where}: no such file or directory {dest}')
            elif anchor and dest.suffix.lower() == '.md' and anchor not in anchors(dest):
                problems.append(f'{where}: {dest.name} has no heading with the anchor #{anchor}')
            elif anchor and dest.is_dir():
                problems.append(f'{where}: an anchor on a directory')
    return problems


def default_files(root):
    files = [root / 'README.md'] + sorted((root / 'docs').glob('*.md')) + [root / 'results' / 'README.md',
                                                                         root / 'gpu' / 'README.md',
                                                                         root / 'gpu' / 'directml' / 'README.md']
    return [f for f in files if f.exists()]


def self_test():
    """The checker must fail on each kind of planted break and pass the good links beside them."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'docs').mkdir()
        (root / 'docs' / 'a.md').write_text(
            '# Title\n\n## Usage (`dmltool run`)\n\n## Usage (`dmltool run`)\n\n```sh\n[in code](nowhere.md)\n```\n'
            '<a id="custom"></a>\n')
        good = ('[a](docs/a.md) [b](docs/a.md#usage-dmltool-run) [c](docs/a.md#usage-dmltool-run-1) '
                '[d](docs/) [e](#top) [f](docs/a.md#custom) [g](https://example.com/x#y) `[h](nowhere.md)`\n\n# Top\n')
        (root / 'README.md').write_text(good)
        if check_file(root / 'README.md') or check_file(root / 'docs' / 'a.md'):
            print('self-test: good links reported broken:', check_file(root / 'README.md'))
            return 1
        planted = {'[x](docs/missing.md)': 'no such file', '[x](docs/a.md#usage)': 'no heading',
                   '[x](#nope)': 'no heading', '[x](docs/a.md#usage-dmltool-run-2)': 'no heading',
                   '![x](img/missing.png)': 'no such file', '[x](docs/#a)': 'directory'}
        for link, why in planted.items():
            (root / 'README.md').write_text(good + link + '\n')
            found = check_file(root / 'README.md')
            if len(found) != 1 or why not in found[0]:
                print(f'self-test: planted {link} gave {found}, expected one line with "{why}"')
                return 1
        # Cited plain-text paths: good ones beside each kind of planted break.
        (root / '.gitignore').write_text('/build/\n')
        repo = Repository(root)
        good_paths = ('Run `build/app/dmltool` on docs/a.md and `docs/*.md`; see `docs/{a,a}.md`, docs/, '
                      '`results/<name>/`, sizes/strides, and the message `x/y.json: expected 1, found 2`.\n'
                      '```json\n{"hdf5": "data/x.h5"}\n```\n')
        (root / 'README.md').write_text(good_paths)
        if check_file(root / 'README.md', repo):
            print('self-test: good paths reported broken:', check_file(root / 'README.md', repo))
            return 1
        planted = {'the contract is `spec/case-format.md`': 'not in the repository',
                   'see docs/missing.md': 'no such file', '`docs/*.txt`': 'no such file',
                   '`docs/{a,b}.md`': 'no such file', 'see ../../elsewhere/FINDINGS.md': 'outside the repository',
                   '```sh\nscripts/nowhere.sh\n```': 'not in the repository'}
        for text, why in planted.items():
            (root / 'README.md').write_text(good_paths + text + '\n')
            found = check_file(root / 'README.md', repo)
            if len(found) != 1 or why not in found[0]:
                print(f'self-test: planted {text} gave {found}, expected one line with "{why}"')
                return 1
    print('self-test: every planted broken link and path was found')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument('--self-test', action='store_true')
    parser.add_argument('files', nargs='*', type=pathlib.Path)
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    files = args.files or default_files(args.root)
    repo = Repository(args.root)
    problems = [p for f in files for p in check_file(f, repo)]
    for p in problems:
        print(p)
    print(f'check_links: {len(files)} files, {len(problems)} broken links or cited paths')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
