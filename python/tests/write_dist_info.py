"""Writes deltasplit-<version>.dist-info (METADATA, entry_points.txt) into a folder, from
pyproject.toml, so that a package assembled in a build tree is found by importlib.metadata (the
NetworkX backend registers through entry points) exactly as `pip install .` would install it.

Usage: write_dist_info.py PYPROJECT OUT_DIR
"""
import pathlib
import re
import sys


def sections(text):
    """[section] -> {key: value} for the flat key = "value" tables of pyproject.toml."""
    out, current = {}, None
    for line in text.splitlines():
        line = line.strip()
        m = re.fullmatch(r"\[(.+)\]", line)
        if m:
            current = out.setdefault(m.group(1), {})
        elif current is not None and "=" in line and not line.startswith("#"):
            key, value = (part.strip() for part in line.split("=", 1))
            current[key.strip('"')] = value.strip('"')
    return out


def main(pyproject, out_dir):
    tables = sections(pathlib.Path(pyproject).read_text())
    project = tables["project"]
    info = pathlib.Path(out_dir) / f"deltasplit-{project['version']}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: deltasplit\nVersion: {project['version']}\n")
    groups = []
    for name, entries in tables.items():
        m = re.fullmatch(r'project\.entry-points\."(.+)"', name)
        group = m.group(1) if m else "console_scripts" if name == "project.scripts" else None
        if group:
            groups.append(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))
    (info / "entry_points.txt").write_text("\n".join(groups))


if __name__ == "__main__":
    main(*sys.argv[1:])
