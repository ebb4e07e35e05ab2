#!/usr/bin/env python3
"""Every exit code is documented where a user looks: `dmltool --help`, each subcommand's --help, README.md and
docs/cli.md list 0, 1, 2, 3, 4 and 5, each with its meaning.

    check_exit_codes.py DMLTOOL ROOT
The subcommands are read from `dmltool --help`, so a new one without the list fails too. Exit 0 when every place
lists every code, 1 with one line per missing code.
"""
import re
import subprocess
import sys

CODES = ("0", "1", "2", "3", "4", "5")


def help_text(dmltool, *args):
    done = subprocess.run([dmltool, *args, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.stdout


def listed_codes(text):
    """The codes an "Exit codes" list gives a meaning: "  5  nothing was tested" lines after the heading."""
    at = text.find("Exit codes")
    if at < 0:
        return set()
    return set(re.findall(r"^\s{0,4}([0-9])\s+\S", text[at:], re.M))


def documented_codes(markdown):
    """The codes of the "Exit codes" table or list of a Markdown file: "| 5 | ..." rows or "5 nothing ..." text."""
    heading = re.search(r"^##+ .*[Ee]xit codes.*$", markdown, re.M)
    if not heading:
        return set()
    section = markdown[heading.end():heading.end() + 3000]
    return set(re.findall(r"^\|\s*([0-9])\s*\|\s*\w", section, re.M)) | set(re.findall(r"(?:^|[;,] |code )([0-9]):?\s+[a-z]", section, re.M))


def main():
    dmltool, root = sys.argv[1], sys.argv[2]
    top = help_text(dmltool)
    subcommands = re.findall(r"^\s{2}(\w+)\s{2,}\S", top.split("SUBCOMMANDS:")[-1], re.M)
    problems = []
    if len(subcommands) < 5:
        problems.append(f"dmltool --help: expected the subcommands listed, found {subcommands}")
    for name, text in [("dmltool --help", top)] + [(f"dmltool {s} --help", help_text(dmltool, s)) for s in subcommands]:
        missing = [c for c in CODES if c not in listed_codes(text)]
        if missing:
            problems.append(f"{name}: exit codes {', '.join(missing)} not listed with their meaning")
    for doc in ("README.md", "docs/cli.md"):
        missing = [c for c in CODES if c not in documented_codes(open(f"{root}/{doc}", encoding="utf-8").read())]
        if missing:
            problems.append(f"{doc}: exit codes {', '.join(missing)} not listed with their meaning")
    for p in problems:
        print(p)
    print(f"check_exit_codes: {len(subcommands)} subcommands, {len(problems)} places missing codes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
