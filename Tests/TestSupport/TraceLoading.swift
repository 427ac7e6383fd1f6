// Loading a trace completely with the library's readers: a file, a string
// or bytes through `TraceReader` (events and diagnostics), or NDJSON text
// line by line through `TraceLineParser` (events only).

import NapkinTrace
import NapkinTraceReader

/// Everything a reader returned, split by kind.
public struct ReadResult {
    /// The events, in order.
    public var events: [TraceEvent] = []
    /// The diagnostics, in order.
    public var diagnostics: [TraceDiagnostic] = []
    /// Items in the order they came.
    public var items: [TraceReader.Item] = []

    /// The diagnostics of severity error.
    public var errors: [TraceDiagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The diagnostics of severity warning.
    public var warnings: [TraceDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    /// The diagnostics of severity note.
    public var notes: [TraceDiagnostic] { diagnostics.filter { $0.severity == .note } }
}

/// Reads every item `reader` returns.
public func readAll(_ reader: TraceReader) -> ReadResult {
    var result = ReadResult()
    while let item = reader.next() {
        result.items.append(item)
        switch item {
        case .event(let event): result.events.append(event)
        case .diagnostic(let diagnostic): result.diagnostics.append(diagnostic)
        }
    }
    return result
}

/// Reads the file at `path` completely; the reader is returned for what it
/// knows at the end (integrity, rejection, line count).
public func readAll(path: String, options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    let reader = try TraceReader(path: path, options: options)
    return (readAll(reader), reader)
}

/// Reads `text` written to a scratch file.
public func readAll(text: String, options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    try readAll(bytes: Array(text.utf8), options: options)
}

/// Reads `bytes` written to a scratch file.
public func readAll(bytes: [UInt8], options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    let scratch = try ScratchDirectory("trace")
    defer { scratch.remove() }
    return try readAll(path: try scratch.write("trace.ndjson", bytes: bytes), options: options)
}

/// The event on one NDJSON line, read by `TraceLineParser`; nil for a line
/// that holds no event (blank, invalid, or a record of an unknown kind).
public func parseEvent(_ line: some StringProtocol) -> TraceEvent? {
    var parser = TraceLineParser()
    if case .event(let event) = parser.parse(String(line)) { return event }
    return nil
}

/// The events of NDJSON `text`, line by line through one `TraceLineParser`;
/// lines that hold no event are skipped.
public func parseEvents(_ text: some StringProtocol) -> [TraceEvent] {
    var parser = TraceLineParser()
    return text.split(separator: "\n").compactMap { line -> TraceEvent? in
        if case .event(let event) = parser.parse(String(line)) { return event }
        return nil
    }
}
