#!/usr/bin/env python3
"""Every relative link and #anchor in the project's Markdown resolves.

    check_links.py [--root DIR] [FILE.md ...]   # default: README.md, docs/*.md, results/README.md
    check_links.py --self-test                  # the checker finds planted broken links

A link is [text](target) or ![alt](target) outside code fences and code spans. http(s)/mailto links are not
fetched (CI has no network). A target's path is resolved against the linking file's directory and must exist;
an anchor must be the GitHub slug of a heading of the target file (or an <a id/name> in it). Slugs follow
GitHub's rules: the heading's rendered text, lower-cased, every character that is not a letter, digit, space,
'-' or '_' dropped, spaces turned into '-', and a repeated slug suffixed -1, -2, ... in document order.
Exit 0 when everything resolves, 1 with one line per broken link (file:line: target: why).
"""
import argparse
import pathlib
import re
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
HEADING = re.compile(r'^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+[^>]*(?:id|name)="([^"]+)"', re.I)


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


def check_file(path):
    problems = []
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
    files = [root / 'README.md'] + sorted((root / 'docs').glob('*.md')) + [root / 'results' / 'README.md']
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
    print('self-test: every planted broken link was found')
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
    problems = [p for f in files for p in check_file(f)]
    for p in problems:
        print(p)
    print(f'check_links: {len(files)} files, {len(problems)} broken links')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
