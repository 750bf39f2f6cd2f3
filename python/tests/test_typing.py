"""The package's type information: py.typed and the extension's stub _core.pyi ship beside the
modules, and the stub names every attribute of the extension and of its Graph (so that mypy and
pyright see the whole API)."""
import ast
import pathlib

import deltasplit
from deltasplit import _core

PACKAGE = pathlib.Path(deltasplit.__file__).parent


def stub_names(tree):
    """Top-level names of a stub, and the members of its class Graph."""
    top, graph = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef) and node.name == "Graph":
            graph = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, graph


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_marker_and_stub_ship_with_the_package():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_core.pyi").is_file()


def test_stub_covers_the_extension():
    top, graph = stub_names(ast.parse((PACKAGE / "_core.pyi").read_text()))
    assert public(dir(_core)) <= top
    assert public(dir(_core.Graph)) <= graph
