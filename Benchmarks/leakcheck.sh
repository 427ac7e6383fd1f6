#!/usr/bin/env bash
# What the leak check adds to a test, as a user measures it: a generated
# package of N small clean tests (each launches a root and attaches and
# detaches a child three times; once through a shared function, once
# written in each test's body) and M leaking ones (a child left attached
# to a root that goes, held by its own interactor), with and without
# `@Suite(.napkinLeakCheck)`, run by `swift test` serially, in parallel and
# under `napkin-inspect check -- swift test`; the same test binary for all
# (debug build, as tests run). Alternating rounds; per variant the median
# of the rounds.
#   Benchmarks/leakcheck.sh [--quick] [--tests N] [--leaks M] [--rounds R]
#     default: N=200, M=5, R=5; --quick: N=50, M=2, R=1
# Prints, per mode, each test's own time (its start to its end in Swift
# Testing's event stream, the trait's wait included) without and with the trait, median and
# mean over every test of every round, and the whole run's time, then
# `key value` lines:
#   LEAKCHECK_CLEAN_SERIAL_MS, LEAKCHECK_CLEAN_PARALLEL_MS, LEAKCHECK_CLEAN_CHECK_MS,
#   LEAKCHECK_CLEAN_CHECK_PARALLEL_MS
#       added time per clean test (serial, parallel, under check serial and parallel), ms: the
#       medians' difference (in parallel, where tests overlap, the runs'
#       difference / N); _MEAN: the means', _WALL: the runs' / N
#   LEAKCHECK_CLEAN_INLINE_SERIAL_MS
#       added time per clean test that makes its routers in its own body
#       (every test a call stack not seen before), serial, ms
#   LEAKCHECK_LEAK_SERIAL_MS   added time per leaking test (serial), ms
#   LEAKCHECK_GRACE_MS         the grace period the leaking tests use, ms
# Needs the Swift toolchain; napkin-inspect is built in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tests=200 leaks=5 rounds=5
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) tests=50 leaks=2 rounds=1 ;;
    --tests) tests=${2:?}; shift ;;
    --leaks) leaks=${2:?}; shift ;;
    --rounds) rounds=${2:?}; shift ;;
    *) echo "usage: Benchmarks/leakcheck.sh [--quick] [--tests N] [--leaks M] [--rounds R]" >&2; exit 2 ;;
  esac
  shift
done
grace_ms=200
pkg=${LEAKCHECK_BENCH_DIR:-${TMPDIR:-/tmp}/napkin-leakcheck-bench}
mkdir -p "$pkg/Sources/Bench" "$pkg/Tests/BenchTests"

cat > "$pkg/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "LeakCheckBench",
    platforms: [.macOS(.v26), .iOS(.v26)],
    dependencies: [.package(name: "napkin-inspect", path: "$root")],
    targets: [
        .target(name: "Bench", dependencies: [.product(name: "Napkin", package: "napkin-inspect")]),
        .testTarget(name: "BenchTests", dependencies: ["Bench", .product(name: "NapkinTesting", package: "napkin-inspect")]),
    ]
)
SWIFT
cat > "$pkg/Sources/Bench/Bench.swift" <<'SWIFT'
import Napkin

public final actor BenchInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
    var router: AnyObject?
    public init() {}
    func hold(_ router: AnyObject) { self.router = router }
}

@MainActor public final class BenchView: HeadlessViewControllable { public init() {} }

@MainActor public final class ChildRouter: Router<BenchInteractor> {
    public init() { super.init(interactor: BenchInteractor()) }
}

@MainActor public final class RootRouter: LaunchRouter<BenchInteractor, BenchView> {
    public init() { super.init(interactor: BenchInteractor(), viewController: BenchView()) }
}

/// A clean flow: a launched root, a child attached and detached three times.
@MainActor public func cleanFlow() async {
    let root = RootRouter()
    await root.launch()
    for _ in 0..<3 {
        let child = ChildRouter()
        await root.attachChild(child)
        await root.detachChild(child)
    }
}

/// A leak: the root goes with a child still attached, held by its own interactor.
@MainActor public func leakingFlow() async {
    let root = RootRouter()
    await root.launch()
    let child = ChildRouter()
    await child.interactor.hold(child)
    await root.attachChild(child)
}
SWIFT
suite() {   # NAME, TRAIT, COUNT, BODY
  echo "import Bench"
  echo "import NapkinTesting"
  echo "import Testing"
  echo "$2 @MainActor struct $1 {"
  for i in $(seq 1 "$3"); do echo "    @Test func t$i() async { await $4() }"; done
  echo "}"
}
trait="@Suite(.napkinLeakCheck(grace: .milliseconds($grace_ms)))"
# The same clean flow written in each test's own body, as tests are often
# written: every test makes its routers from a call stack (and a line) of
# its own, none seen before.
suite_inline() {   # NAME, TRAIT, COUNT
  echo "import Bench"
  echo "import NapkinTesting"
  echo "import Testing"
  echo "$2 @MainActor struct $1 {"
  for i in $(seq 1 "$3"); do
    echo "    @Test func t$i() async {"
    echo "        let root = RootRouter()"
    echo "        await root.launch()"
    echo "        for _ in 0..<3 { let child = ChildRouter(); await root.attachChild(child); await root.detachChild(child) }"
    echo "    }"
  done
  echo "}"
}
suite CleanPlain "@Suite" "$tests" cleanFlow > "$pkg/Tests/BenchTests/CleanPlain.swift"
suite CleanChecked "$trait" "$tests" cleanFlow > "$pkg/Tests/BenchTests/CleanChecked.swift"
suite_inline InlinePlain "@Suite" "$tests" > "$pkg/Tests/BenchTests/InlinePlain.swift"
suite_inline InlineChecked "$trait" "$tests" > "$pkg/Tests/BenchTests/InlineChecked.swift"
suite LeakPlain "@Suite" "$leaks" leakingFlow > "$pkg/Tests/BenchTests/LeakPlain.swift"
suite LeakChecked "$trait" "$leaks" leakingFlow > "$pkg/Tests/BenchTests/LeakChecked.swift"

