#!/usr/bin/env bash
# live over sockets, in one command: how fast a traced app's events reach
# `napkin-inspect live --listen` (TCP on loopback and a unix socket), next to
# the same app writing its trace to a file in the same run, and the
# inspector's peak memory while 20 apps stream to it at once.
#   Benchmarks/socket.sh [MARKS]      (default 1,000,000 marks of 100 bytes)
# The app is TraceProbe's flood mode: marks as fast as it can emit them. The
# app never waits for its inspector: when the inspector falls behind, the
# trace writer's queue fills and events are dropped and counted (a `dropped`
# record). So the figures are events delivered, events dropped, and the time
# from the app's start to the inspector's summary. Peak memory is VmHWM from
# /proc (Linux only).
set -euo pipefail
cd "$(dirname "$0")/.."
marks=${1:-1000000}
echo "building (release): napkin-inspect, TraceProbe, rib-house" >&2
swift build -c release --product napkin-inspect >/dev/null
swift build -c release --product TraceProbe >/dev/null
swift build -c release --product rib-house >/dev/null
bin=.build/release
work=$(mktemp -d "${TMPDIR:-/tmp}/napkin-socket-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
peak() { awk '/VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }

# Starts `live --listen ADDRESS` off a terminal; sets INSPECTOR and NAPKIN_TRACE.
listen() {
  rm -f "$work/err"
  "$bin/napkin-inspect" live --listen "$1" --sessions "$2" > "$work/out" 2> "$work/err" &
  INSPECTOR=$!
  until grep -q 'listening on' "$work/err" 2>/dev/null; do sleep 0.02; done
  NAPKIN_TRACE=$(sed -n 's/.*NAPKIN_TRACE=\([^ ]*\).*/\1/p' "$work/err" | head -n 1)
}

# Runs the flood to NAPKIN_TRACE=$1 (waiting for the inspector if one is listening);
# prints: seconds, events delivered, events dropped, MB.
flood() {
  local start end
  start=$(now)
  NAPKIN_TRACE="$1" "$bin/TraceProbe" flood "$marks" 100 bench 2>/dev/null
  if [ -n "${INSPECTOR:-}" ]; then
    local hw=0
    while kill -0 "$INSPECTOR" 2>/dev/null; do p=$(peak "$INSPECTOR"); [ -n "$p" ] && hw=$p; sleep 0.02; done
    wait "$INSPECTOR" || true
    end=$(now)
    events=$(sed -n 's/.*(\([0-9,]*\) events)$/\1/p' "$work/out" | head -n 1 | tr -d ,)
    echo "$start $end ${events:-0} $hw"
  else
    end=$(now)
    events=$(grep -c '' "$2")
    echo "$start $end $events 0"
  fi
}

printf '%-28s %10s %12s %14s %10s %12s\n' destination seconds events "events/s" "MB/s" "peak MiB"
report() {
  awk -v name="$1" -v s="$2" -v e="$3" -v n="$4" -v hw="$5" -v bytes="$6" 'BEGIN {
    t = e - s; printf "%-28s %10.2f %12d %14d %10.1f %12s\n", name, t, n, n / t, bytes / t / 1e6, (hw > 0 ? sprintf("%.1f", hw / 1024) : "-") }'
}
INSPECTOR=""
read -r s e n hw < <(flood "$work/file.ndjson" "$work/file.ndjson")
bytes=$(wc -c < "$work/file.ndjson")
report "file (for comparison)" "$s" "$e" "$n" "$hw" "$bytes"
per_event=$((bytes / (n > 0 ? n : 1)))
listen 0 1
read -r s e n hw < <(flood "$NAPKIN_TRACE")
report "tcp 127.0.0.1 → live" "$s" "$e" "$n" "$hw" $((n * per_event))
listen "unix:$work/napkin.sock" 1
read -r s e n hw < <(flood "$NAPKIN_TRACE")
report "unix socket → live" "$s" "$e" "$n" "$hw" $((n * per_event))
echo "(events: delivered to the inspector, of $((marks + 2)) emitted; the rest were dropped and counted by the app)"

echo
echo "20 rib-house apps (--loop 3 --speed 5) streaming to one live --listen at once:"
listen 0 20
pids=""
for i in $(seq 20); do NAPKIN_TRACE="$NAPKIN_TRACE" "$bin/rib-house" --loop 3 --speed 5 --quiet 2>/dev/null & pids="$pids $!"; done
hw=0
while kill -0 "$INSPECTOR" 2>/dev/null; do p=$(peak "$INSPECTOR"); [ -n "$p" ] && hw=$p; sleep 0.02; done
wait "$INSPECTOR" || true
wait $pids
clean=$(grep -c '^No findings\.$' "$work/out" || true)
awk -v hw="$hw" -v clean="$clean" 'BEGIN { printf "  sessions clean: %d of 20; inspector peak memory: %.1f MiB\n", clean, hw / 1024 }'
