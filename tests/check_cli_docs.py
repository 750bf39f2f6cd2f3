#!/usr/bin/env python3
"""Keeps docs/cli.md true to the program: the CLI reference cannot drift from `--help`.

Runs `deltasplit --help` for the list of sub-commands and `deltasplit COMMAND --help` for each;
every option a help lists must appear in the reference's table for that command, and every option
a table lists must exist in that command's help. docs/cli.md holds one section per command, headed
"## `deltasplit COMMAND ...`", whose option table rows start with "| `--option" (several options
of one row are separated by commas: "| `--source V`, `-s`").

Prints one line per difference, naming docs/cli.md's line where there is one, and exits 1 when
there is any, 0 otherwise.

Usage: check_cli_docs.py DELTASPLIT_PROGRAM [docs/cli.md]
"""

import pathlib
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def run_help(program, *args):
    done = subprocess.run([program, *args, "--help"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        sys.exit(f"{program} {' '.join(args)} --help exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def commands_of(top_help):
    """The sub-commands listed under "commands:" in `deltasplit --help`."""
    names, inside = [], False
    for row in top_help.splitlines():
        if row.strip() == "commands:":
            inside = True
        elif inside and not row.strip():
            break
        elif inside:
            names.append(row.split()[0])
    if not names:
        sys.exit("deltasplit --help lists no commands (expected a 'commands:' section)")
    return names


def options_of(command_help):
    """Options of a Boost.Program_options help: each row's option column, before its description."""
    found = set()
    for row in command_help.splitlines():
        if not row.startswith("  -"):  # an option row; its continuation rows are indented further
            continue
        column = re.split(r"\s{2,}", row.strip())[0]
        found.update(OPTION.findall(column))
    return found


def documented(reference):
    """{command: {option: line number}} from the option tables of docs/cli.md."""
    tables, command = {}, None
    for number, row in enumerate(reference.splitlines(), 1):
        heading = re.match(r"##\s+`deltasplit (\w+)", row)
        if heading:
            command = heading.group(1)
            tables.setdefault(command, {})
        elif row.startswith("## "):
            command = None
        elif command and row.startswith("| `-"):
            cell = row.split("|")[1]
            for option in OPTION.findall(" ".join(re.findall(r"`([^`]*)`", cell))):
                tables[command][option] = number
    return tables


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    program = sys.argv[1]
    path = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else
                        pathlib.Path(__file__).resolve().parent.parent / "docs" / "cli.md")
    tables = documented(path.read_text(encoding="utf-8"))
    problems = []
    commands = commands_of(run_help(program))
    for command in commands:
        listed = options_of(run_help(program, command))
        if command not in tables:
            problems.append(f"{path}: no section '## `deltasplit {command} ...`' for the command "
                            f"'{command}' (its options: {' '.join(sorted(listed))})")
            continue
        table = tables[command]
        for option in sorted(listed - table.keys()):
            problems.append(f"{path}: `deltasplit {command} --help` lists {option}, "
                            f"the reference's table for {command} does not")
        for option in sorted(table.keys() - listed):
            problems.append(f"{path}:{table[option]}: {option} is documented for {command}, "
                            f"but `deltasplit {command} --help` has no such option")
    for command in sorted(tables.keys() - set(commands)):
        problems.append(f"{path}: a section documents 'deltasplit {command}', "
                        "which `deltasplit --help` does not list")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
