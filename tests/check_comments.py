#!/usr/bin/env python3
"""Keeps the code's comments statements of invariants and choices, not a lab notebook.

Scans the comments of src/, graph/, multisplit/ and python/ (C++ and CUDA `//` and `/* */`,
CMake and Python `#`, Python docstrings) and the README.md files in those folders (every line:
they may cite results only by linking bench/) for
  - commit ids: a word of 7 to 40 hex digits holding both a digit and a letter,
  - GPU card names (H100, H200, B200, A100, ...),
  - measurements: a number with a unit of time or of throughput, a speed-up ("2.5x faster"), a
    percentage,
  - session history: "session", "review mend", "issue N", and dates of measurements (2026-11).
Measurements live in bench/results/*.md, linked from the constant they chose.

A hit that is no such thing is listed in tests/check_comments_allow.txt as `path:text`, where text
is a fragment of the offending line (so the entry survives lines moving); each entry says why.
Prints path:line: what for every violation and exits 1 when there is one, 0 otherwise.

Usage: check_comments.py [REPOSITORY_ROOT]
"""

import ast
import io
import pathlib
import re
import sys
import tokenize

FOLDERS = ("src", "graph", "multisplit", "python")
CPP_SUFFIXES = {".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp", ".in"}
HASH_SUFFIXES = {".cmake", ".txt", ".sh"}

RULES = (
    ("commit id", re.compile(r"(?<![0-9A-Za-z_.#/-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z_])")),
    ("card name", re.compile(r"\b(?:[ABHLV]\d{2,3}|GH\d{3}|GB\d{3}|RTX ?\d{4}|Tesla|Quadro|GeForce)\b")),
    ("measurement", re.compile(r"\b\d[\d,.]*\s?(?:ms|us|µs|ns|s|sec|secs|seconds?|minutes?|hours?)\b"
                          r"|\b\d[\d,.]*(?:-\d[\d,.]*)?\s?x (?:faster|slower|as fast|the)\b"
                          r"|\b\d[\d,.]*\s?%"
                          r"|\b\d[\d,.]*\s?(?:[KMGT]i?B/s|[KMG]?(?:keys|pairs|items|samples)/s|MTEPS|"
                          r"(?:sources|distances)/s)")),
    ("session history", re.compile(r"\bsessions?\b|\breview mend|\bissue \d+", re.I)),
    ("date", re.compile(r"\b20\d\d-[01]\d\b")),
)


def cpp_comments(text):
    """(line number, comment text) for every // and /* */ comment, skipping string literals."""
    out = []
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i + 2:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for k, part in enumerate(text[i + 2:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end + 2
        elif c == '"' or c == "'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):
                i += 1  # a digit separator (1'000) or a suffix, not a character literal
                continue
            if c == '"' and i > 0 and text[i - 1] == "R" and text.find("(", i) > 0:
                delim = text[i + 1:text.find("(", i)]
                end = text.find(")" + delim + '"', i)
                end = n if end < 0 else end + len(delim) + 2
            else:
                end = i + 1
                while end < n and text[end] != c and text[end] != "\n":
                    end += 2 if text[end] == "\\" else 1
                end += 1
            line += text.count("\n", i, end)
            i = end
        else:
            i += 1
    return out


def hash_comments(text):
    out = []
    for number, row in enumerate(text.split("\n"), 1):
        position = row.find("#")
        if position >= 0:
            out.append((number, row[position + 1:]))
    return out


def python_comments(text):
    out = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            out.append((token.start[0], token.string[1:]))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                first = body[0].lineno
                for k, part in enumerate(body[0].value.value.split("\n")):
                    out.append((first + k, part))
    return out


def comments_of(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.name == "README.md":
        return list(enumerate(text.split("\n"), 1))
    if path.suffix == ".py":
        return python_comments(text)
    if path.suffix in CPP_SUFFIXES and path.name != "CMakeLists.txt":
        return cpp_comments(text)
    if path.name == "CMakeLists.txt" or path.suffix in HASH_SUFFIXES:
        return hash_comments(text)
    return []


def read_allow_list(path):
    allowed = []
    for row in path.read_text(encoding="utf-8").split("\n"):
        row = row.strip()
        if row and not row.startswith("#"):
            where, _, fragment = row.partition(":")
            allowed.append((where, fragment.split("  #")[0].strip()))
    return allowed


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    allowed = read_allow_list(root / "tests" / "check_comments_allow.txt")
    used = set()
    violations = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(root).as_posix()
            for number, comment in comments_of(path):
                for what, pattern in RULES:
                    match = pattern.search(comment)
                    if not match:
                        continue
                    hit = [k for k, (where, fragment) in enumerate(allowed)
                           if where == relative and fragment in comment]
                    if hit:
                        used.update(hit)
                        continue
                    print(f"{relative}:{number}: {what} '{match.group(0)}' in a comment: "
                          f"{comment.strip()}")
                    violations += 1
    for k, (where, fragment) in enumerate(allowed):
        if k not in used:
            print(f"tests/check_comments_allow.txt: entry '{where}:{fragment}' matches nothing; remove it")
            violations += 1
    if violations:
        print(f"{violations} violation(s). Move measurements to bench/results/*.md and link them; "
              "see tests/check_comments.py.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
