"""The extension module exports one symbol, PyInit__core.

The module carries its own C++ runtime (linked statically). Were that runtime's symbols exported,
the dynamic linker would bind its unique symbols (the locale facets' ids) process-wide, and a C++
extension imported after deltasplit would use this module's copies with its own runtime and crash
(`import deltasplit; import cupy` does so in ml_dtypes, which cupy imports)."""
import shutil
import subprocess
import sys

import pytest

from deltasplit import _core


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils) to read the module's symbol table")
def test_only_the_module_init_is_exported():
    out = subprocess.run(["nm", "-D", "--defined-only", _core.__file__], capture_output=True, text=True, check=True)
    names = [line.split()[-1] for line in out.stdout.splitlines() if line.strip()]
    assert names == ["PyInit__core"], f"{len(names)} exported symbols, e.g. {names[:5]}"


def test_cxx_extensions_import_after_deltasplit():
    """A C++ extension with its own runtime (pyarrow's, or numpy's) imports and runs after deltasplit."""
    code = ("import deltasplit, numpy\n"
            "try:\n    import pyarrow as pa\n    print(pa.array([1.5, 2.5]).to_pylist())\n"
            "except ImportError:\n    print(numpy.finfo(numpy.float16).tiny)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
