"""scipy's own tests of shortest paths, run on deltasplit.csgraph.

The file scipy/sparse/csgraph/tests/test_shortest_path.py of the installed scipy is loaded as a
module, its dijkstra, shortest_path, bellman_ford and johnson are replaced by deltasplit's, and its
tests are collected here as they are (parameters included). What the file imports that deltasplit
does not offer stays scipy's (floyd_warshall is not imported; construct_dist_matrix reads our
predecessors; NegativeCycleError is the exception we raise). The tests of yen (k shortest paths),
which deltasplit does not offer, are skipped by name with that reason. Skipped as a whole when the
installed scipy ships without its tests.
"""
import importlib.util
import pathlib

import pytest
import scipy

from deltasplit import csgraph as dcg

SUITE = pathlib.Path(scipy.__file__).parent / "sparse" / "csgraph" / "tests" / "test_shortest_path.py"
if not SUITE.is_file():
    pytest.skip(f"scipy {scipy.__version__} is installed without its tests ({SUITE} is absent)",
                allow_module_level=True)

SWAPPED = ("dijkstra", "shortest_path", "bellman_ford", "johnson")
NOT_OFFERED = {"yen": "deltasplit offers no yen (k shortest paths): the test would only run scipy's own"}

_spec = importlib.util.spec_from_file_location("scipy_test_shortest_path", SUITE)
scipy_suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scipy_suite)
for _name in SWAPPED:
    if hasattr(scipy_suite, _name):  # the tests look these names up in their own module
        setattr(scipy_suite, _name, getattr(dcg, _name))


def _not_offered(test_name):
    """The reason a test exercises only a function deltasplit does not offer, or None."""
    for function, reason in NOT_OFFERED.items():
        if test_name.startswith(f"test_{function}_") or test_name == f"test_{function}":
            return reason
    return None


for _name, _test in vars(scipy_suite).copy().items():
    if _name.startswith("test_") and callable(_test):
        _reason = _not_offered(_name)
        globals()[_name] = pytest.mark.skip(reason=_reason)(_test) if _reason else _test


def test_suite_was_collected_with_deltasplit():
    """The swap happened: the suite's names are deltasplit's, and it holds tests to run."""
    assert scipy_suite.dijkstra is dcg.dijkstra and scipy_suite.shortest_path is dcg.shortest_path
    assert sum(name.startswith("test_") for name in vars(scipy_suite)) > 20
