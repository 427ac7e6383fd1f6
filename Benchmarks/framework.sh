#!/usr/bin/env bash
# The framework benchmark, in one command: an attach/activate/load/detach/
# deactivate cycle with tracing off, compared with the same code built with
# every trace hook removed (-DNAPKIN_NO_TRACE_HOOKS), and with the NDJSON sink
# on, for a child with default hooks and one with hooks (see
# FrameworkBenchmark.swift). Both builds are release builds, run alternately
# in this one run; the results are ratios of medians (wall time and CPU
# time), never absolute times.
#   Benchmarks/framework.sh [RUNS]     (default 7 runs of each build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
echo "building (release): with hooks, and with hooks removed" >&2
swift build -c release --product napkin-bench >/dev/null
swift build -c release --product napkin-bench --scratch-path .build-nohooks -Xswiftc -DNAPKIN_NO_TRACE_HOOKS >/dev/null
with=.build/release/napkin-bench
without=.build-nohooks/release/napkin-bench
field() { awk -v k="$1" '$1 == k {print $2}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "framework cycle: create child, attach (activate, load), detach (deactivate), release"
echo "  (medians of $runs alternating runs of each build; each run: 3 rounds of 20,000 cycles)"
for child in FRAMEWORK FRAMEWORK_HOOKED; do
  flag=--default-hooks; [ "$child" = FRAMEWORK_HOOKED ] && flag=--with-hooks
  hw=(); hc=(); bw=(); bc=(); ratios=()
  for i in $(seq "$runs"); do
    out=$("$with" framework --cycles 20000 --rounds 3 "$flag")
    hw+=("$(field "${child}_OFF_WALL_NS" <<<"$out")"); hc+=("$(field "${child}_OFF_CPU_NS" <<<"$out")")
    ratios+=("$(field "${child}_ON_OFF_WALL" <<<"$out")")
    out=$("$without" framework --cycles 20000 --rounds 3 "$flag")
    bw+=("$(field "${child}_OFF_WALL_NS" <<<"$out")"); bc+=("$(field "${child}_OFF_CPU_NS" <<<"$out")")
  done
  [ "$child" = FRAMEWORK ] && echo "  child with default hooks:" || echo "  child with hooks:"
  awk -v h="$(median "${hw[@]}")" -v b="$(median "${bw[@]}")" -v hc="$(median "${hc[@]}")" -v bc="$(median "${bc[@]}")" 'BEGIN {
    printf "    hooks removed:        %6d ns/cycle wall, %6d ns/cycle CPU\n", b, bc
    printf "    tracing off:          %6d ns/cycle wall, %6d ns/cycle CPU\n", h, hc
    printf "    off / hooks removed:  %.3fx wall, %.3fx CPU (target: within 5%%)\n", h / b, hc / bc }'
  echo "    NDJSON on / off:      $(median "${ratios[@]}")x wall"
  echo "${child}_OFF_OVER_REMOVED $(awk -v h="$(median "${hw[@]}")" -v b="$(median "${bw[@]}")" 'BEGIN {printf "%.3f", h / b}')"
  echo "${child}_ON_OFF_WALL_MEDIAN $(median "${ratios[@]}")"
done
