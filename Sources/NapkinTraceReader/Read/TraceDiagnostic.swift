import NapkinTrace

/// Something the reader or the model noticed about the trace itself (not
/// about the app): a malformed line, a truncated end, an unknown event kind.
public struct TraceDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How much the problem matters.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Information: the trace is fine, e.g. it uses newer event kinds.
        case note
        /// The trace is usable but something in it is suspicious or incomplete.
        case warning
        /// A line could not be used.
        case error

        private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
        /// Orders note < warning < error.
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// How much the problem matters.
    public var severity: Severity
    /// The 1-based line number, when the problem is on one line.
    public var line: Int?
    /// One line: what is wrong and, where it helps, what to do.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, line: Int?, _ message: String) {
        self.severity = severity
        self.line = line
        self.message = message
    }

    /// `line N: message` (or just the message).
    public var description: String {
        if let line { return "line \(line): \(message)" }
        return message
    }
}

/// Why a whole input could not be read as a trace.
public struct TraceReadError: Error, Sendable, CustomStringConvertible {
    /// The input's name (a path, or `-` for standard input).
    public var source: String
    /// One line: what is wrong and how to fix it.
    public var message: String

    /// Creates an error.
    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    /// `source: message`.
    public var description: String { "\(source): \(message)" }
}
