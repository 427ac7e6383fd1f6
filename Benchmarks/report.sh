#!/usr/bin/env bash
# The HTML report on a trace of about a million events (napkin-bench's
# generated RibHouse-like trace): the time and peak memory to write it, its
# size, and the time its script takes to run in headless Chromium (the page
# records it as <body data-load-ms>), three times each.
#   Benchmarks/report.sh [CYCLES]     (default 90000: about 1,080,000 events)
set -euo pipefail
cd "$(dirname "$0")/.."
cycles=${1:-90000}
swift build -c release > /dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir" /tmp/napkin-bench-report-$$.ndjson' EXIT
trace=$(.build/release/napkin-bench reader --shape ribhouse --cycles "$cycles" --keep --no-jq | sed -n 's/^trace: \(.*\) (kept)$/\1/p')
mv "$trace" "/tmp/napkin-bench-report-$$.ndjson"
trace="/tmp/napkin-bench-report-$$.ndjson"
echo "trace: $(.build/release/napkin-inspect stats "$trace" | head -1)"
for run in 1 2 3; do
  /usr/bin/time -f "report: %e s, peak %M KiB" .build/release/napkin-inspect report "$trace" -o "$dir/report.html" 2>&1 | grep '^report:'
done
echo "page: $(du -h "$dir/report.html" | cut -f1)"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then echo "chromium not found: the page's script was not timed"; exit 0; fi
for run in 1 2 3; do
  ms=$("$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$dir/profile" --dump-dom "file://$dir/report.html" 2>/dev/null \
    | grep -o 'data-load-ms="[0-9]*"' | grep -o '[0-9]*')
  echo "script in Chromium: ${ms} ms"
done
