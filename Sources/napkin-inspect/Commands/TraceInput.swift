import NapkinTrace

/// Reads a trace for a command: streams its events, reports the reader's
/// diagnostics on stderr (a few of each, then a count), and turns an input
/// that is not a trace into a ``CommandFailure`` (exit status 2).
struct TraceInput {
    let path: String
    var follow = false
    /// Print diagnostics on stderr as they come.
    var reportDiagnostics = true

    /// What reading produced besides the events.
    struct Summary {
        var events = 0
        var bytes = 0
        var lines = 0
        var invalidLines = 0
        var unknownKinds: [String: Int] = [:]
        var unknownFields = 0
        var diagnostics: [TraceDiagnostic] = []
        var endedMidLine = false
    }

    /// Reads every event, calling `body`; `body` returns false to stop early.
    func read(_ body: (TraceEvent) throws(CommandFailure) -> Bool) throws(CommandFailure) -> Summary {
        let reader: TraceReader
        do {
            reader = try TraceReader(path: path, options: .init(follow: follow))
        } catch let error as TraceReadError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
        return try read(from: reader, body)
    }

    func read(from reader: TraceReader, _ body: (TraceEvent) throws(CommandFailure) -> Bool) throws(CommandFailure) -> Summary {
        var summary = Summary()
        var shown: [TraceDiagnostic.Severity: Int] = [:]
        while let item = reader.next() {
            switch item {
            case .event(let event):
                if !(try body(event)) {
                    reader.stop()
                    return finish(reader, &summary, shown)
                }
            case .diagnostic(let diagnostic):
                // Once the input is rejected as not a trace, the reader may still hand
                // out one diagnostic about a later line: the rejection says it all.
                if reader.rejection != nil { continue }
                summary.diagnostics.append(diagnostic)
                if summary.diagnostics.count > 1000 { summary.diagnostics.removeFirst() }
                let count = shown[diagnostic.severity, default: 0]
                shown[diagnostic.severity] = count + 1
                if reportDiagnostics && count < 5 {
                    Output.error("\(reader.source): \(diagnostic.severity.rawValue): \(diagnostic)")
                }
            }
        }
        if let rejection = reader.rejection { throw CommandFailure(rejection.description) }
        if reader.eventCount == 0 {
            throw CommandFailure(reader.byteCount == 0
                ? "\(path): empty: no trace records (was NAPKIN_TRACE set when the app ran?)"
                : "\(path): no valid trace records")
        }
        return finish(reader, &summary, shown)
    }

    private func finish(_ reader: TraceReader, _ summary: inout Summary, _ shown: [TraceDiagnostic.Severity: Int]) -> Summary {
        if reportDiagnostics {
            for (severity, count) in shown.sorted(by: { $0.key > $1.key }) where count > 5 {
                Output.error("\(reader.source): \(count - 5) more \(severity.rawValue)s not shown")
            }
        }
        summary.events = reader.eventCount
        summary.bytes = reader.byteCount
        summary.lines = reader.lineCount
        summary.invalidLines = reader.invalidLineCount
        summary.unknownKinds = reader.unknownKinds
        summary.unknownFields = reader.unknownFieldCount
        summary.endedMidLine = reader.endedMidLine
        return summary
    }
}

/// A command that cannot do its job (unusable input): exit status 2.
struct CommandFailure: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The exit statuses `napkin-inspect` documents.
enum ExitStatus {
    static let success: Int32 = 0
    static let findings: Int32 = 1
    static let unusable: Int32 = 2
}
