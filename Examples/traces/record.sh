#!/bin/sh
# Records the example traces of this folder: RibHouse's clean run and one run
# per bug, at speed 1, from the debug build. Run from the repository root:
#     swift build && Examples/traces/record.sh
# or name the ones to record again (the others are left as they are):
#     Examples/traces/record.sh bug-prefetch-leak
# A bug that shows over rounds is played in rounds (prefetch-leak: --loop 3;
# check it with --rounds round).
# Each run has its detector on, quietly (NAPKIN_DETECT=quiet NAPKIN_RETAINERS=on,
# as `check -- CMD` runs a command): a leak's trace carries what retained it
# (a `retained` record), which `check` of the file then shows.
# Recordings differ from run to run in ids only where timing decides, and in
# times, pids and wall clocks; the tests check findings, not exact bytes
# (README examples that quote them must be refreshed after re-recording).
set -eu
cd "$(dirname "$0")/../.."
ribhouse=.build/debug/rib-house
[ -x "$ribhouse" ] || { echo "record.sh: build first (swift build)" >&2; exit 1; }
only=" $* "
record() {
    case "$only" in
        "  " | *" $1 "*) ;;
        *) return 0 ;;
    esac
    out=Examples/traces/$1.ndjson
    shift
    rm -f "$out"
    NAPKIN_TRACE="$out" NAPKIN_DETECT=quiet NAPKIN_RETAINERS=on "$ribhouse" --quiet "$@"
    echo "recorded $out ($(wc -l < "$out") events)"
}
record clean
for bug in $("$ribhouse" --list-bugs | awk '/^[a-z]/ { print $1 }'); do
    case "$bug" in
        prefetch-leak) record "bug-$bug" --bug "$bug" --loop 3 ;;
        *) record "bug-$bug" --bug "$bug" ;;
    esac
done
