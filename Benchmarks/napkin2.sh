#!/usr/bin/env bash
# Side by side with napkin 2.x, the framework this one replaces:
#   Benchmarks/napkin2.sh NAPKIN2_CHECKOUT [RUNS]
#
# NAPKIN2_CHECKOUT is a checkout of https://github.com/WikipediaBrown/napkin
# (any 2.x commit). Nothing of it is copied into this project: the script
# builds a throwaway package in a temporary directory that holds
#   - napkin 2.x's `Sources/napkin`, built as the module `napkin`
#     (its docs plugin, the package's only dependency, is left out);
#   - this project's `Napkin`, by a path dependency on this checkout;
#   - one benchmark executable that runs the same cycle (create a child,
#     attach it: activate and load; detach it: deactivate; release it) against
#     each framework in alternating rounds of the same process, tracing off;
#   - napkin 2.x's own test suite (`Tests/napkinTests`) with only the module
#     name changed (`napkin` becomes `Napkin` in imports and qualified names), run against this
#     project's framework with `swift test`.
# It prints the medians of each framework's rounds and their ratio (wall and
# CPU time), then the test suite's result. Exit status: the test suite's.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
napkin2=${1:?usage: Benchmarks/napkin2.sh NAPKIN2_CHECKOUT [RUNS]}
runs=${2:-7}
napkin2=$(cd "$napkin2" && pwd)
[ -d "$napkin2/Sources/napkin" ] || { echo "error: $napkin2 has no Sources/napkin: pass a checkout of napkin 2.x" >&2; exit 2; }

work=${NAPKIN2_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work/Sources" "$work/Tests"
rm -rf "$work/Sources/napkin" "$work/Tests/napkinTests"
cp -R "$napkin2/Sources/napkin" "$work/Sources/napkin"
rm -rf "$work/Sources/napkin/napkin.docc"
cp -R "$napkin2/Tests/napkinTests" "$work/Tests/napkinTests"
perl -pi -e 's/^(\@testable )?import napkin$/$1import Napkin/; s/\bnapkin\./Napkin./g' "$work"/Tests/napkinTests/*.swift
ln -sfn "$here" "$work/napkin-inspect"

cat > "$work/Package.swift" <<'EOF'
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "napkin2-side-by-side",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "napkin-inspect")],
    targets: [
        .target(name: "napkin", swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "CycleNapkin2", dependencies: ["napkin"]),
        .target(name: "CycleNapkin", dependencies: [.product(name: "Napkin", package: "napkin-inspect")]),
        .executableTarget(name: "napkin2-bench", dependencies: ["CycleNapkin2", "CycleNapkin"]),
        .testTarget(name: "napkinTests", dependencies: [.product(name: "Napkin", package: "napkin-inspect")]),
    ]
)
EOF

# The same cycle, written once, compiled against each framework.
cycle() {
  cat <<EOF
import $1
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public final actor CycleInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
    public init() {}
}

/// Implements both hooks, as most interactors do.
public final actor HookedCycleInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
    private var transitions = 0
    public init() {}
    public func didBecomeActive() async { transitions += 1 }
    public func willResignActive() async { transitions += 1 }
}

@MainActor public final class CycleRouter: Router<CycleInteractor> {}
@MainActor public final class HookedCycleRouter: Router<HookedCycleInteractor> {}
@MainActor public final class CycleView: ViewControllable { public init() {} }
@MainActor public final class CycleRoot: LaunchRouter<CycleInteractor, CycleView> {}

/// Runs \`count\` cycles of a child with no hooks, or with hooks; returns
/// nanoseconds per cycle (wall, CPU of the process).
@MainActor public func $2(cycles count: Int, rounds: Int, hooked: Bool) async -> [(wall: Double, cpu: Double)] {
    let root = CycleRoot(interactor: CycleInteractor(), viewController: CycleView())
    // napkin 2.x has no headless launch() on Linux: activate and load the root by hand.
    await root.interactable.activate()
    await root.load()
    func measure(_ n: Int) async -> (wall: Double, cpu: Double) {
        let wall0 = clock(CLOCK_MONOTONIC), cpu0 = clock(CLOCK_PROCESS_CPUTIME_ID)
        if hooked {
            for _ in 0..<n {
                let child = HookedCycleRouter(interactor: HookedCycleInteractor())
                await root.attachChild(child)
                await root.detachChild(child)
            }
        } else {
            for _ in 0..<n {
                let child = CycleRouter(interactor: CycleInteractor())
                await root.attachChild(child)
                await root.detachChild(child)
            }
        }
        return (Double(clock(CLOCK_MONOTONIC) - wall0) / Double(n), Double(clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0) / Double(n))
    }
    _ = await measure(count / 10)
    var samples: [(wall: Double, cpu: Double)] = []
    for _ in 0..<rounds { samples.append(await measure(count)) }
    return samples
}

private func clock(_ id: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(id, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
EOF
}
mkdir -p "$work/Sources/CycleNapkin2" "$work/Sources/CycleNapkin" "$work/Sources/napkin2-bench"
cycle napkin napkin2Cycles > "$work/Sources/CycleNapkin2/Cycle.swift"
cycle Napkin napkinCycles > "$work/Sources/CycleNapkin/Cycle.swift"
cat > "$work/Sources/napkin2-bench/main.swift" <<'EOF'
import CycleNapkin
import CycleNapkin2
import Foundation

let runs = Int(CommandLine.arguments.dropFirst().first ?? "7") ?? 7
func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
print("framework cycle, tracing off: create child, attach (activate, load), detach (deactivate), release")
print("  (medians of \(runs) alternating rounds of 20,000 cycles each)")
for hooked in [false, true] {
    var theirs: [(wall: Double, cpu: Double)] = []
    var ours: [(wall: Double, cpu: Double)] = []
    for _ in 0..<runs {
        theirs += await napkin2Cycles(cycles: 20_000, rounds: 1, hooked: hooked)
        ours += await napkinCycles(cycles: 20_000, rounds: 1, hooked: hooked)
    }
    let (tw, tc) = (median(theirs.map(\.wall)), median(theirs.map(\.cpu)))
    let (ow, oc) = (median(ours.map(\.wall)), median(ours.map(\.cpu)))
    let key = hooked ? "HOOKED_" : ""
    print(hooked ? "  child with hooks (didBecomeActive, willResignActive):" : "  child with no hooks:")
    print(String(format: "    napkin 2.x:        %6.0f ns/cycle wall, %6.0f ns/cycle CPU", tw, tc))
    print(String(format: "    Napkin (this one): %6.0f ns/cycle wall, %6.0f ns/cycle CPU", ow, oc))
    print(String(format: "    ratio this / 2.x:  %.3fx wall, %.3fx CPU (target: at most 1.0x)", ow / tw, oc / tc))
    print("NAPKIN2_\(key)WALL_NS \(Int(tw))")
    print("NAPKIN_\(key)WALL_NS \(Int(ow))")
    print(String(format: "NAPKIN_\(key)OVER_NAPKIN2 %.3f", ow / tw))
    print(String(format: "NAPKIN_\(key)OVER_NAPKIN2_CPU %.3f", oc / tc))
}
EOF

cd "$work"
echo "building in $work (release)" >&2
swift build -c release --product napkin2-bench >/dev/null
.build/release/napkin2-bench "$runs"
echo
echo "napkin 2.x's own test suite against this project's Napkin (module name changed only):"
swift test 2>&1 | tail -n 3
