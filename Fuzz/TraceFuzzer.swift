// libFuzzer harness for the trace reader, the model, the analysis, and the
// CLI on top of them: every renderer and every subcommand's path.
// Build and run with Fuzz/run.sh (swiftc -sanitize=fuzzer,address): NapkinTrace
// and NapkinTraceReader are compiled as modules of their own, the CLI's sources (all but main.swift) with
// this file and CLIFuzzing.swift as the fuzz binary.
import NapkinTrace
import NapkinTraceReader

nonisolated(unsafe) var scratchPath: String = {
    let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(directory)/napkin-fuzz-\(getpid()).ndjson"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // 1. The line parser on the raw bytes, as one line.
    var parser = TraceLineParser()
    _ = parser.parse(UnsafeBufferPointer(start: data, count: size))

    // 2. The streaming reader on the bytes as a file, with a small line limit
    //    so long lines are exercised, folded into the analysis.
    let fd = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    _ = write(fd, data, size)
    close(fd)
    guard let reader = try? TraceReader(path: scratchPath, options: .init(maxLineLength: 256)) else { return 0 }
    var analyzer = TraceAnalyzer(options: .init(grace: 1_000, expectTeardown: size % 2 == 0))
    var history = TraceHistory()
    while let item = reader.next() {
        if case .event(let event) = item {
            // Every event read must encode and parse back to itself.
            var reparse = TraceLineParser()
            guard case .event(let again) = reparse.parse(TraceEncoder.line(event)), again == event else {
                fatalError("round trip failed for \(event)")
            }
            analyzer.consume(event)
            history.apply(event)
        }
    }
    analyzer.finish()
    _ = analyzer.state.liveTree()
    _ = analyzer.state.detachedRouters()
    for finding in analyzer.findings { _ = finding.description }

    // 3. The CLI's renderers on that model, with their invariants (printable,
    //    bounded, valid JSON); then every subcommand on the file, as a user runs it.
    let seed = size > 0 ? Int(data[0]) : 0
    CLIFuzzing.render(analyzer, history, seed: seed)
    CLIFuzzing.runCommands(on: scratchPath, seed: seed)
    return 0
}
