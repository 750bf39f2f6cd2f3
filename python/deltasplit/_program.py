"""The ``deltasplit`` program (the C++ command line of src/cli) installed with the package.

A wheel installs the program into the environment's scripts folder (``bin/deltasplit`` beside
``python``) and lists it in the distribution's RECORD; the package assembled in a build tree lists
the build's program the same way. ``python -m deltasplit`` hands the sub-commands it does not
implement itself to :func:`run`.

Only a native executable counts as the program: a ``deltasplit`` console script written by pip
would start Python again and could hand the same command back here without end.
"""
import os
import subprocess
import sysconfig
from importlib import metadata

#: An explicit program to run, which wins over the installed one (a build tree's, for example).
ENV_VAR = "DELTASPLIT_PROGRAM"

_ELF_MAGIC = b"\x7fELF"


def _is_program(candidate):
    """True when candidate is an executable ELF file (the compiled program, not a script)."""
    try:
        with open(candidate, "rb") as f:
            magic = f.read(len(_ELF_MAGIC))
    except OSError:
        return False
    return magic == _ELF_MAGIC and os.access(candidate, os.X_OK)


def _installed():
    """The program's path among the files the installed distribution lists, or None."""
    try:
        files = metadata.distribution("deltasplit").files or []
    except metadata.PackageNotFoundError:
        return None
    # Package files live under deltasplit/; a file named deltasplit is the program (a wheel's
    # ../../../bin/deltasplit, a build tree's ../deltasplit).
    return next((str(f.locate()) for f in files if f.name == "deltasplit"), None)


def path():
    """The absolute path of the deltasplit program, or None where this installation has none.

    Looked for in this order: ``$DELTASPLIT_PROGRAM`` (an error when it names anything but the
    program); the files the installed distribution lists; the scripts folder of this Python's
    environment. A wheel built without Boost.Program_options carries no program.
    """
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        if not _is_program(explicit):
            raise FileNotFoundError(f"{ENV_VAR}={explicit} is not an executable deltasplit program "
                                    "(a compiled ELF file)")
        return os.path.abspath(explicit)
    for candidate in (_installed(), os.path.join(sysconfig.get_path("scripts"), "deltasplit")):
        if candidate and _is_program(candidate):
            return os.path.abspath(candidate)
    return None


def run(argv):
    """Runs the deltasplit program with the arguments argv (without the program's name) and
    returns its exit code; standard input, output and error are this process's."""
    program = path()
    if program is None:
        raise FileNotFoundError(
            "the deltasplit program is not installed with this package (it is built when "
            "Boost.Program_options is found; set DELTASPLIT_PROGRAM to a build's ./deltasplit)")
    return subprocess.call([program, *map(str, argv)])
