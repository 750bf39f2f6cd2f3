#!/usr/bin/env bash
# The GPU test suite, plainly and under compute-sanitizer: every GPU test binary in BIN_DIR runs
# plainly, then under memcheck, racecheck, synccheck and initcheck, and the errors are reported per
# binary and tool. Run from the repository root (the tests read datasets/); bench/run_h200.sh calls it.
#   tests/check_gpu.sh BIN_DIR OUT_DIR
# GPU test binaries: multisplit_tests, multisplit_tests_compute80 (compute_80 PTX, JIT-compiled:
# the conservative launch shapes), sssp_gpu_tests, many_sources_gpu_tests, sssp_driver_tests,
# phast_gpu_tests (every target tests/ declares with deltasplit_add_gpu_test: each runs plainly and
# under every tool, initcheck included); each one missing from BIN_DIR is reported and fails the check.
#
# The size (CHECK_SIZE):
#   small (default)  about 6 minutes in all (341 s on an H100, 2026-11-27, bench/results/gpu_checks.md):
#                    the plain runs at the tests' small size (DELTASPLIT_TEST_SIZE=small: the multisplit
#                    tests keep their edge cases and tile boundaries and drop the large inputs), and
#                    under each tool the sanitizer sets below; under racecheck, whose cost grows with the
#                    shared-memory accesses (the SSSP loop's rounds times its cluster's threads),
#                    smaller ones.
#   full             the plain runs at full size and every tool over each binary's whole sanitizer set
#                    (racecheck alone is well over 30 minutes of GPU time; run it with CHECK_PER_TEST=1
#                    and a CHECK_DEADLINE, over several calls).
# The sanitizer sets (tests on small inputs; every run under a tool has DELTASPLIT_TEST_SIZE=small):
#   multisplit binaries   every test; racecheck at the small size: every method's several-tiles test
#                         (each counter scheme: 3, 32, 64 and 256 buckets, several tiles a block, a last
#                         partial tile), user lambda (up to 3,000 buckets: the large method; device
#                         counts) and splitter test (splitters staged in shared memory), the baseline's
#                         every test, streams, graph capture, device counts, resets, sort and histogram
#                         (MULTISPLIT_RACECHECK_FILTER). Left to the full size: the reference sweeps
#                         (MatchesHostReference, ManyBucketsMatchHostReference, MatchesStdSort: the same
#                         kernels at every tile boundary, 95-250 s each under racecheck), exact division
#                         and clamped ids (arithmetic and a global counter).
#   sssp_gpu_tests        Paths/GpuSanitizer.* (every path of the loop on tiny graphs,
#                         gpu_sanitizer_test.cpp); racecheck at the small size: every graph on the 1-block
#                         cluster and the block and wide drivers, the star on every cluster size (76 of 140
#                         instances: every phase of the loop) (SSSP_RACECHECK_FILTER)
#   sssp_driver_tests     the Small* tests (every driver, and the partitioned driver's watchdog with planted faults); racecheck at the small size leaves out the
#                         1,500-hop path (1,500 buckets), real weights in narrow buckets (float in
#                         buckets of 0.01, float64 tenths in buckets of 0.5) and the block driver's growing far piles (a 60 x 50 grid from three sources), each over 200 s
#                         under racecheck (rounds of the partitioned driver's 132 blocks, or of the block
#                         driver's one block); the sanitizer suite's random graph regrows the block driver's far
#                         piles (DRIVER_RACECHECK_FILTER)
#   many_sources_gpu_tests  the tests on small graphs, both batch engines
#   phast_gpu_tests       the tests on small graphs (the road networks' sweeps are left to the plain
#                         run) (PHAST_SANITIZER_FILTER)
# Every run is a job in a pool of CHECK_JOBS processes sharing the GPU: the plain runs, and under a
# tool each binary's tests split over gtest shards (or one test a job). Two phases, one after the
# other: the plain runs with memcheck, synccheck and initcheck, then racecheck. Racecheck's jobs keep
# the GPU busy for seconds at a time, and the GPU, time-sliced between processes, then starves the
# jobs that wait on many short kernels: run beside racecheck, the plain runs took 2-18x as long
# (many_sources_gpu_tests 311 s against 95 s, 2026-11-27).
# Knobs of this script only (the library reads no environment):
#   CHECK_SIZE=small|full                                  above
#   CHECK_TOOLS="memcheck racecheck synccheck initcheck"   the tools to run ("" for none)
#   CHECK_PLAIN=1                                          0 skips the plain runs
#   CHECK_BINARIES="multisplit_tests ..."                  a subset of the binaries
#   CHECK_JOBS=N                                           jobs at once (default 12)
#   CHECK_SHARDS=N                                         gtest shards per binary and tool (default 8)
#   CHECK_RACECHECK_SHARDS=N                               the same under racecheck (default 16: its tests'
#                                                          times differ most, so smaller shards balance them)
#   CHECK_PER_TEST=1                                       under a tool, one job per test: a slow test then
#                                                          hides no other test's result
#   CHECK_TIMEOUT=SECONDS                                  a limit on each job (exit 124: timed out)
#   CHECK_DEADLINE=SECONDS                                 a limit on the whole script, counted from its start:
#                                                          each job's limit is cut to the time left, jobs that
#                                                          would start with under 10 s left are reported as
#                                                          not run, and the summary is still printed (a
#                                                          machine that stops a call at its limit would
#                                                          otherwise take every result along)
#   MULTISPLIT_SANITIZER_FILTER, MULTISPLIT_RACECHECK_FILTER, SSSP_SANITIZER_FILTER, SSSP_RACECHECK_FILTER,
#   DRIVER_SANITIZER_FILTER, DRIVER_RACECHECK_FILTER, MANY_SANITIZER_FILTER, PHAST_SANITIZER_FILTER
#                                                          the gtest filters above (RACECHECK ones at the
#                                                          small size only)
# Writes OUT_DIR/check.log (everything), OUT_DIR/<binary>.<plain|tool>.log and OUT_DIR/times.txt (each
# job's seconds, slowest first); prints a table of exit codes and error counts last. Exits nonzero
# when a test fails, a tool finds an error, or a job did not finish.
set -uo pipefail
bin=${1:?usage: tests/check_gpu.sh BIN_DIR OUT_DIR}
out=${2:?usage: tests/check_gpu.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
log=$out/check.log
: > "$log"
size=${CHECK_SIZE:-small}
case $size in
  small | full) ;;
  *) echo "check_gpu.sh: CHECK_SIZE is '$size'; it must be small or full" >&2; exit 2 ;;
