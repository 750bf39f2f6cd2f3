#!/usr/bin/env bash
# Installs a built deltasplit wheel into a fresh virtual environment, as on a machine without the
# CUDA toolkit, and runs the package's own pytest suite (python/tests) and the deltasplit program
# there.
#
# usage: python/tools/test_wheel.sh WHEEL [VENV_DIR]
#   WHEEL     the wheel (python/tools/build_wheel.sh writes one)
#   VENV_DIR  the environment to create (default: a temporary folder, removed afterwards); it must
#             not exist yet
#
# The machine without a toolkit is simulated: PATH is /usr/bin:/bin (no /usr/local/cuda/bin),
# LD_LIBRARY_PATH and CUDA_HOME are unset, and the venv holds only the wheel, numpy, scipy,
# networkx and pytest (from the package index pip is configured with; PIP_* settings pass through).
# On a machine with a GPU and its driver the same run takes the GPU path.
set -euo pipefail

die() { echo "test_wheel.sh: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: test_wheel.sh WHEEL [VENV_DIR]"
wheel=$(realpath "$1")
[ -f "$wheel" ] || die "$1: no such wheel"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
venv=${2:-$work/venv}
[ ! -e "$venv" ] || die "$venv exists; the test needs a fresh environment"

# The bare environment: what a user's shell on a machine without the toolkit would hold.
bare=(env -i HOME="$HOME" PATH=/usr/bin:/bin LANG=C.UTF-8 TMPDIR="${TMPDIR:-/tmp}")
while IFS='=' read -r name value; do
  [[ $name == PIP_* ]] && bare+=("$name=$value")
done < <(env)
if "${bare[@]}" sh -c 'command -v nvcc' >/dev/null; then
  die "nvcc is on the bare PATH (/usr/bin:/bin): this machine cannot simulate one without the toolkit"
fi

start=$SECONDS
"${bare[@]}" python3 -m venv "$venv"
"${bare[@]}" "$venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel" numpy scipy networkx pytest
inside=("${bare[@]}" PATH="$venv/bin:/usr/bin:/bin")
echo "installed $(basename "$wheel") in $((SECONDS - start)) s"

# The package is the venv's, not the source tree's.
"${inside[@]}" python -c "
import deltasplit, sys
assert deltasplit.__file__.startswith(sys.prefix), deltasplit.__file__
print('deltasplit', deltasplit.__version__, 'from', deltasplit.__file__)
print('built with CUDA:', deltasplit.BUILT_WITH_CUDA, '| GPU available:', deltasplit.gpu_available(),
      '|', deltasplit.gpu_reason() or 'a GPU can be used')
"

# The CUDA runtime, the C++ runtime and Boost are linked in: none may be a shared library needed.
for f in "$venv"/lib/python3*/site-packages/deltasplit/_core*.so "$venv/bin/deltasplit"; do
  [ -e "$f" ] || continue
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  echo "$(basename "$f") needs: $needed"
  ! grep -qE 'libcudart|libboost|libstdc\+\+' <<< "$needed" || die "$f needs a library the wheel should carry inside"
done

# The program: installed into the venv's bin/ when the wheel was built with Boost.Program_options.
if [ -x "$venv/bin/deltasplit" ]; then
  "${inside[@]}" deltasplit --help >/dev/null
  echo "deltasplit --help: ok ($venv/bin/deltasplit)"
else
  echo "deltasplit --help: NOT RUN, this wheel carries no deltasplit program (built without Boost.Program_options)"
fi
if "${inside[@]}" python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('deltasplit.__main__') is None)"; then
  "${inside[@]}" python -m deltasplit --help >/dev/null
  echo "python -m deltasplit --help: ok"
else
  echo "python -m deltasplit --help: NOT RUN, this wheel has no deltasplit/__main__.py"
fi

# The suite runs from a folder outside the source tree, so that only the installed package is
# importable; the datasets come from the source tree.
cp -r "$root/python/tests" "$work/tests"
(cd "$work" && "${inside[@]}" DELTASPLIT_SOURCE_DIR="$root" python -m pytest -q -rs -p no:cacheprovider tests)
echo "test_wheel.sh: passed in $((SECONDS - start)) s"
