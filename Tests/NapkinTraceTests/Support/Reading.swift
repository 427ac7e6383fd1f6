// Reading a trace completely, from a file, a string or bytes.

import NapkinTrace
import NapkinTraceReader
import Testing

/// Everything a reader returned, split by kind.
struct ReadResult {
    var events: [TraceEvent] = []
    var diagnostics: [TraceDiagnostic] = []
    /// Items in the order they came.
    var items: [TraceReader.Item] = []

    var errors: [TraceDiagnostic] { diagnostics.filter { $0.severity == .error } }
    var warnings: [TraceDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    var notes: [TraceDiagnostic] { diagnostics.filter { $0.severity == .note } }
}

/// Reads every item `reader` returns.
func readAll(_ reader: TraceReader) -> ReadResult {
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

/// Reads the file at `path` completely.
func readAll(path: String, options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    let reader = try TraceReader(path: path, options: options)
    return (readAll(reader), reader)
}

/// Reads `text` written to a temporary file.
func readAll(text: String, options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    try readAll(bytes: Array(text.utf8), options: options)
}

/// Reads `bytes` written to a temporary file.
func readAll(bytes: [UInt8], options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    let file = try TemporaryFile(bytes)
    defer { file.remove() }
    return try readAll(path: file.path, options: options)
}
