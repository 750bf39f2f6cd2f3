#!/usr/bin/env bash
# Runs every benchmark that was built, from the repository root, writing CSV and markdown
# into OUT (default bench-out/). Usage: bench/run_all.sh BUILD_DIR [OUT]
set -euo pipefail
build=${1:?usage: bench/run_all.sh BUILD_DIR [OUT]}
out=${2:-bench-out}
mkdir -p "$out"
find_bin() { find "$build" -type f -name "$1" -perm -u+x | head -n 1; }
status=0
run() {  # NAME ARGS...: runs the benchmark NAME if it was built
  local name=$1 exe
  shift
  exe=$(find_bin "$name")
  if [ -z "$exe" ]; then echo "== $name: not built, skipped"; return; fi
  echo "== $name"
  "$exe" "$@" || status=1
}
run graph_load_bench --out "$out"
if nvidia-smi -L >/dev/null 2>&1; then
  run multisplit_bench --csv "$out/multisplit.csv" --md "$out/multisplit.md"
else
  echo "== multisplit_bench: skipped, no GPU on this machine (sssp_bench runs its CPU solver only)"
fi
run sssp_bench --out "$out"
if nvidia-smi -L >/dev/null 2>&1; then  # the frontier managers compared on the step loop everywhere
  mkdir -p "$out/steps"
  run sssp_bench --out "$out/steps" --driver steps
fi
echo "results in $out/"
exit $status
