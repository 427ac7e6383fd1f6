@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// A record with a key twice is damaged: JSON readers disagree on which
/// value counts (jq takes the last), and no writer repeats a key. Neither
/// path of the parser takes it, and the reader says which key and where.
@Suite("Duplicate keys")
struct DuplicateKeyTests {
    /// What each path makes of `line`: the fast path's event, the general parser's result, the line parser's.
    static func parsed(_ line: String) -> (fast: TraceEvent?, general: TraceLineParser.Result, combined: TraceLineParser.Result) {
        var parser = TraceLineParser()
        return (WireFormatRoundTripTests.fastPath(line), WireFormatRoundTripTests.generalPath(line), parser.parse(line))
    }

    @Test("a repeated key makes a record invalid, naming the key, on both paths", arguments: [
        (#"{"seq":11,"t":5,"ev":"detach","parent":2,"child":4,"ev":"mark"}"#, "ev"),
        (#"{"seq":11,"t":5,"ev":"mark","ev":"detach","parent":2,"child":4}"#, "ev"),
        (#"{"seq":12,"t":5,"ev":"deinit","id":4,"id":3}"#, "id"),
        (#"{"seq":12,"t":5,"ev":"deinit","id":4,"\u0069d":4}"#, "id"),
        (#"{"seq":12,"t":5,"t":5,"ev":"load","id":4}"#, "t"),
        (#"{"seq":12,"t":5,"ev":"mark","text":"a","src":"A.swift:1","src":"A.swift:1"}"#, "src"),
        (#"{"seq":12,"t":5,"ev":"load","id":4,"future":1,"future":{"x":2}}"#, "future"),
        (#"{"seq":12,"t":5,"ev":"teleport","ev":"teleport"}"#, "ev"),
        (#"{"seq":12,"t":5,"ev":1,"ev":"load","id":4}"#, "ev"),
    ])
    func repeatedKey(_ line: String, _ key: String) {
        let (fast, general, combined) = Self.parsed(line)
        #expect(fast == nil, "the fast path never takes a line with a key twice")
        #expect(general == .invalid("duplicate key \"\(key)\""))
        #expect(combined == general)
    }

    @Test("only the record's own keys count: not those of a nested value, nor of an object that is not a record")
    func notTheRecordsKeys() {
        let nested = Self.parsed(#"{"seq":12,"t":5,"ev":"load","id":4,"future":{"x":1,"x":2}}"#)
        #expect(nested.general == .event(TraceEvent(seq: 12, time: 5, kind: .load(router: 4))))
        // A JSON log line (no "ev") is not a record, duplicates or not.
        guard case .notARecord = Self.parsed(#"{"level":"info","level":"debug"}"#).general else {
            Issue.record("a JSON object without ev is not a record")
            return
        }
    }

    @Test("every line the encoder writes, with one of its keys written again before the end: no path takes it",
          arguments: TraceEvent.Name.allCases)
    func encoderLinesWithAKeyAgain(_ name: TraceEvent.Name) {
        let line = TraceEncoder.line(WireFormatRoundTripTests.event(name))
        for field in WireFormatRoundTripTests.fields(line) {
            let key = String(field.prefix { $0 != ":" }.dropFirst().dropLast())
            let repeated = String(line.dropLast()) + "," + field + "}"
            let (fast, general, combined) = Self.parsed(repeated)
            #expect(fast == nil && general == .invalid("duplicate key \"\(key)\"") && combined == general, "\(repeated)")
        }
    }

    @Test("the reader skips the record with an error on its line, and the trace is damaged")
    func readerReportsTheLine() throws {
        let (result, reader) = try readAll(text: """
            {"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":1,"wall":0}
            {"seq":2,"t":1,"ev":"detach","parent":2,"child":4,"ev":"mark"}
            {"seq":3,"t":2,"ev":"mark","text":"after"}

            """)
        #expect(result.events.map(\.seq) == [1, 3])
        #expect(result.errors.map(\.description) == [#"line 2: duplicate key "ev"; line skipped"#])
        #expect(reader.integrity.problems.map(\.kind).contains(.damagedRecords), "\(reader.integrity.problems)")
    }

    @Test("a first record with a key twice: the input is not taken for a trace")
    func firstRecord() throws {
        let (result, reader) = try readAll(text: """
            {"seq":1,"t":0,"ev":"session","ev":"session","v":1,"app":"a","pid":1,"wall":0}

            """)
        #expect(result.events.isEmpty)
        #expect(reader.rejection?.message.contains(#"line 1: duplicate key "ev""#) == true, "\(String(describing: reader.rejection))")
    }
}
