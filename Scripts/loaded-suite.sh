#!/usr/bin/env bash
# Runs the test suite on a machine made busy on purpose: two busy loops hold
# both cores (a loaded CI runner) while `swift test` and then
# `swift test --sanitize=thread` run, ROUNDS times each (default 3). Every run
# must pass; the script stops at the first failure and keeps its log.
#
#   Scripts/loaded-suite.sh [ROUNDS] [LOOPS]
#
# Not part of .ci/run (it takes ROUNDS times the suite's two passes, about
# 20 minutes a round on 2 cores). Logs go to .build-loaded/; the last lines
# of each run are printed with its time. LOOPS (default 2) is how many busy
# loops run: one per core of a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
loops=${2:-2}
logs=.build-loaded
mkdir -p "$logs"

echo "loaded-suite: building (plain and thread sanitizer) before the busy loops start"
swift build --build-tests > "$logs/build.log" 2>&1 || { tail -20 "$logs/build.log"; exit 1; }
swift build --build-tests --sanitize=thread --scratch-path .build-tsan > "$logs/build-tsan.log" 2>&1 || { tail -20 "$logs/build-tsan.log"; exit 1; }

hogs=()
stop_hogs() { for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq "$loops"); do
  ( while :; do :; done ) &
  hogs+=("$!")
done
echo "loaded-suite: $loops busy loops (pids ${hogs[*]}) on $(nproc) cores; $rounds rounds"

failures=0
for round in $(seq "$rounds"); do
  for pass in plain tsan; do
    log="$logs/round$round-$pass.log"
    start=$(date +%s)
    if [ "$pass" = plain ]; then
      set +e; swift test --skip-build > "$log" 2>&1; status=$?; set -e
    else
      set +e; swift test --skip-build --sanitize=thread --scratch-path .build-tsan > "$log" 2>&1; status=$?; set -e
      if grep -q "WARNING: ThreadSanitizer" "$log"; then status=99; fi
    fi
    took=$(( $(date +%s) - start ))
    summary=$(grep -a "Test run with" "$log" | tail -1)
    echo "round $round $pass: exit $status in ${took}s: $summary"
    if [ "$status" -ne 0 ]; then
      failures=$((failures + 1))
      grep -E "✘|error:|WARNING: ThreadSanitizer" "$log" | head -20
      echo "loaded-suite: FAILED (log: $log)"
      exit 1
    fi
  done
done
echo "loaded-suite: $((rounds * 2)) runs, $failures failed"
