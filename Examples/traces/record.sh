#!/bin/sh
# Records the example traces of this folder: RibHouse's clean run and one run
# per bug, at speed 1, from the debug build. Run from the repository root:
#     swift build && Examples/traces/record.sh
# Recordings differ from run to run in ids only where timing decides, and in
# times, pids and wall clocks; the tests check findings, not exact bytes
# (README examples that quote them must be refreshed after re-recording).
set -eu
cd "$(dirname "$0")/../.."
ribhouse=.build/debug/rib-house
[ -x "$ribhouse" ] || { echo "record.sh: build first (swift build)" >&2; exit 1; }
record() {
    out=Examples/traces/$1.ndjson
    shift
    rm -f "$out"
    NAPKIN_TRACE="$out" "$ribhouse" --quiet "$@"
    echo "recorded $out ($(wc -l < "$out") events)"
}
record clean
for bug in $("$ribhouse" --list-bugs | awk '/^[a-z]/ { print $1 }'); do
    record "bug-$bug" --bug "$bug"
done
