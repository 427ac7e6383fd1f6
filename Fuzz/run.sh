#!/usr/bin/env bash
# Fuzzes the trace reader, model and analysis with libFuzzer + AddressSanitizer.
#   Fuzz/run.sh [SECONDS]      (default 60)
# The corpus starts from the fixtures and example traces, one line or file each.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build-fuzz
mkdir -p "$out/corpus" "$out/crashes"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name NapkinTrace -package-name fuzz -swift-version 6 \
  $(find Sources/NapkinTrace -name '*.swift') Fuzz/TraceFuzzer.swift -o "$out/trace-fuzzer"
# Seed: whole traces and single lines.
for f in Examples/traces/*.ndjson Tests/Fixtures/traces/*.ndjson Tests/Fixtures/fuzz/*.ndjson; do
  [ -f "$f" ] || continue
  cp "$f" "$out/corpus/$(basename "$f")"
  split -l 1 -a 4 "$f" "$out/corpus/$(basename "$f" .ndjson)-line-"
done
"$out/trace-fuzzer" "$out/corpus" -max_total_time="$seconds" -max_len=4096 \
  -artifact_prefix="$out/crashes/" -print_final_stats=1 2>&1 | tail -n 25