echo "== building (napkin-inspect release; the test package debug, as tests run): $pkg"
swift build -c release --product napkin-inspect >/dev/null
inspect=$root/.build/release/napkin-inspect
swift build --package-path "$pkg" --build-tests >/dev/null

now_ms() { date +%s%N | awk '{ printf "%.3f", $1 / 1e6 }'; }
# Runs `swift test` on SUITE in MODE (serial, parallel, check); prints its
# wall ms, and appends each test's own time (from its start to its end in
# Swift Testing's event stream, the trait's wait included), in ms, to the
# file DURATIONS.
run() {
  local mode=$1 suite=$2 durations=$3 start end
  rm -f "$events"
  local cmd=(swift test --package-path "$pkg" --skip-build --filter "BenchTests.$suite/"
             --event-stream-output-path "$events" --event-stream-version 0)
  case "$mode" in
    serial) cmd+=(--no-parallel) ;;
    parallel) ;;
    check) cmd=("$inspect" check --grace "${grace_ms}ms" -- "${cmd[@]}" --no-parallel) ;;
    check-parallel) cmd=("$inspect" check --grace "${grace_ms}ms" -- "${cmd[@]}") ;;
  esac
  start=$(now_ms)
  "${cmd[@]}" >"$log" 2>&1 || true    # the leaking suites fail, as they must
  end=$(now_ms)
  sed -nE 's/.*"absolute":([0-9.]+).*"kind":"test(Started|Ended)".*"testID":"([^"]*t[0-9]+\(\)[^"]*)".*/\2 \3 \1/p' "$events" |
    awk '$1 == "Started" { s[$2] = $3 } $1 == "Ended" && ($2 in s) { printf "%.4f\n", ($3 - s[$2]) * 1000 }' >> "$durations"
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mean() { awk '{ s += $1 } END { printf "%.3f", NR ? s / NR : 0 }'; }

# MODE, PLAIN, CHECKED, COUNT, KEY: the added time per test, as the median
# of each test's own time with the trait minus the median without it (and
# the same with the means, and with the whole run's wall time / COUNT).
measure() {
  local plain="" checked="" p c
  : > "$dplain"; : > "$dchecked"
  for _ in $(seq 1 "$rounds"); do
    plain="$plain $(run "$1" "$2" "$dplain")"
    checked="$checked $(run "$1" "$3" "$dchecked")"
  done
  p=$(echo "$plain" | median)
  c=$(echo "$checked" | median)
  local mp mc ap ac
  mp=$(tr '\n' ' ' < "$dplain" | median); mc=$(tr '\n' ' ' < "$dchecked" | median)
  ap=$(mean < "$dplain"); ac=$(mean < "$dchecked")
  awk -v m="$1" -v p="$p" -v c="$c" -v n="$4" -v k="$5" -v mp="$mp" -v mc="$mc" -v ap="$ap" -v ac="$ac" 'BEGIN {
    printf "%-8s %4d tests: per test, median %.3f -> %.3f ms (%+.3f), mean %.3f -> %.3f ms (%+.3f); run %.0f -> %.0f ms (%+.2f ms per test)\n",
      m, n, mp, mc, mc - mp, ap, ac, ac - ap, p, c, (c - p) / n
    # In parallel the tests overlap (each one'"'"'s time includes its neighbours'"'"'): there the whole run says it.
    primary = (m ~ /parallel/) ? (c - p) / n : mc - mp
    printf "%s %.3f\n%s_MEAN %.3f\n%s_WALL %.2f\n", k, primary, k, ac - ap, k, (c - p) / n > "/dev/stderr" }' 2>>"$keys"
}
keys=$(mktemp) log=$(mktemp) dplain=$(mktemp) dchecked=$(mktemp) events=$(mktemp -u)
trap 'rm -f "$keys" "$log" "$dplain" "$dchecked" "$events"' EXIT
echo "== $tests clean tests, $leaks leaking ones (grace ${grace_ms} ms), $rounds rounds, $(nproc) cores"
measure serial CleanPlain CleanChecked "$tests" LEAKCHECK_CLEAN_SERIAL_MS
measure parallel CleanPlain CleanChecked "$tests" LEAKCHECK_CLEAN_PARALLEL_MS
measure check CleanPlain CleanChecked "$tests" LEAKCHECK_CLEAN_CHECK_MS
measure check-parallel CleanPlain CleanChecked "$tests" LEAKCHECK_CLEAN_CHECK_PARALLEL_MS
measure serial InlinePlain InlineChecked "$tests" LEAKCHECK_CLEAN_INLINE_SERIAL_MS
measure serial LeakPlain LeakChecked "$leaks" LEAKCHECK_LEAK_SERIAL_MS
echo
cat "$keys"
echo "LEAKCHECK_GRACE_MS $grace_ms"
