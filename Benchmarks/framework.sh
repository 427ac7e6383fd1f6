#!/usr/bin/env bash
# The framework benchmark, in one command: an attach/activate/load/detach/
# deactivate cycle with tracing off, compared with the same code built with
# every trace hook removed (-DNAPKIN_NO_TRACE_HOOKS), and with the NDJSON sink
# on. Both builds are release builds, run alternately in this one run; the
# results are ratios of medians (wall time and CPU time), never absolute times.
#   Benchmarks/framework.sh [RUNS]     (default 7 runs of each build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
echo "building (release): with hooks, and with hooks removed" >&2
swift build -c release --product napkin-bench >/dev/null
swift build -c release --product napkin-bench --scratch-path .build-nohooks -Xswiftc -DNAPKIN_NO_TRACE_HOOKS >/dev/null
with=.build/release/napkin-bench
without=.build-nohooks/release/napkin-bench
hw=(); hc=(); bw=(); bc=(); ratios=()
field() { awk -v k="$1" '$1 == k {print $2}'; }
for i in $(seq "$runs"); do
  out=$("$with" framework --cycles 20000 --rounds 3)
  hw+=("$(field FRAMEWORK_OFF_WALL_NS <<<"$out")"); hc+=("$(field FRAMEWORK_OFF_CPU_NS <<<"$out")")
  ratios+=("$(echo "$out" | awk '/ratio on\/off/ {print $3}' | tr -d x)")
  out=$("$without" framework --cycles 20000 --rounds 3)
  bw+=("$(field FRAMEWORK_OFF_WALL_NS <<<"$out")"); bc+=("$(field FRAMEWORK_OFF_CPU_NS <<<"$out")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "framework cycle: create child, attach (activate, load), detach (deactivate), release"
echo "  (medians of $runs alternating runs of each build; each run: 3 rounds of 20,000 cycles)"
awk -v h="$(median "${hw[@]}")" -v b="$(median "${bw[@]}")" -v hc="$(median "${hc[@]}")" -v bc="$(median "${bc[@]}")" 'BEGIN {
  printf "  hooks removed:        %6d ns/cycle wall, %6d ns/cycle CPU\n", b, bc
  printf "  tracing off:          %6d ns/cycle wall, %6d ns/cycle CPU\n", h, hc
  printf "  off / hooks removed:  %.3fx wall, %.3fx CPU (target: within 5%%)\n", h / b, hc / bc }'
echo "  NDJSON on / off:      $(median "${ratios[@]}")x wall (target: at most 1.5x)"
