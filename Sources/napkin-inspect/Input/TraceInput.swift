import Foundation
import NapkinTrace
import NapkinTraceReader

/// Reads a trace file for a command: streams its events, reports the reader's
/// diagnostics on standard error (the first five of each severity, then how
/// many more), and turns an input that is not a trace into a
/// ``CommandFailure`` (exit status 2).
struct TraceInput {
    /// The file, or `-` for standard input.
    let path: String
    /// Whether the diagnostics go unsaid: for a second reading of a trace
    /// whose first reading already reported them (`check --report`).
    var quiet = false
    /// Where each line for standard error goes (without the program name):
    /// written at once by default; a trace read on another thread
    /// (`check --jobs`) keeps its lines, to be written in the order of the traces.
    var errorOutput: (String) -> Void = { Output.error($0) }
    /// Whether a large file may be read ahead on a second thread while
    /// `body` works (``TraceReader/readAhead(event:diagnostic:)``): only a
    /// regular file of at least ``readAheadMinimumBytes``, on a machine with
    /// more than one core. Off where `check --jobs N` leaves no thread to
    /// spare. What is read, written and returned is the same either way.
    var readAhead = true

    /// A file smaller than this is read on the calling thread: starting a
    /// thread costs more than it saves.
    static let readAheadMinimumBytes = 1 << 20

    /// What reading produced besides the events.
    struct Summary {
        var events = 0
        var bytes = 0
        var invalidLines = 0
        var unknownKinds: [String: Int] = [:]
        var unknownFields = 0
        var endedMidLine = false
        /// Whether the trace can be trusted, as far as reading it tells (the
        /// model adds what only folding it tells: ``TraceIntegrity/including(_:)``).
        var integrity = TraceIntegrity()
    }

    /// How many diagnostics of each severity are printed before they are only counted.
    private static let shownPerSeverity = 5

    /// Opens `path` (`-`: standard input) for reading, following it as it grows when `follow` is set.
    static func openReader(_ path: String, follow: Bool = false) throws(CommandFailure) -> TraceReader {
        do {
            return try TraceReader(path: path, options: .init(follow: follow))
        } catch let error as TraceReadError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// Reads every event, calling `body`; `body` returns false to stop early.
    func read(_ body: (TraceEvent) throws(CommandFailure) -> Bool) throws(CommandFailure) -> Summary {
        let reader = try Self.openReader(path)
        let ahead = readAhead && Self.worthReadingAhead(path)
        var shown: [TraceDiagnostic.Severity: Int] = [:]
        var stoppedEarly = false
        func event(_ event: TraceEvent) throws(CommandFailure) -> Bool {
            if try body(event) { return true }
            stoppedEarly = true
            return false
        }
        func diagnostic(_ diagnostic: TraceDiagnostic) throws(CommandFailure) {
            // Once the input is rejected as not a trace, the reader may still hand
            // out one diagnostic about a later line: the rejection says it all.
            // (Reading ahead, the reader leaves those out itself; its state
            // belongs to the other thread until it returns.)
            if !ahead && reader.rejection != nil { return }
            let count = shown[diagnostic.severity, default: 0]
            shown[diagnostic.severity] = count + 1
            if count < Self.shownPerSeverity && !quiet {
                errorOutput("\(reader.source): \(diagnostic.severity.rawValue): \(diagnostic)")
            }
        }
        // The reader's fastest ways through a trace (no Item per event).
        if ahead {
            try reader.readAhead(event: event, diagnostic: diagnostic)
        } else {
            try reader.read(event: event, diagnostic: diagnostic)
        }
        if stoppedEarly {
            reader.stop()
            return finish(reader, shown, complete: false)
        }
        if let rejection = reader.rejection { throw CommandFailure(rejection.description) }
        if reader.eventCount == 0 {
            throw CommandFailure(reader.byteCount == 0
                ? "\(path): empty: no trace records (was NAPKIN_TRACE set when the app ran?)"
                : "\(path): no valid trace records")
        }
        return finish(reader, shown, complete: true)
    }

    /// Whether `path` is a regular file large enough to read ahead, on a
    /// machine with a core to spare.
    static func worthReadingAhead(_ path: String) -> Bool {
        guard path != "-", ProcessInfo.processInfo.activeProcessorCount > 1,
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int else { return false }
        return size >= readAheadMinimumBytes
    }

    /// Reports how many diagnostics were not shown and, once the whole trace
    /// is read, the damage the reader found; sums up the reading.
    private func finish(_ reader: TraceReader, _ shown: [TraceDiagnostic.Severity: Int], complete: Bool) -> Summary {
        for (severity, count) in shown.sorted(by: { $0.key > $1.key }) where count > Self.shownPerSeverity && !quiet {
            errorOutput("\(reader.source): \(count - Self.shownPerSeverity) more \(severity.rawValue)s not shown")
        }
        let integrity = reader.integrity
        if complete && !quiet {
            for problem in integrity.problems {
                errorOutput("\(reader.source): warning: the trace is damaged (\(problem.kind.rawValue)): \(problem)")
            }
        }
        return Summary(events: reader.eventCount, bytes: reader.byteCount, invalidLines: reader.invalidLineCount,
                       unknownKinds: reader.unknownKinds, unknownFields: reader.unknownFieldCount,
                       endedMidLine: reader.endedMidLine, integrity: integrity)
    }

    /// Folds the whole trace into a history of every node's life.
    func history() throws(CommandFailure) -> TraceHistory {
        var history = TraceHistory()
        _ = try read { event in
            history.apply(event)
            return true
        }
        return history
    }
}
