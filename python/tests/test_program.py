"""deltasplit._program: finding the deltasplit program installed with the package and running it.

The tests that run the real program skip where this installation has none (a wheel built without
Boost.Program_options, a build tree without the CLI)."""
import os
import stat
import subprocess
import sys

import pytest

from deltasplit import _program

PROGRAM = _program.path()
needs_program = pytest.mark.skipif(PROGRAM is None, reason="this installation has no deltasplit program "
                                   "(built without Boost.Program_options or without the CLI)")


@needs_program
def test_path_is_the_compiled_program():
    assert os.path.isabs(PROGRAM)
    with open(PROGRAM, "rb") as f:
        assert f.read(4) == b"\x7fELF"
    assert os.access(PROGRAM, os.X_OK)


@needs_program
def test_run_help_lists_the_sub_commands(capfd):
    assert _program.run(["--help"]) == 0
    out = capfd.readouterr().out
    for command in ("sssp", "compare", "info", "convert", "generate"):
        assert command in out


@needs_program
def test_run_passes_the_exit_code_of_a_bad_command(capfd):
    assert _program.run(["sssp", "/nonexistent/graph.mtx", "--source", "1"]) != 0
    assert "/nonexistent/graph.mtx" in capfd.readouterr().err


@needs_program
def test_run_solves_a_graph(tmp_path, capfd):
    graph = tmp_path / "path.gr"
    graph.write_text("p sp 3 2\na 1 2 5\na 2 3 7\n")
    out = tmp_path / "dist.txt"
    assert _program.run(["sssp", graph, "--source", 1, "--device", "cpu", "--output", out]) == 0
    assert out.read_text().split() == ["1", "0", "2", "5", "3", "12"]


def test_environment_variable_wins(tmp_path, monkeypatch):
    fake = tmp_path / "deltasplit"
    fake.write_bytes(b"\x7fELF" + b"\0" * 60)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv(_program.ENV_VAR, str(fake))
    assert _program.path() == str(fake)


def test_a_script_is_not_the_program(tmp_path, monkeypatch):
    # A console script named deltasplit would start Python again: refused, not run.
    script = tmp_path / "deltasplit"
    script.write_text(f"#!{sys.executable}\nimport sys; sys.exit(0)\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv(_program.ENV_VAR, str(script))
    with pytest.raises(FileNotFoundError, match="not an executable deltasplit program"):
        _program.path()


def test_run_without_a_program_says_why(monkeypatch):
    monkeypatch.setattr(_program, "path", lambda: None)
    with pytest.raises(FileNotFoundError, match="not installed with this package"):
        _program.run(["--help"])


@needs_program
def test_program_runs_without_the_toolkit_on_the_path(tmp_path):
    # The program links its C++ runtime and Boost statically: it starts with a bare environment.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([PROGRAM, "--help"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@needs_program
def test_python_m_deltasplit_is_the_program(tmp_path, capfd):
    """python -m deltasplit runs the program's command lines as they are (the same output and
    exit status), keeps its own sub-commands, and its help lists both."""
    from deltasplit.__main__ import main
    assert main(["--version"]) == 0
    ours = capfd.readouterr().out
    assert _program.run(["--version"]) == 0
    assert ours == capfd.readouterr().out and ours.startswith("deltasplit ")
    graph = tmp_path / "path.gr"
    graph.write_text("p sp 3 2\na 1 2 5\na 2 3 7\n")
    out = tmp_path / "dist.txt"
    assert main(["sssp", str(graph), "--source", "1", "--device", "cpu", "--output", str(out)]) == 0
    assert out.read_text().split() == ["1", "0", "2", "5", "3", "12"]
    assert main(["sssp", "/nonexistent/graph.mtx", "--source", "1"]) != 0
    assert "/nonexistent/graph.mtx" in capfd.readouterr().err
    assert main(["--help"]) == 0
    help_text = capfd.readouterr().out
    for command in ("matrix", "od", "accessibility", "sssp", "compare", "generate"):
        assert command in help_text


def test_python_m_deltasplit_without_the_program_says_why(monkeypatch, capfd):
    from deltasplit.__main__ import main
    monkeypatch.setattr(_program, "path", lambda: None)
    assert main(["sssp", "g.mtx"]) == 1
    assert "not installed with this package" in capfd.readouterr().err
