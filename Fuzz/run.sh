#!/usr/bin/env bash
# Fuzzes the trace reader, model and analysis, and napkin-inspect's renderers
# and subcommands, with libFuzzer + AddressSanitizer.
#   Fuzz/run.sh [SECONDS]      (default 60)
# NapkinLibc, NapkinTrace and NapkinTraceReader are built as modules of their own; the CLI's sources (all but
# main.swift) are built with the fuzz target into one binary. The corpus starts
# from the fixtures, the example traces, the hostile corpus and earlier fuzzer
# finds (Tests/Fixtures/fuzz), one file and one line each. Crashes are written
# to .build-fuzz/crashes/; keep each as a fixture in Tests/Fixtures/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
# A crash is reported by libFuzzer and AddressSanitizer; Swift's own backtracer would only slow it down.
export SWIFT_BACKTRACE=enable=no
out=.build-fuzz
mkdir -p "$out/corpus" "$out/crashes" "$out/modules"
flags=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6)
log="$out/build.log"
build() { "$@" > "$log" 2>&1 || { cat "$log"; exit 1; }; }
build swiftc "${flags[@]}" -module-name NapkinLibc -package-name fuzz -wmo -c \
  -emit-module -emit-module-path "$out/modules/NapkinLibc.swiftmodule" \
  Sources/NapkinLibc/NapkinLibc.swift -o "$out/NapkinLibc.o"
build swiftc "${flags[@]}" -module-name NapkinTrace -package-name fuzz -wmo -c -num-threads 0 -I "$out/modules" \
  -emit-module -emit-module-path "$out/modules/NapkinTrace.swiftmodule" \
  $(find Sources/NapkinTrace -name '*.swift') -o "$out/NapkinTrace.o"
build swiftc "${flags[@]}" -module-name NapkinTraceReader -package-name fuzz -wmo -c -num-threads 0 -I "$out/modules" \
  -emit-module -emit-module-path "$out/modules/NapkinTraceReader.swiftmodule" \
  $(find Sources/NapkinTraceReader -name '*.swift') -o "$out/NapkinTraceReader.o"
# The report's assets as SwiftPM's embedInCode makes them (Package.swift): one byte array each.
{
  echo "struct PackageResources {"
  for asset in Sources/napkin-inspect/Render/Report/Assets/*; do
    printf 'static let %s: [UInt8] = [' "$(basename "$asset" | tr '.-' '__')"
    od -An -v -tu1 "$asset" | tr -s ' \n' ',,' | sed 's/^,//; s/,$//'
    echo "]"
  done
  echo "}"
} > "$out/embedded_resources.swift"
build swiftc "${flags[@]}" -module-name napkin_inspect -package-name fuzz -I "$out/modules" "$out/NapkinLibc.o" "$out/NapkinTrace.o" "$out/NapkinTraceReader.o" \
  $(find Sources/napkin-inspect -name '*.swift' ! -name main.swift) "$out/embedded_resources.swift" Fuzz/TraceFuzzer.swift Fuzz/CLIFuzzing.swift \
  -o "$out/trace-fuzzer"
# Seed: whole traces and single lines.
for f in Examples/traces/*.ndjson Tests/Fixtures/traces/*.ndjson Tests/Fixtures/fuzz/*.ndjson Tests/Fixtures/hostile/*; do
  [ -f "$f" ] || continue
  case "$f" in *.json) continue;; esac
  name=$(basename "$f")
  cp "$f" "$out/corpus/$name"
  split -l 1 -a 4 "$f" "$out/corpus/${name%.*}-line-"
done
"$out/trace-fuzzer" "$out/corpus" -max_total_time="$seconds" -max_len=4096 -close_fd_mask=3 \
  -artifact_prefix="$out/crashes/" -print_final_stats=1 2>&1 | tail -n 25
