#!/usr/bin/env bash
# The project's check on a GPU machine: every GPU test, plainly and under compute-sanitizer
# (tests/check_gpu.sh), the demo, every benchmark and a profile of the SSSP loop's small-frontier
# kernel, from static sm_90 binaries copied into one folder.
# Run from the repository root (the tests and benchmarks read datasets/):
#   bench/run_h200.sh BIN_DIR OUT_DIR
# BIN_DIR holds multisplit_tests, multisplit_tests_compute80, sssp_gpu_tests, many_sources_gpu_tests,
# sssp_driver_tests, phast_gpu_tests, deltasplit, multisplit_bench, sssp_bench, graph_load_bench and (when
# present) many_sources_bench from `make h200` (build-h200/). OUT_DIR receives all.log, the GPU
# checks' logs (check_gpu/) and the benchmarks' CSV and markdown files.
set -uo pipefail
bin=${1:?usage: bench/run_h200.sh BIN_DIR OUT_DIR}
out=${2:?usage: bench/run_h200.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
log=$out/all.log
status=0

step() {  # NAME COMMAND...: runs COMMAND, logs everything, prints the tail and the time
  local name=$1 rc t0 t1
  shift
  echo "== $name: $*" | tee -a "$log"
  t0=$(date +%s%N)
  "$@" >> "$log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  [ $rc -eq 0 ] || status=1
  printf '== %s: exit %d after %d.%01d s\n' "$name" $rc $(((t1 - t0) / 1000000000)) $(((t1 - t0) / 100000000 % 10)) |
    tee -a "$log"
}

{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv; } | tee -a "$log"
step gpu_tests tests/check_gpu.sh "$bin" "$out/check_gpu"
step demo "$bin/deltasplit" sssp datasets/USA-road-d.NY.gr.gz --source 1 --validate
tail -n 7 "$log"
step multisplit_bench "$bin/multisplit_bench" --sizes 25,28 --reps 9 --csv "$out/multisplit.csv" --md "$out/multisplit.md"
step sssp_bench "$bin/sssp_bench" --runs 10 --out "$out"
[ -f "$out/sssp_bench.csv" ] && rm -f "$out/sssp_bench_partial.csv"
# The paper's comparison of the frontier managers: the step loop everywhere (auto runs the
# partitioned or wide driver, which files no vertex through a manager, on roads and small graphs).
mkdir -p "$out/steps"
step sssp_bench_steps "$bin/sssp_bench" --runs 10 --out "$out/steps" --driver steps
[ -f "$out/steps/sssp_bench.csv" ] && rm -f "$out/steps/sssp_bench_partial.csv"
[ -x "$bin/many_sources_bench" ] && step many_sources_bench "$bin/many_sources_bench" --out "$out" --all-limit 30
# driver auto runs one thread block per source on the road graphs and the vertex-major batches on
# the denser ones; the same with the vertex-major batches forced everywhere, for the ratio
# (bench/results/block_driver.md).
mkdir -p "$out/vertex_major"
[ -x "$bin/many_sources_bench" ] &&
  step many_sources_bench_vertex_major "$bin/many_sources_bench" --out "$out/vertex_major" --all-limit 10 --driver steps
step graph_load_bench "$bin/graph_load_bench" --out "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
if [ -n "$ncu" ]; then
  step ncu_small_frontier "$ncu" --clock-control none --section SpeedOfLight --section Occupancy \
    --section WarpStateStats -k regex:small_frontier -c 2 \
    "$bin/deltasplit" sssp datasets/USA-road-d.NY.gr.gz --source 1 --strategy near-far
  # The block driver's one-source solve: ~5 us an iteration where ~1 was hoped
  # (bench/results/block_driver.md). Where its warps wait: L2 loads, atomics, the barrier.
  step ncu_block_driver "$ncu" --clock-control none --section SpeedOfLight --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SourceCounters -k regex:block_solve -c 1 \
    "$bin/deltasplit" sssp datasets/USA-road-d.NY.gr.gz --source 1 --strategy near-far --driver block
fi
grep -E "^== |FAILED|PASSED" "$log" | tail -n 40
exit $status
