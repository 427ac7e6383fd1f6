// napkin-bench: the project's benchmarks. Run in release:
//   swift run -c release napkin-bench reader      (reader + analysis vs jq)
//   swift run -c release napkin-bench framework   (tracing off vs on; Benchmarks/framework.sh adds hooks removed)
//   swift run -c release napkin-bench emit        (the emit path alone: ns, CPU and allocations per event)
//   napkin-bench feed --rate 200000 | napkin-inspect live   (does the live view keep pace?)
//   Benchmarks/live.sh                                      (the live view's ceiling, drawing on a terminal)
//   swift build -c release && .build/release/napkin-bench hostile   (every command on hostile shapes: time, memory)
//   swift build -c release && .build/release/napkin-bench check-dir   (check DIR: --jobs 1 vs every core)
// Numbers are ratios of contenders measured in the same run.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first ?? "all"
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
    return v
}

func text(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

switch command {
case "reader":
    ReaderBenchmark.run(cycles: option("--cycles", 80_000), keep: arguments.contains("--keep"))
case "profile-analysis":
    // For profilers: read and analyse an existing file once.
    let path = arguments.count > 1 ? arguments[1] : "/tmp/napkin-bench.ndjson"
    let (t, alive, found) = ReaderBenchmark.readAndAnalyze(path)
    print("analysis \(t)s, \(alive) live, \(found) findings")
case "framework":
    let child: FrameworkBenchmark.Child? = arguments.contains("--default-hooks") ? .defaultHooks
        : arguments.contains("--with-hooks") ? .withHooks : nil
    await FrameworkBenchmark.run(cycles: option("--cycles", 20_000), rounds: option("--rounds", 5),
                                 offOnly: arguments.contains("--off-only"), only: child)
case "emit":
    EmitBenchmark.run(events: option("--events", 1_200_000), rounds: option("--rounds", 5))
case "hostile":
    if !HostileBenchmark.run(events: option("--events", 1_000_000)) { exit(1) }
case "check-dir":
    if !CheckDirBenchmark.run(traces: option("--traces", 12), cycles: option("--cycles", 10_000), rounds: option("--rounds", 5)) { exit(1) }
case "feed":
    FeedBenchmark.run(rate: option("--rate", 200_000), seconds: option("--seconds", 5), started: text("--started"))
case "all":
    ReaderBenchmark.run(cycles: option("--cycles", 80_000), keep: false)
default:
    print("usage: napkin-bench reader [--cycles N] [--keep] | framework [--cycles N] [--rounds N] [--off-only] [--default-hooks|--with-hooks] | emit [--events N] [--rounds N] | feed [--rate N] [--seconds N] [--started FILE] | hostile [--events N] | check-dir [--traces N] [--cycles N] [--rounds N]")
}
