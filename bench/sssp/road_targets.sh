#!/usr/bin/env bash
# Issue 9's target set on one GPU, for one or more deltasplit binaries side by side: the road
# graphs (USA-road-d.NY, road-FLA), the bundled denser graphs (soc-slashdot0902, cit-HepPh,
# chicago-regional), Kronecker 20, the 4000 x 4000 grid and Kronecker 25. Every binary solves every
# graph in turn, TARGET_PASSES times (alternation: a drift of the card's clocks hits each binary
# alike), so the ratios between them are of one card and one call; a binary of an earlier commit
# (`make h200` in a worktree of it) is the baseline.
#   bench/sssp/road_targets.sh OUT_DIR NAME=BINARY [NAME=BINARY ...]
#   bench/sssp/road_targets.sh /tmp/targets now=build-h200/deltasplit base=/tmp/ed73620/deltasplit
# Run from the repository root (the bundled graphs are read from datasets/). The generated graphs
# are written by the first binary (`deltasplit generate`, the same graph for every binary) into
# TARGET_WORK; Kronecker 25 takes 8.7 GB there, about a minute to generate on 16 cores, and
# about 40 GB of host memory while it is built.
# Figures: `deltasplit sssp GRAPH TARGET_ARGS --random-sources S --seed 7 --runs R [--validate]`,
# the median over S sources of each source's median of R solves, every solve validated against
# Dijkstra except Kronecker 25's (1.05e9 arcs: minutes of Dijkstra a source; the GPU tests check the
# loop's exactness). S x R: 10 x 5, the grid 3 x 3, Kronecker 25 3 x 3.
# Output: OUT_DIR/targets.md (the card, the binaries, one row a graph, each cell the passes'
# medians in ms, "MISMATCH" or "error" where a run was not clean) and OUT_DIR/targets.log (every
# line the runs printed). Exit status 1 when any run was not clean.
# Knobs of this script only (the library reads no environment):
#   TARGET_PASSES=2                                    times each binary solves each graph
#   TARGET_GRAPHS="ny fla slashdot cit-hepph chicago kron20 grid kron25"   a subset, in this order
#   TARGET_ARGS="--strategy near-far"                  passed to every solve (e.g. --driver steps)
#   TARGET_WORK=OUT_DIR/graphs                         where the generated graphs are kept
#   TARGET_TIMEOUT=300                                 seconds a run may take (exit 124: "error")
set -uo pipefail
out=${1:?usage: bench/sssp/road_targets.sh OUT_DIR NAME=BINARY [NAME=BINARY ...]}
shift
[ $# -ge 1 ] || { echo "usage: bench/sssp/road_targets.sh OUT_DIR NAME=BINARY [NAME=BINARY ...]" >&2; exit 2; }
names=() bins=()
for spec in "$@"; do
  name=${spec%%=*} bin=${spec#*=}
  if [ "$name" = "$spec" ] || [ -z "$name" ] || [ ! -x "$bin" ]; then
    echo "road_targets.sh: '$spec': expected NAME=BINARY with BINARY an executable deltasplit" >&2
    exit 2
  fi
  names+=("$name") bins+=("$bin")
done
passes=${TARGET_PASSES:-2}
graphs=${TARGET_GRAPHS:-ny fla slashdot cit-hepph chicago kron20 grid kron25}
read -r -a args <<< "${TARGET_ARGS:---strategy near-far}"
work=${TARGET_WORK:-$out/graphs}
limit=${TARGET_TIMEOUT:-300}
mkdir -p "$out" "$work"
log=$out/targets.log
: > "$log"
status=0

# graph key -> file, solve options, issue 9's bar (H200), the label in the table
declare -A file opts bar label
file[ny]=datasets/USA-road-d.NY.gr.gz        label[ny]="USA-road-d.NY"          bar[ny]="<= 2.0 ms"
file[fla]=datasets/road-FLA.mtx.gz           label[fla]="road-FLA [0, 1000]"    bar[fla]="<= 5.0 ms"
file[slashdot]=datasets/soc-slashdot0902.mtx.gz label[slashdot]="soc-slashdot0902" bar[slashdot]="no slower than 0.86 ms"
file[cit-hepph]=datasets/cit-HepPh.mtx.gz    label[cit-hepph]="cit-HepPh"       bar[cit-hepph]=""
file[chicago]=datasets/chicago-regional.mtx.gz label[chicago]="chicago-regional" bar[chicago]=""
file[kron20]=$work/kron20.dsg                label[kron20]="Kronecker 20"       bar[kron20]="no slower than 3.9 ms"
file[grid]=$work/grid4000.dsg                label[grid]="4000 x 4000 grid"     bar[grid]="<= 40 ms"
file[kron25]=$work/kron25.dsg                label[kron25]="Kronecker 25"       bar[kron25]="no slower than 62.7 ms"
for g in ny fla slashdot cit-hepph chicago kron20; do opts[$g]="--random-sources 10 --seed 7 --runs 5 --validate"; done
opts[grid]="--random-sources 3 --seed 7 --runs 3 --validate"
opts[kron25]="--random-sources 3 --seed 7 --runs 3"
declare -A make_graph=(
  [kron20]="generate rmat --scale 20 --undirected"
  [grid]="generate grid --rows 4000 --cols 4000"
  [kron25]="generate rmat --scale 25 --undirected"
)

declare -A cell
for g in $graphs; do
  if [ -z "${file[$g]:-}" ]; then
    echo "road_targets.sh: unknown graph '$g' (ny fla slashdot cit-hepph chicago kron20 grid kron25)" >&2
    exit 2
  fi
  if [ -n "${make_graph[$g]:-}" ] && [ ! -f "${file[$g]}" ]; then
    echo "== $g: ${bins[0]} ${make_graph[$g]} -o ${file[$g]}" | tee -a "$log"
    # shellcheck disable=SC2086
    if ! "${bins[0]}" ${make_graph[$g]} -o "${file[$g]}" >> "$log" 2>&1; then
      echo "road_targets.sh: could not generate $g (see $log)" >&2
      exit 1
    fi
  fi
  for ((pass = 1; pass <= passes; ++pass)); do
    for i in "${!bins[@]}"; do
      echo "== $g ${names[$i]} pass $pass: ${bins[$i]} sssp ${file[$g]} ${args[*]} ${opts[$g]}" >> "$log"
      # shellcheck disable=SC2086
      text=$(timeout "$limit" "${bins[$i]}" sssp "${file[$g]}" "${args[@]}" ${opts[$g]} 2>&1)
      rc=$?
      echo "$text" >> "$log"
      median=$(echo "$text" | sed -n 's/^median over [0-9]* sources: \([0-9.]*\) ms$/\1/p' | head -1)
      if [ $rc -eq 3 ] || echo "$text" | grep -q MISMATCH; then
        median=MISMATCH
      elif [ $rc -ne 0 ] || [ -z "$median" ]; then
        median="error ($rc)"
      fi
      case $median in MISMATCH | error*) status=1 ;; esac
      cell[$g,$i]="${cell[$g,$i]:+${cell[$g,$i]} / }$median"
      echo "$g ${names[$i]} pass $pass: $median"
    done
  done
done

{
  echo "# Issue 9's target set, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "Card: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')."
  echo "Solves: \`${args[*]}\`; $passes passes, each binary in turn. Binaries:"
  for i in "${!bins[@]}"; do echo "- ${names[$i]}: \`${bins[$i]}\`"; done
  echo
  header="| graph |" rule="|---|"
  for name in "${names[@]}"; do header+=" $name (ms) |" rule+="---:|"; done
  echo "$header issue 9's bar (H200) |"
  echo "$rule---|"
  for g in $graphs; do
    row="| ${label[$g]} |"
    for i in "${!bins[@]}"; do row+=" ${cell[$g,$i]} |"; done
    echo "$row ${bar[$g]} |"
  done
} > "$out/targets.md"
cat "$out/targets.md"
exit $status
