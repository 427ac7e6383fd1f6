#!/usr/bin/env bash
# The retainer search's stress harness on a build of its own (release by
# default): TraceProbe's `retainer-stress` mode, many processes per shape,
# counting crashes of the app and false results (a path that was not there,
# more references found than counted). Exits 1 on any. The same harness runs
# in debug in `swift test` (RetainerStressTests); docs/detect.md says what
# each shape does. Usage:
#   Scripts/retainer-stress.sh [PROCESSES [SEARCHES [CONFIGURATION]]]
# (defaults: 4 processes of 25 searches per shape, release).
set -euo pipefail
cd "$(dirname "$0")/.."
processes=${1:-4}
searches=${2:-25}
configuration=${3:-release}
swift build -c "$configuration" --product TraceProbe > /dev/null
probe="$(swift build -c "$configuration" --show-bin-path)/TraceProbe"
crashes=0; false_results=0; ok=0; none=0; total=0
for shape in cache moved mirror; do
  for ((i = 0; i < processes; i++)); do
    set +e
    out=$("$probe" retainer-stress "$shape" "$searches" 2>/dev/null)
    status=$?
    set -e
    if [ "$status" -ne 0 ] || [ "$(tail -n1 <<<"$out")" != "done" ]; then
      crashes=$((crashes + 1))
      echo "crash: $shape, exit status $status" >&2
    fi
    false_results=$((false_results + $(grep -c '^search false' <<<"$out" || true)))
    ok=$((ok + $(grep -c '^search ok' <<<"$out" || true)))
    none=$((none + $(grep -c '^search none' <<<"$out" || true)))
    total=$((total + searches))
    grep '^search false' <<<"$out" >&2 || true
  done
done
echo "retainer stress ($configuration): $total searches in $((3 * processes)) processes: $ok found the path, $none found none (said why), $false_results false, $crashes crashed"
[ "$crashes" -eq 0 ] && [ "$false_results" -eq 0 ]
