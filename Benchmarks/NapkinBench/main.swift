// napkin-bench: the project's benchmarks. Run in release:
//   swift run -c release napkin-bench reader      (reader, reader + analysis vs jq, on a RibHouse-like and a list-shaped trace)
//       [--shape ribhouse|list|all] [--events N] [--rounds N] [--keep] [--no-jq]
//   swift run -c release napkin-bench framework   (tracing off vs NDJSON on vs detection on; Benchmarks/framework.sh adds hooks removed)
//   swift run -c release napkin-bench emit        (the emit path alone: ns, CPU and allocations per event)
//   swift run -c release napkin-bench otlp        (the OTLP exporter vs the NDJSON sink per event; bytes per router; memory in a 60 s outage)
//   swift run -c release napkin-bench creation    (a router's creation, tracing off / on: the cost of its creation line)
//   napkin-bench feed --rate 200000 | napkin-inspect live   (does the live view keep pace?)
//   Benchmarks/live.sh                                      (the live view's ceiling, drawing on a terminal)
//   swift build -c release && .build/release/napkin-bench hostile   (every command on hostile shapes: time, memory)
//   swift build -c release && .build/release/napkin-bench check-dir   (check DIR: --jobs 1 vs every core)
//   swift build -c release && .build/release/napkin-bench retainers   (the retainer search among 10k and 100k live objects; keeping live objects)
//   swift run -c release napkin-bench idle [--seconds N]   (wake-ups of an idle app with detection on: writer thread, view poller)
// Numbers are ratios of contenders measured in the same run.

import Foundation
import RuntimeCounters

let arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first ?? "all"
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
    return v
}
func textOption(_ name: String, _ fallback: String) -> String {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return fallback }
    return arguments[i + 1]
}
/// The reader benchmark's trace size: `--events N`, or the former `--cycles N` (about 12 events each).
func readerEvents() -> Int {
    option("--events", arguments.contains("--cycles") ? option("--cycles", 0) * 12 : 1_000_000)
}
func readerShapes() -> [ReaderBenchmark.Shape]? {
    let name = textOption("--shape", "all")
    return name == "all" ? ReaderBenchmark.Shape.allCases : ReaderBenchmark.Shape(rawValue: name).map { [$0] }
}
func runReader() {
    guard let shapes = readerShapes() else {
        print("napkin-bench reader: --shape takes ribhouse, list or all")
        exit(64)
    }
    ReaderBenchmark.run(shapes: shapes, events: readerEvents(), rounds: option("--rounds", 5),
                        keep: arguments.contains("--keep"), jq: !arguments.contains("--no-jq"))
}

/// Heap allocations per event since `start` (`n/a` where they are not counted).
func allocationsPerEvent(since start: UInt64, _ events: Int) -> String {
    guard runtime_counters_available() != 0 else { return "n/a" }
    return String(format: "%.3f", Double(runtime_counters_allocations() - start) / Double(max(events, 1)))
}

func text(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

switch command {
case "reader":
    runReader()
case "reader-measure":
    // The reader benchmark's child process: measures one file, prints `KEY value` lines.
    guard arguments.count > 1 else { print("usage: napkin-bench reader-measure FILE [--rounds N]"); exit(64) }
    ReaderBenchmark.measureAndPrint(arguments[1], rounds: option("--rounds", 5))
case "profile-reader":
    // For profilers: read an existing file once, with the reader alone.
    let path = arguments.count > 1 ? arguments[1] : "/tmp/napkin-bench.ndjson"
    let allocations = runtime_counters_allocations()
    let (t, events) = ReaderBenchmark.readOnly(path)
    print("reader \(t)s, \(events) events, \(allocationsPerEvent(since: allocations, events)) heap allocations per event")
case "profile-ahead":
    // For profilers: read ahead and analyse an existing file once.
    let path = arguments.count > 1 ? arguments[1] : "/tmp/napkin-bench.ndjson"
    let (t, alive, found, events) = ReaderBenchmark.readAndAnalyze(path, readingAhead: true)
    print("read ahead + analysis \(t)s, \(events) events, \(alive) live, \(found) findings")
case "profile-analysis":
    // For profilers: read and analyse an existing file once.
    let path = arguments.count > 1 ? arguments[1] : "/tmp/napkin-bench.ndjson"
    let allocations = runtime_counters_allocations()
    let (t, alive, found, events) = ReaderBenchmark.readAndAnalyze(path)
    print("analysis \(t)s, \(events) events, \(alive) live, \(found) findings, \(allocationsPerEvent(since: allocations, events)) heap allocations per event")
case "idle":
    await IdleBenchmark.run(seconds: option("--seconds", 5))
case "framework":
    let child: FrameworkBenchmark.Child? = arguments.contains("--default-hooks") ? .defaultHooks
        : arguments.contains("--with-hooks") ? .withHooks : nil
    await FrameworkBenchmark.run(cycles: option("--cycles", 20_000), rounds: option("--rounds", 5),
                                 offOnly: arguments.contains("--off-only"), only: child)
case "creation":
    CreationBenchmark.run(creations: option("--creations", 100_000), rounds: option("--rounds", 5))
case "otlp":
    OTLPBenchmark.run(cycles: option("--cycles", 50_000), rounds: option("--rounds", 5), outageSeconds: option("--outage-seconds", 60))
case "emit":
    EmitBenchmark.run(events: option("--events", 1_200_000), rounds: option("--rounds", 5))
case "hostile":
    if !HostileBenchmark.run(events: option("--events", 1_000_000)) { exit(1) }
case "check-dir":
    if !CheckDirBenchmark.run(traces: option("--traces", 12), cycles: option("--cycles", 10_000), rounds: option("--rounds", 5)) { exit(1) }
case "retainers":
    await RetainersBenchmark.run(rounds: option("--rounds", 5))
case "feed":
    FeedBenchmark.run(rate: option("--rate", 200_000), seconds: option("--seconds", 5), started: text("--started"))
case "all":
    runReader()
default:
    print("usage: napkin-bench reader [--shape ribhouse|list|all] [--events N] [--rounds N] [--keep] [--no-jq] | framework [--cycles N] [--rounds N] [--off-only] [--default-hooks|--with-hooks] | emit [--events N] [--rounds N] | otlp [--cycles N] [--rounds N] [--outage-seconds N] | feed [--rate N] [--seconds N] [--started FILE] | hostile [--events N] | check-dir [--traces N] [--cycles N] [--rounds N] | retainers [--rounds N] | idle [--seconds N]")
}
