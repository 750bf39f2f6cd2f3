#!/usr/bin/env bash
# Runs every benchmark that was built, from the repository root, writing CSV and markdown
# into OUT (default bench-out/). Usage: bench/run_all.sh BUILD_DIR [OUT]
set -euo pipefail
build=${1:?usage: bench/run_all.sh BUILD_DIR [OUT]}
out=${2:-bench-out}
mkdir -p "$out"
find_bin() { find "$build" -type f -name "$1" -perm -u+x | head -n 1; }
status=0
for b in graph_load_bench multisplit_bench sssp_bench; do
  exe=$(find_bin "$b")
  if [ -z "$exe" ]; then echo "== $b: not built, skipped"; continue; fi
  echo "== $b"
  "$exe" --out "$out" || status=1
done
echo "results in $out/"
exit $status
