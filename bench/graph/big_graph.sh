#!/usr/bin/env bash
# The biggest-graph pipeline of issue 13, stage by stage: each stage's wall time, its peak resident
# host memory (the largest ru_maxrss among the stage's processes, read through python3's resource
# module) and the peak GPU memory in use during it (nvidia-smi polled every 0.25 s, less what was in
# use before; "-" without a GPU), per arc of the graph:
#   bench/graph/big_graph.sh DELTASPLIT SCALE EDGE_FACTOR WORK_DIR OUT.md
# e.g. bench/graph/big_graph.sh build-h200/deltasplit 28 22 /tmp/big big.md on the GPU machine
# (5.84e9 arcs at seed 1: bench/RESULTS.md). Stages:
#   generate   deltasplit generate rmat (Graph500) -> WORK_DIR/rmat-SCALE-EDGE_FACTOR.dsg
#   info       deltasplit info on the cache (its arcs are the table's per-arc divisor)
#   convert    deltasplit convert CACHE - --format edges, counted by `wc -c`: the edge-list text
#              streamed, not stored (next to a 49 GB cache, a 100 GB text copy does not fit the
#              GPU machine's 64 GB disk)
#   sssp       deltasplit sssp CACHE --source 0 --runs 3 --validate (the GPU when there is one)
# Writes OUT.md (a table) and OUT.md.log (every stage's output); the cache is left in WORK_DIR.
# BIG_STAGES (a knob of this script only; default "generate info convert sssp") runs a subset, so
# that the stages can be split over several calls of a machine that limits a call's time: info
# always runs when another stage does (its arcs are the divisor). A cache already in WORK_DIR is
# kept, not generated again.
set -uo pipefail
exe=${1:?usage: big_graph.sh DELTASPLIT SCALE EDGE_FACTOR WORK_DIR OUT.md}
scale=${2:?scale} factor=${3:?edge factor} work=${4:?work dir} out=${5:?OUT.md}
mkdir -p "$work"
cache=$work/rmat-$scale-$factor.dsg
log=$out.log
: > "$log"
arcs=0
rows=()

gpu_used() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -n 1; }

# stage NAME COMMAND: runs COMMAND (a bash command line) and records the row.
stage() {
  local name=$1 command=$2 base peak_gpu=- poll= result
  base=$(gpu_used)
  if [ -n "$base" ]; then
    (peak=0; while :; do u=$(gpu_used); [ -n "$u" ] && [ "$u" -gt "$peak" ] && peak=$u && echo "$peak" > "$work/.gpu_peak"; sleep 0.25; done) &
    poll=$!
    echo "$base" > "$work/.gpu_peak"
  fi
  echo "== $name: $command" >> "$log"
  result=$(python3 - "$command" <<'EOF' 2>> "$log"
import resource, subprocess, sys, time
t0 = time.monotonic()
p = subprocess.run(["bash", "-o", "pipefail", "-c", sys.argv[1]], capture_output=True, text=True)
wall = time.monotonic() - t0
sys.stderr.write(p.stdout + p.stderr)
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
last = [l for l in (p.stdout or p.stderr).splitlines() if l.strip()]
print(f"{p.returncode}\t{wall:.1f}\t{kib}\t{last[-1] if last else ''}")
EOF
)
  if [ -n "$poll" ]; then
    kill "$poll" 2>/dev/null; wait "$poll" 2>/dev/null
    peak_gpu=$(( $(cat "$work/.gpu_peak") - base ))
    rm -f "$work/.gpu_peak"
  fi
  local rc wall kib line
  IFS=$'\t' read -r rc wall kib line <<< "$result"
  echo "== $name: exit $rc after $wall s, peak host $kib KiB, peak GPU $peak_gpu MiB" | tee -a "$log"
  rows+=("$name|$rc|$wall|$kib|$peak_gpu|$line")
  [ "$rc" = 0 ]
}

stages=" ${BIG_STAGES:-generate info convert sssp} "
wants() { [[ $stages == *" $1 "* ]]; }
if [ -f "$cache" ]; then
  echo "== generate: $cache exists, kept" | tee -a "$log"
elif ! wants generate; then
  echo "== generate: not in BIG_STAGES and $cache missing" | tee -a "$log"
  exit 1
else
  stage generate "'$exe' generate rmat --scale $scale --edge-factor $factor --preset graph500 --seed 1 -o '$cache'" ||
    { echo "generation failed; see $log"; exit 1; }
fi
stage info "'$exe' info '$cache'"
arcs=$(grep -oE '^arcs: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+')
wants convert && stage convert "'$exe' convert '$cache' - --format edges | wc -c"
wants sssp && stage sssp "'$exe' sssp '$cache' --source 0 --runs 3 --validate"

{
  echo "R-MAT scale $scale, edge factor $factor (Graph500, seed 1): ${arcs:-?} arcs; $(date -u +%F), $(gpu_used >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 || echo 'no GPU')"
  echo
  echo "| stage | exit | wall s | peak host | B/arc | peak GPU | B/arc | last line |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
  for r in "${rows[@]}"; do
    IFS='|' read -r name rc wall kib gpu line <<< "$r"
    awk -v n="$name" -v rc="$rc" -v w="$wall" -v k="$kib" -v g="$gpu" -v a="${arcs:-0}" -v l="$line" 'BEGIN {
      host = k * 1024; dev = (g == "-") ? -1 : g * 1048576
      per_host = "-"; gpu = "-"; per_gpu = "-"
      if (a > 0) per_host = sprintf("%.1f", host / a)
      if (dev >= 0) gpu = sprintf("%.2f GB", dev / 1e9)
      if (dev >= 0 && a > 0) per_gpu = sprintf("%.1f", dev / a)
      printf "| %s | %s | %s | %.2f GB | %s | %s | %s | %s |\n", n, rc, w, host / 1e9, per_host, gpu, per_gpu, l }'
  done
} > "$out"
cat "$out"
