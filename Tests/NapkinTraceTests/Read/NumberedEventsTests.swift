import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// ``TraceReader/readNumberedEvents(_:)``: each event with the line it was
/// read from, counted as the reader's diagnostics count lines.
@Suite("Numbered events")
struct NumberedEventsTests {
    @Test("each event's line: after blank, foreign, damaged and too long lines, with CRLF, out of order, across sessions")
    func lines() throws {
        let long = #"{"seq":99,"t":1,"ev":"mark","text":""# + String(repeating: "x", count: 200) + #""}"#
        let text = [
            "\u{FEFF}" + #"{"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":1,"wall":0}"#,   // 1
            "",                                                                                // 2
            "the app's own output",                                                            // 3
            #"{"seq":2,"t":1,"ev":"mark","text":"a"}"# + "\r",                                  // 4
            #"{"seq":3,"t":2,"ev":"teleport"}"#,                                                // 5
            long,                                                                              // 6
            #"{"seq":4,"t":3,"ev":"mark","text":"b","text":"c"}"#,                              // 7
            #"{"seq":6,"t":4,"ev":"mark","text":"d"}"#,                                         // 8
            #"{"seq":5,"t":4,"ev":"mark","text":"e"}"#,                                         // 9
            #"{"seq":1,"t":0,"ev":"session","v":1,"app":"b","pid":2,"wall":0}"#,               // 10
            #"{ "seq": 2, "t": 1, "ev": "mark", "text": "f" }"#,                                // 11
        ].joined(separator: "\n") + "\n"
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: Array(text.utf8))
        let reader = try TraceReader(path: file, options: .init(maxLineLength: 100))
        var found: [(UInt64, Int)] = []
        reader.readNumberedEvents { event, line in
            found.append((event.seq, line))
            return true
        }
        #expect(found.map(\.0) == [1, 2, 6, 5, 1, 2])
        #expect(found.map(\.1) == [1, 4, 8, 9, 10, 11])
    }

    @Test("reading stops when the body says so")
    func stops() throws {
        let text = (1...5).map { #"{"seq":\#($0),"t":\#($0),"ev":"mark","text":"m"}"# }.joined(separator: "\n") + "\n"
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: Array(text.utf8))
        let reader = try TraceReader(path: file)
        var lines: [Int] = []
        reader.readNumberedEvents { _, line in
            lines.append(line)
            return line < 3
        }
        #expect(lines == [1, 2, 3])
    }
}
