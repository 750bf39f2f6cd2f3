#!/usr/bin/env bash
# The GPU test suite, plainly and under compute-sanitizer: every GPU test binary in BIN_DIR runs
# at full size, then under memcheck, racecheck, synccheck and initcheck at the small size, and
# the errors are reported per binary and tool. Run from the repository root (the tests read
# datasets/); bench/run_h200.sh calls it.
#   bench/check_gpu.sh BIN_DIR OUT_DIR
# GPU test binaries: multisplit_tests, multisplit_tests_compute80 (compute_80 PTX, JIT-compiled:
# the conservative launch shapes), sssp_gpu_tests, many_sources_gpu_tests, sssp_driver_tests
# (every target tests/ declares with deltasplit_add_gpu_test); each one missing from BIN_DIR is
# reported and fails the check.
# The small size: DELTASPLIT_TEST_SIZE=small, which the multisplit tests read (edge cases and tile
# boundaries, no large inputs), and, for sssp_gpu_tests, the gtest filter SSSP_SANITIZER_FILTER
# (default GpuSanitizer.*: every path of the loop on tiny graphs, gpu_sanitizer_test.cpp), or under
# racecheck SSSP_RACECHECK_FILTER (below). Under a tool each binary's tests are split over
# CHECK_SHARDS processes (gtest sharding) that run at once: the persistent cluster kernel is some
# thousand times slower under racecheck, and the processes overlap the tool's host-side work.
# racecheck's cost grows with the loop's rounds times the cluster's threads: a 16-block cluster
# costs 10-30x a 1-block one, and the 120 sanitizer instances under racecheck need well over 30
# minutes of GPU time (bench/results/gpu_checks.md, 2026-11-26). So racecheck's small size is every
# graph on the 1-block cluster and the block driver, and the star (whose first step runs on the
# grid) on every cluster size: every phase of the loop, about 2 minutes at 8 processes by the
# instances' separate times; SSSP_RACECHECK_FILTER=Paths/GpuSanitizer.* with CHECK_PER_TEST=1 and a
# CHECK_DEADLINE is the whole set. Knobs of this script only (the library reads no environment):
#   CHECK_TOOLS="memcheck racecheck synccheck initcheck"   the tools to run ("" for none)
#   CHECK_PLAIN=1                                          0 skips the full-size runs
#   CHECK_BINARIES="multisplit_tests ..."                  a subset of the binaries
#   CHECK_TIMEOUT=SECONDS                                  a limit on each run (exit 124: timed out)
#   CHECK_DEADLINE=SECONDS                                 a limit on the whole script, counted from its
#                                                          start: each run's limit is cut to the time left,
#                                                          runs that would start with under 10 s left are
#                                                          reported as not run, and the summary is still
#                                                          printed (a machine that stops a call at its
#                                                          limit would otherwise take every result along)
#   CHECK_SHARDS=N                                         processes per binary under a tool (default 8)
#   CHECK_PER_TEST=1                                       under a tool, one process per test (CHECK_SHARDS
#                                                          at a time, each with CHECK_TIMEOUT): a slow test
#                                                          then hides no other test's result
#   SSSP_RACECHECK_FILTER=PATTERN                          sssp_gpu_tests' filter under racecheck (default:
#                                                          the small size above)
#   MULTISPLIT_SANITIZER_FILTER=PATTERN                    a gtest filter for the multisplit binaries
#                                                          under the tools (default: every test)
#   DRIVER_SANITIZER_FILTER=PATTERN                        the same for sssp_driver_tests (default: the
#                                                          Small* tests, tiny graphs, both drivers)
#   MANY_SANITIZER_FILTER=PATTERN                          the same for many_sources_gpu_tests (default:
#                                                          the tests on small graphs, both batch engines)
# Writes OUT_DIR/check.log (everything) and OUT_DIR/<binary>.<tool>.log; prints a table of
# exit codes and error counts last. Exits nonzero when a test fails or a tool finds an error.
set -uo pipefail
bin=${1:?usage: bench/check_gpu.sh BIN_DIR OUT_DIR}
out=${2:?usage: bench/check_gpu.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
log=$out/check.log
tools=${CHECK_TOOLS-memcheck racecheck synccheck initcheck}
plain=${CHECK_PLAIN:-1}
binaries=${CHECK_BINARIES:-multisplit_tests multisplit_tests_compute80 sssp_gpu_tests many_sources_gpu_tests \
  sssp_driver_tests}
# The SSSP tests on small graphs (bundled datasets and large generated graphs run only plainly).
sssp_filter=${SSSP_SANITIZER_FILTER:-Paths/GpuSanitizer.*}
sssp_race_filter=${SSSP_RACECHECK_FILTER:-Paths/GpuSanitizer.*/*_cluster_1:Paths/GpuSanitizer.*/*_driver_block:Paths/GpuSanitizer.StarWiderThanTheCluster/*}
shards=${CHECK_SHARDS:-8}
per_test=${CHECK_PER_TEST:-0}
ms_filter=${MULTISPLIT_SANITIZER_FILTER:-*}
driver_filter=${DRIVER_SANITIZER_FILTER:-Drivers/ForcedDriver.Small*}
many_filter=${MANY_SANITIZER_FILTER:-*DuplicateSources*:*DeviceBlocks*:*OverflowIsReported*:*FarPilesThatFillGrow*:*WideBucketsSpillTheNearSet*:*AnOverflowPastTheCutoff*}
started=$(date +%s)
deadline=${CHECK_DEADLINE:-}
# Sets limit to the timeout of the next run (CHECK_TIMEOUT, cut to what CHECK_DEADLINE leaves);
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
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
  /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -n 1)
status=0
summary=()

seconds_since() { awk -v ns=$(($(date +%s%N) - $1)) 'BEGIN { printf "%.1f", ns / 1e9 }'; }

for name in $binaries; do
  exe=$bin/$name
  if [ ! -x "$exe" ]; then
    summary+=("$(printf '%-28s %-10s missing from %s' "$name" - "$bin")")
    status=1
    continue
  fi
  if [ "$plain" = 1 ]; then
    plog=$out/$name.plain.log
    t0=$(date +%s%N)
    echo "== $name (full size)" >> "$log"
    if next_limit; then
      "${limit[@]}" "$exe" --gtest_brief=1 > "$plog" 2>&1
      rc=$?
    else
      echo "not run: CHECK_DEADLINE reached" > "$plog"
      rc=125
    fi
    cat "$plog" >> "$log"
    [ $rc -eq 0 ] || status=1
    summary+=("$(printf '%-28s %-10s exit %d, %s s, %s' "$name" plain $rc "$(seconds_since "$t0")" \
      "$(grep -E '^\[ +(PASSED|SKIPPED|FAILED) +\] [0-9]+ test' "$plog" | tr '\n' ' ')")")
  fi
  [ -n "$tools" ] || continue
  if [ -z "$sanitizer" ]; then
    summary+=("$(printf '%-28s %-10s compute-sanitizer not found' "$name" -)")
    status=1
    continue
  fi
  for tool in $tools; do
    tlog=$out/$name.$tool.log
    t0=$(date +%s%N)
    case $name:$tool in
      multisplit_tests*) filter=(--gtest_filter="$ms_filter") ;;
      sssp_gpu_tests:racecheck) filter=(--gtest_filter="$sssp_race_filter") ;;
      sssp_gpu_tests:*) filter=(--gtest_filter="$sssp_filter") ;;
      sssp_driver_tests:*) filter=(--gtest_filter="$driver_filter") ;;
      many_sources_gpu_tests:*) filter=(--gtest_filter="$many_filter") ;;
      *) filter=() ;;
    esac
    # The pieces: gtest shards, or (CHECK_PER_TEST=1) one test each, run $shards at a time.
    pieces=()
    if [ "$per_test" = 1 ]; then
      while IFS= read -r t; do pieces+=("$t"); done < <("$exe" --gtest_list_tests "${filter[@]}" |
        awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }')
    else
      for ((shard = 0; shard < shards; ++shard)); do pieces+=("shard $shard"); done
    fi
    echo "== $name under $tool (small size, ${#pieces[@]} pieces, $shards at a time) ${filter[*]}" >> "$log"
    rc=0 running=0
    for ((i = 0; i < ${#pieces[@]}; ++i)); do
      if [ "$per_test" = 1 ]; then
        args=(--gtest_filter="${pieces[i]}") env_piece=()
      else
        args=("${filter[@]}") env_piece=(GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i)
      fi
      if ! next_limit; then
        echo "not run: CHECK_DEADLINE reached" > "$tlog.$i"
        echo deadline > "$tlog.$i.rc"
        continue
      fi
      { env "${env_piece[@]}" DELTASPLIT_TEST_SIZE=small "${limit[@]}" "$sanitizer" --tool "$tool" --error-exitcode 99 \
          "$exe" --gtest_brief=1 "${args[@]}" > "$tlog.$i" 2>&1; echo $? > "$tlog.$i.rc"; } &
      if ((++running >= shards)); then wait -n; running=$((running - 1)); fi
    done
    while ((running > 0)); do wait -n; running=$((running - 1)); done
    : > "$tlog"
    errors=0 hazards=0 tests=0 missing=0 not_run=0
    for ((i = 0; i < ${#pieces[@]}; ++i)); do
      echo "-- ${pieces[i]}" >> "$tlog"
      cat "$tlog.$i" >> "$tlog"
      piece_rc=$(cat "$tlog.$i.rc" 2>/dev/null || echo 1)
      rm -f "$tlog.$i.rc"
      if [ "$piece_rc" = deadline ]; then
        not_run=$((not_run + 1))
        rm -f "$tlog.$i"
        continue
      fi
      # A shard that the filter left without tests runs no kernel: no summary, and the tool's exit
      # code is not the test's. It counts as empty, not as missing.
      if grep -qE '^\[  PASSED  \] 0 tests' "$tlog.$i" && ! grep -q FAILED "$tlog.$i"; then
        echo "-- ${pieces[i]}: no test in this piece" >> "$tlog"
        rm -f "$tlog.$i"
        continue
      fi
      [ "$piece_rc" = 0 ] || rc=$piece_rc
      # memcheck, synccheck and initcheck end with an ERROR SUMMARY, racecheck with a RACECHECK SUMMARY.
      e=$(grep -E "(ERROR|RACECHECK) SUMMARY: [0-9]+" "$tlog.$i" | tail -n 1 | grep -oE "[0-9]+ error" | grep -oE "[0-9]+")
      [ -n "$e" ] && errors=$((errors + e)) || { missing=$((missing + 1)); echo "-- ${pieces[i]}: no summary (timed out?)" >> "$tlog"; }
      h=$(grep -E "RACECHECK SUMMARY" "$tlog.$i" | tail -n 1 | grep -oE "[0-9]+ hazard" | grep -oE "[0-9]+")
      [ -n "$h" ] && hazards=$((hazards + h))
      t=$(grep -oE "^\[  PASSED  \] [0-9]+ test" "$tlog.$i" | grep -oE "[0-9]+")
      [ -n "$t" ] && tests=$((tests + t))
      rm -f "$tlog.$i"
    done
    cat "$tlog" >> "$log"
    [ $rc -eq 0 ] && [ $missing -eq 0 ] && [ $not_run -eq 0 ] || status=1
    summary+=("$(printf '%-28s %-10s exit %d, %s s, %d tests passed, errors: %d%s%s%s' "$name" "$tool" $rc \
      "$(seconds_since "$t0")" $tests $errors "$([ "$tool" = racecheck ] && echo " (hazards: $hazards)")" \
      "$([ $missing -gt 0 ] && echo ", $missing piece(s) without a summary")" \
      "$([ $not_run -gt 0 ] && echo ", $not_run piece(s) not run (CHECK_DEADLINE)")")")
  done
done
{
  echo "== check_gpu.sh summary ($(date -u), $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1))"
  printf '%s\n' "${summary[@]}"
} | tee -a "$log"
exit $status
