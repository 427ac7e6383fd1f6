import Foundation
import Testing
import TestSupport

/// Hostile traces too big to keep in the repository, written by the tests:
/// a 100,000-level chain, 100,000 siblings, a 10 MB line, a 100 KB mark,
/// more findings than the analysis keeps, and a file name full of controls.
enum GeneratedTrace: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case chain = "chain-100000-levels"
    case siblings = "siblings-100000"
    case longLine = "line-10-MB"
    case longMark = "mark-100-KB"
    case manyFindings = "findings-beyond-the-cap"
    case controlPath = "path-with-controls"

    /// How many routers the chain and the siblings have.
    static let size = 100_000
    /// How many leaks `findings-beyond-the-cap` has (more than `TraceAnalyzer.maxKeptFindings`).
    static let leaks = 10_050

    var testDescription: String { rawValue }

    /// What every subcommand must do with it.
    var expectations: HostileCorpus.Case {
        let ok: [String: Int32] = ["*": 0]
        let leak: [String: Int32] = ["*": 0, "check": 1]
        switch self {
        case .chain:
            return .init(file: rawValue, what: "a chain of 100,000 routers, each attached to the previous one", status: ok,
                         stdout: ["tree": "note: levels deeper than 24 are folded", "live": "more routers not shown"], maxOutput: 1 << 20)
        case .siblings:
            return .init(file: rawValue, what: "100,000 routers attached to one parent", status: ok,
                         stdout: ["tree": "99,003 more routers not shown", "timeline": "more not shown", "mermaid-tree": "99801 more not shown"],
                         maxOutput: 1 << 20)
        case .longLine:
            // The line is a record the reader cannot keep: its seq is missing, so the trace is damaged.
            return .init(file: rawValue, what: "a 10 MB line in the middle of a trace", status: ["*": 0, "check": 2],
                         stderr: "longer than 1048576 bytes",
                         maxOutput: 64 << 10)
        case .longMark:
            return .init(file: rawValue, what: "a mark of 100 KB", status: ok, maxOutput: 64 << 10)
        case .manyFindings:
            return .init(file: rawValue, what: "\(Self.leaks) leaks: more findings than the analysis keeps", status: leak,
                         stdout: ["check": "50 more findings were established but not kept",
                                  "check-json": "\"findings_not_kept\" : 50",
                                  "check-github": "::warning title=napkin findings not kept::50 more findings",
                                  "check-junit": "50 more findings (of any rule) were established but not kept",
                                  "check-sarif": "50 more findings were established but not kept",
                                  "tree": "note: 50 more findings were established but not kept"],
                         maxOutput: 16 << 20)
        case .controlPath:
            return .init(file: rawValue, what: "a trace whose file name holds controls", status: leak,
                         stdout: ["check": #"trace-\e]0;pwned\u{7}-\u{9b}2J.ndjson: "#, "stats": #"trace-\e]0;pwned\u{7}-\u{9b}2J.ndjson ("#],
                         maxOutput: 1 << 20)
        }
    }

    /// Writes the trace into `directory`; returns its path.
    func write(in directory: ScratchDirectory) throws -> String {
        var trace = TraceText()
        switch self {
        case .chain, .siblings:
            trace.router(2)
            trace.record(#""ev":"launch","id":2"#)
            for k in 0..<Self.size {
                let id = 3 + k
                trace.router(id)
                trace.record(#""ev":"attach","parent":\#(self == .chain ? id - 1 : 2),"child":\#(id)"#)
            }
            trace.record(#""ev":"end","reason":"exit""#)
        case .longLine, .longMark:
            trace.router(2)
            trace.record(#""ev":"launch","id":2"#)
            trace.record(#""ev":"mark","text":"\#(String(repeating: "x", count: self == .longLine ? 10 << 20 : 100 << 10))""#)
            trace.record(#""ev":"end","reason":"exit""#)
        case .manyFindings:
            trace.router(2)
            trace.record(#""ev":"launch","id":2"#)
            for k in 0..<Self.leaks {
                trace.router(3 + k)
                trace.record(#""ev":"attach","parent":2,"child":\#(3 + k)"#)
                trace.record(#""ev":"detach","parent":2,"child":\#(3 + k)"#)
            }
            trace.time = 3_000_000_000
            trace.record(#""ev":"end","reason":"exit""#)
        case .controlPath:
            let source = PackagePaths.root.appendingPathComponent(HostileCorpus.directory).appendingPathComponent("ctl-everywhere.ndjson")
            return try directory.write("trace-\u{1B}]0;pwned\u{07}-\u{9B}2J.ndjson", bytes: [UInt8](Data(contentsOf: source)))
        }
        return try directory.write(rawValue + ".ndjson", bytes: trace.bytes)
    }
}

/// A trace being written: one record per line, seq and t counted.
private struct TraceText {
    var bytes: [UInt8] = Array(#"{"seq":1,"t":0,"ev":"session","v":1,"app":"generated","pid":1,"wall":0}"#.utf8) + [10]
    var seq = 1
    var time: UInt64 = 0

    /// Appends `{"seq":N,"t":T,FIELDS}`.
    mutating func record(_ fields: String) {
        seq += 1
        time += 1_000
        bytes += Array(#"{"seq":\#(seq),"t":\#(time),\#(fields)}"#.utf8)
        bytes.append(10)
    }

    /// A router without an interactor, type `R`.
    mutating func router(_ id: Int) {
        record(#""ev":"router","id":\#(id),"type":"R","interactor":0,"itype":"""#)
    }
}
