#!/usr/bin/env bash
# The framework benchmark, in one command: an attach/activate/load/detach/
# deactivate cycle with tracing off, compared with the same code built with
# every trace hook removed (-DNAPKIN_NO_TRACE_HOOKS), and with the NDJSON sink
# on. Both builds are release builds, run alternately in this one run; the
# result is the ratio of medians, never an absolute time.
#   Benchmarks/framework.sh [RUNS]     (default 7 runs of each build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
echo "building (release): with hooks, and with hooks removed" >&2
swift build -c release --product napkin-bench >/dev/null
swift build -c release --product napkin-bench --scratch-path .build-nohooks -Xswiftc -DNAPKIN_NO_TRACE_HOOKS >/dev/null
with=.build/release/napkin-bench
without=.build-nohooks/release/napkin-bench
hooks=(); bare=(); ratios=()
for i in $(seq "$runs"); do
  out=$("$with" framework --cycles 20000 --rounds 3)
  hooks+=("$(echo "$out" | awk '/^FRAMEWORK_OFF_NS/ {print $2}')")
  ratios+=("$(echo "$out" | awk '/ratio on\/off/ {print $3}' | tr -d x)")
  bare+=("$("$without" framework --cycles 20000 --rounds 3 | awk '/^FRAMEWORK_OFF_NS/ {print $2}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
h=$(median "${hooks[@]}"); b=$(median "${bare[@]}"); r=$(median "${ratios[@]}")
echo "framework cycle: create child, attach (activate, load), detach (deactivate), release"
echo "  hooks removed:        $b ns CPU/cycle (median of $runs runs)"
echo "  tracing off:          $h ns CPU/cycle"
awk -v h="$h" -v b="$b" 'BEGIN { printf "  off / hooks removed:  %.3fx (target: within 5%%, i.e. at most 1.05x)\n", h / b }'
echo "  NDJSON on / off:      ${r}x (target: at most 1.5x)"
