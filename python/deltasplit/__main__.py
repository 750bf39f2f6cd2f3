"""``python -m deltasplit`` (also installed as the ``deltasplit-py`` program): the ``deltasplit``
program with the package's own sub-commands beside it. The sub-commands of SUBCOMMANDS run here,
on the Python side (a Dask cluster, the road layer); every other command line (``sssp``,
``compare``, ``--version``, ...) goes to the compiled program unchanged (deltasplit._program), so
that ``python -m deltasplit sssp ...`` is ``deltasplit sssp ...``. ``--help`` shows both.

Exit status as the C++ program's: 0 success, 1 an error in the input (a file named with its line)
or while running, 2 a bad command line.
"""
import argparse
import importlib
import sys

from deltasplit._command import EXIT_FAILURE, EXIT_USAGE, CommandError

# name -> (the module that implements it, a help line). The module defines add_arguments(parser,
# command) and run(args, parser) (args.command names the sub-command), which returns an exit status, raises CommandError for bad input and
# calls parser.error for a bad command line. Modules are imported when their sub-command runs, so that
# `--help` needs none of their dependencies.
SUBCOMMANDS = {
    "matrix": ("deltasplit._dask_cli", "many-source distances on a Dask cluster, to Zarr or Parquet"),
    "od": ("deltasplit._network_cli", "road networks: shortest-path distances between origins and destinations"),
    "accessibility": ("deltasplit._network_cli", "road networks: aggregate values within distances of every node"),
}


def main(argv=None):
    words = sys.argv[1:] if argv is None else [str(a) for a in argv]
    if words and words[0] not in SUBCOMMANDS and words[0] not in ("-h", "--help"):
        return _run_program(words)
    parser = argparse.ArgumentParser(prog="python -m deltasplit",
                                     description="The deltasplit program's commands (below), and these, which run in "
                                                 "Python:")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_line) in SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=help_line, description=help_line)
        sub.set_defaults(module=module)
        if name == _requested(argv):
            importlib.import_module(module).add_arguments(sub, name)
    if not words or words[0] in ("-h", "--help"):
        parser.print_help()
        print("\nThe deltasplit program's commands, which python -m deltasplit runs as they are:\n", flush=True)
        status = _run_program(["--help"])
        return status if words else EXIT_USAGE
    args = parser.parse_args(words)
    implementation = importlib.import_module(args.module)
    try:
        return implementation.run(args, parser=commands.choices[args.command])
    except CommandError as e:
        print(f"deltasplit: {e}", file=sys.stderr)
        return EXIT_FAILURE


def _run_program(words):
    """The compiled deltasplit program on these arguments; its exit status."""
    from deltasplit import _program
    try:
        return _program.run(words)
    except FileNotFoundError as e:
        print(f"deltasplit: {e}", file=sys.stderr)
        return EXIT_FAILURE


def _requested(argv):
    """The sub-command named on the command line (the first word that is one), if any: only its
    module's arguments are added."""
    for word in sys.argv[1:] if argv is None else argv:
        if word in SUBCOMMANDS:
            return word
    return None


if __name__ == "__main__":
    sys.exit(main())