esac
tools=${CHECK_TOOLS-memcheck racecheck synccheck initcheck}
plain=${CHECK_PLAIN:-1}
binaries=${CHECK_BINARIES:-multisplit_tests multisplit_tests_compute80 sssp_gpu_tests many_sources_gpu_tests \
  sssp_driver_tests phast_gpu_tests}
jobs_at_once=${CHECK_JOBS:-12}
shards=${CHECK_SHARDS:-8}
race_shards=${CHECK_RACECHECK_SHARDS:-16}
per_test=${CHECK_PER_TEST:-0}
ms_filter=${MULTISPLIT_SANITIZER_FILTER:-*}
ms_race_small='*.BlocksWalkSeveralTilesUnderEveryDistribution:*.UserLambdaBuckets:*.SplitterBuckets'
ms_race_small+=':MultisplitScanSplit.*:Multisplit.*:MultisplitStreams.*:MultisplitDeviceCount.*:MultisplitDevices.*'
ms_race_small+=':MultisplitSort.BitRange:MultisplitSort.BandedKeysExitEarly:MultisplitHistogram.*'
ms_race_filter=${MULTISPLIT_RACECHECK_FILTER:-$ms_race_small}
sssp_filter=${SSSP_SANITIZER_FILTER:-Paths/GpuSanitizer.*}
sssp_race_filter=${SSSP_RACECHECK_FILTER:-Paths/GpuSanitizer.*/*_cluster_1:Paths/GpuSanitizer.*/*_driver_block:Paths/GpuSanitizer.*/*_driver_wide:Paths/GpuSanitizer.StarWiderThanTheCluster/*}
driver_filter=${DRIVER_SANITIZER_FILTER:-Drivers/ForcedDriver.Small*:PartitionedWatchdog.Small*}
driver_race_filter=${DRIVER_RACECHECK_FILTER:-Drivers/ForcedDriver.Small*:PartitionedWatchdog.Small*-*.SmallPathAcrossRegions/*:*.SmallFarPilesThatFillGrow/*:*.SmallRealWeightsNarrowBuckets/*:*.SmallFloat64NarrowBuckets/*}
many_filter=${MANY_SANITIZER_FILTER:-*DuplicateSources*:*DeviceBlocks*:*RowsGivenInDeviceMemory*:*OverflowIsReported*:*FarPilesThatFillGrow*:*WideBucketsSpillTheNearSet*:*AnOverflowPastTheCutoff*:*Float64RowsEqualDijkstraExactly*:*PathsPast32BitsRunIn64Bits*}
phast_small='PhastGpu.GridRmatSocialAndCraftedGraphs:PhastGpu.RealWeights:PhastGpu.Cutoff'
phast_small+=':PhastGpu.OverflowOnlyForShortestDistances:PhastGpu.BatchCutoffAndDeviceBlocks:PhastGpu.PairsOnSmallGraphs'
phast_small+=':PhastGpu.UInt64Distances:PhastGpu.BatchUpwardSearchesOnTheDeviceAndHandedBack:PhastGpu.BatchesInAPipelineIntoTheCallersRows'
phast_small+=':PhastGpu.RowSummariesInTheEngine'
phast_filter=${PHAST_SANITIZER_FILTER:-$phast_small}
# The compute_80 binary's kernels are JIT-compiled by every process that loads them; a cache large
# enough for all of them lets its later jobs reuse the first one's (the driver's default is smaller).
export CUDA_CACHE_MAXSIZE=4294967296
started=$(date +%s)
deadline=${CHECK_DEADLINE:-}
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
  /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -n 1)

# The gtest filter of binary $1 under tool $2.
filter_for() {
  local race=0
  [ "$2" = racecheck ] && [ "$size" = small ] && race=1
  case $1:$race in
    multisplit_tests*:1) echo "$ms_race_filter" ;;
    multisplit_tests*:0) echo "$ms_filter" ;;
    sssp_gpu_tests:1) echo "$sssp_race_filter" ;;
    sssp_gpu_tests:0) echo "$sssp_filter" ;;
    sssp_driver_tests:1) echo "$driver_race_filter" ;;
    sssp_driver_tests:0) echo "$driver_filter" ;;
    many_sources_gpu_tests:*) echo "$many_filter" ;;
    phast_gpu_tests:*) echo "$phast_filter" ;;
    *) echo '*' ;;
  esac
}

# Sets limit to the timeout of the next job (CHECK_TIMEOUT, cut to what CHECK_DEADLINE leaves);
# fails when the deadline leaves under 10 s.
next_limit() {
  local t=${CHECK_TIMEOUT:-} left
  limit=()
  if [ -n "$deadline" ]; then
    left=$((started + deadline - $(date +%s)))
    [ "$left" -ge 10 ] || return 1
    if [ -z "$t" ] || [ "$t" -gt "$left" ]; then t=$left; fi
  fi
  [ -z "$t" ] || limit=(timeout "$t")
}

seconds_since() { awk -v ns=$(($(date +%s%N) - $1)) 'BEGIN { printf "%.1f", ns / 1e9 }'; }

# The jobs: job_bin, job_tool (plain or a tool), job_piece (a shard, a test, or the plain run),
# job_phase, job_log; group["bin:tool"] lists a group's jobs in order.
job_bin=() job_tool=() job_piece=() job_phase=() job_log=()
phase=1
declare -A group
summary=()
status=0
add_job() {  # BINARY TOOL PIECE
  local i=${#job_bin[@]}
  job_bin+=("$1") job_tool+=("$2") job_piece+=("$3") job_phase+=("$phase") job_log+=("$out/$1.$2.log.$i")
  group[$1:$2]+="$i "
}
add_jobs() {  # BINARY TOOL: the plain run, or the shards or tests under the tool
  local name=$1 tool=$2 t n=$shards
  if [ "$tool" = plain ]; then
    add_job "$name" plain "full run"
  elif [ "$per_test" = 1 ]; then
    while IFS= read -r t; do add_job "$name" "$tool" "test $t"; done < <("$bin/$name" --gtest_list_tests \
      --gtest_filter="$(filter_for "$name" "$tool")" | awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }')
  else
    [ "$tool" = racecheck ] && n=$race_shards
    for ((t = 0; t < n; ++t)); do add_job "$name" "$tool" "shard $t/$n"; done
  fi
}
present=()
for name in $binaries; do
  if [ -x "$bin/$name" ]; then
    present+=("$name")
  else
    summary+=("$(printf '%-28s %-10s missing from %s' "$name" - "$bin")")
    status=1
  fi
done
if [ -n "$tools" ] && [ -z "$sanitizer" ]; then
  summary+=("$(printf '%-28s %-10s compute-sanitizer not found' - -)")
  status=1
  tools=
fi
# The order they start in. Phase 1: the compute_80 binary's plain run (it fills the JIT cache), the
# other plain runs, the other tools but racecheck, the compute_80 binary's last. Phase 2: racecheck,
# the compute_80 binary's last.
is_jit() { [ "$1" = multisplit_tests_compute80 ]; }
ordered=()  # the binaries, the JIT-compiled one last
for name in "${present[@]}"; do is_jit "$name" || ordered+=("$name"); done
for name in "${present[@]}"; do is_jit "$name" && ordered+=("$name"); done
if [ "$plain" = 1 ]; then
  for name in "${present[@]}"; do is_jit "$name" && add_jobs "$name" plain; done
  for name in "${present[@]}"; do is_jit "$name" || add_jobs "$name" plain; done
fi
for name in "${ordered[@]}"; do
  for tool in $tools; do [ "$tool" != racecheck ] && add_jobs "$name" "$tool"; done
done
phase=2
for name in "${ordered[@]}"; do
  for tool in $tools; do [ "$tool" = racecheck ] && add_jobs "$name" "$tool"; done
done

run_job() {  # INDEX: runs the job with the limit next_limit set; writes LOG.rc with the exit code and seconds
  local i=$1 name=${job_bin[$1]} tool=${job_tool[$1]} piece=${job_piece[$1]} t0 rc
  local env_job=() args=() tool_cmd=() buffered=()
  # Plain runs report failures only; under a tool every test's start is logged, line by line, so a
  # process that dies (one racecheck process did, once, with SIGSEGV and an empty log: 2026-11-27)
  # names the test it was in.
  if [ "$tool" = plain ]; then args=(--gtest_brief=1); elif command -v stdbuf > /dev/null; then buffered=(stdbuf -oL); fi
  [ "$size" = small ] || [ "$tool" != plain ] && env_job+=(DELTASPLIT_TEST_SIZE=small)
  if [ "$tool" != plain ]; then
    tool_cmd=("$sanitizer" --tool "$tool" --error-exitcode 99)
    case $piece in
      test\ *) args+=(--gtest_filter="${piece#test }") ;;
      shard\ *)
        args+=(--gtest_filter="$(filter_for "$name" "$tool")")
        piece=${piece#shard }
        env_job+=(GTEST_TOTAL_SHARDS=${piece#*/} GTEST_SHARD_INDEX=${piece%/*})
        ;;
    esac
  fi
  t0=$(date +%s%N)
  env "${env_job[@]}" "${limit[@]}" "${buffered[@]}" "${tool_cmd[@]}" "$bin/$name" "${args[@]}" > "${job_log[i]}" 2>&1
  rc=$?
  echo "$rc $(seconds_since "$t0")" > "${job_log[i]}.rc"
}

echo "== check_gpu.sh: size $size, ${#job_bin[@]} jobs, $jobs_at_once at once" >> "$log"
running=0
for ((i = 0; i < ${#job_bin[@]}; ++i)); do
  if ((i > 0)) && [ "${job_phase[i]}" != "${job_phase[i - 1]}" ]; then  # the next phase starts on an idle GPU
    while ((running > 0)); do wait -n; running=$((running - 1)); done
  fi
  if ! next_limit; then
    echo "not run: CHECK_DEADLINE reached" > "${job_log[i]}"
    echo "deadline 0" > "${job_log[i]}.rc"
    continue
  fi
  run_job "$i" &
  if ((++running >= jobs_at_once)); then wait -n; running=$((running - 1)); fi
done
while ((running > 0)); do wait -n; running=$((running - 1)); done
for ((i = 0; i < ${#job_bin[@]}; ++i)); do
  read -r rc secs < "${job_log[i]}.rc" 2>/dev/null || { rc=1 secs=0; }
  printf '%8s s  %-28s %-10s %-8s %s\n' "$secs" "${job_bin[i]}" "${job_tool[i]}" "$rc" "${job_piece[i]}"
done | sort -rn > "$out/times.txt"

# The summary, one line per binary and tool, in the order of the binaries.
for name in "${present[@]}"; do
  for tool in $([ "$plain" = 1 ] && echo plain) $tools; do
    tlog=$out/$name.$tool.log
    : > "$tlog"
    rc=0 errors=0 hazards=0 tests=0 missing=0 not_run=0 slowest=0 counts=""
    for i in ${group[$name:$tool]-}; do  # none when CHECK_PER_TEST=1 and the filter matched no test
      read -r piece_rc secs < "${job_log[i]}.rc" 2>/dev/null || { piece_rc=1 secs=0; }
      piece_log=$(cat "${job_log[i]}" 2>/dev/null)
      printf -- '-- %s: exit %s, %s s\n%s\n' "${job_piece[i]}" "$piece_rc" "$secs" "$piece_log" >> "$tlog"
      rm -f "${job_log[i]}" "${job_log[i]}.rc"
      slowest=$(awk -v a="$slowest" -v b="$secs" 'BEGIN { print (b > a ? b : a) }')
      if [ "$piece_rc" = deadline ]; then
        not_run=$((not_run + 1))
        continue
      fi
      if [ "$tool" = plain ]; then
        rc=$piece_rc
        counts=$(grep -E '^\[ +(PASSED|SKIPPED|FAILED) +\] [0-9]+ test' <<< "$piece_log" | tr '\n' ' ')
        continue
      fi
      # A shard that the filter left without tests runs no kernel: no summary, and the tool's exit
      # code is not the test's. It counts as empty, not as missing.
      if grep -qE '^\[  PASSED  \] 0 tests' <<< "$piece_log" && ! grep -q FAILED <<< "$piece_log"; then
        echo "-- ${job_piece[i]}: no test in this piece" >> "$tlog"
        continue
      fi
      [ "$piece_rc" = 0 ] || rc=$piece_rc
      # memcheck, synccheck and initcheck end with an ERROR SUMMARY, racecheck with a RACECHECK SUMMARY.
      e=$(grep -E "(ERROR|RACECHECK) SUMMARY: [0-9]+" <<< "$piece_log" | tail -n 1 | grep -oE "[0-9]+ error" | grep -oE "[0-9]+")
      [ -n "$e" ] && errors=$((errors + e)) || { missing=$((missing + 1)); echo "-- ${job_piece[i]}: no summary (timed out?)" >> "$tlog"; }
      h=$(grep -E "RACECHECK SUMMARY" <<< "$piece_log" | tail -n 1 | grep -oE "[0-9]+ hazard" | grep -oE "[0-9]+")
      [ -n "$h" ] && hazards=$((hazards + h))
      t=$(grep -oE "^\[  PASSED  \] [0-9]+ test" <<< "$piece_log" | grep -oE "[0-9]+")
      [ -n "$t" ] && tests=$((tests + t))
    done
    cat "$tlog" >> "$log"
    if [ "$tool" = plain ]; then
      [ "$rc" = 0 ] && [ $not_run -eq 0 ] || status=1
      summary+=("$(printf '%-28s %-10s %s' "$name" plain "$([ $not_run -gt 0 ] && echo "not run (CHECK_DEADLINE)" ||
        echo "exit $rc, $slowest s, $counts")")")
      continue
    fi
    [ "$rc" = 0 ] && [ $missing -eq 0 ] && [ $not_run -eq 0 ] || status=1
    summary+=("$(printf '%-28s %-10s exit %s, slowest job %s s, %d tests passed, errors: %d%s%s%s' "$name" "$tool" \
      "$rc" "$slowest" $tests $errors "$([ "$tool" = racecheck ] && echo " (hazards: $hazards)")" \
      "$([ $missing -gt 0 ] && echo ", $missing job(s) without a summary")" \
      "$([ $not_run -gt 0 ] && echo ", $not_run job(s) not run (CHECK_DEADLINE)")")")
  done
done
{
  echo "== check_gpu.sh summary, size $size, $(seconds_since "${started}000000000") s in all ($(date -u), $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1))"
  printf '%s\n' "${summary[@]}"
} | tee -a "$log"
exit $status
