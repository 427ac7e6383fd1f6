import Dispatch
import Foundation
import NapkinTrace
import NapkinTraceReader
import Synchronization
import Testing
import TestSupport

/// The streaming reader: tolerant of everything a real trace file can contain,
/// never crashing, never losing a valid event that follows a bad line.
@Suite("Trace reader")
struct TraceReaderTests {
    static let session = #"{"seq":1,"t":0,"ev":"session","v":1,"app":"t","pid":1,"wall":0}"#

    /// Valid mark records with the given seqs.
    static func marks(_ range: ClosedRange<Int>) -> [String] {
        range.map { #"{"seq":\#($0),"t":\#($0 * 1000),"ev":"mark","text":"m\#($0)"}"# }
    }

    // MARK: - Tolerated input

    @Test("blank lines and CRLF line endings are accepted")
    func blankLinesAndCRLF() throws {
        let lines = [Self.session] + Self.marks(2...4)
        let text = "\n\r\n" + lines.joined(separator: "\r\n\r\n  \t\r\n") + "\r\n\n"
        let (result, reader) = try readAll(text: text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.events.map(\.seq) == [1, 2, 3, 4])
        #expect(result.events.last?.kind == .mark(text: "m4"))
        #expect(reader.eventCount == 4)
        #expect(reader.invalidLineCount == 0)
        #expect(!reader.endedMidLine)
        #expect(reader.byteCount == text.utf8.count)
    }

    @Test("the last line without a newline is read when it is complete")
    func lastLineWithoutNewline() throws {
        let text = ([Self.session] + Self.marks(2...3)).joined(separator: "\n")
        let (result, reader) = try readAll(text: text)
        #expect(result.events.map(\.seq) == [1, 2, 3])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(reader.endedMidLine)
    }

    @Test("unknown kinds are skipped, counted per kind and noted once each; unknown fields are counted")
    func unknownKinds() throws {
        let lines = [
            Self.session,
            #"{"seq":2,"t":1,"ev":"teleport","id":3}"#,
            #"{"seq":3,"t":2,"ev":"mark","text":"a"}"#,
            #"{"seq":4,"t":3,"ev":"teleport","id":4}"#,
            #"{"seq":5,"t":4,"ev":"warp","speed":9}"#,
            #"{"seq":6,"t":5,"ev":"teleport"}"#,
            #"{"seq":7,"t":6,"ev":"mark","text":"b","colour":"red","extra":{"x":[1]}}"#,
        ]
        let (result, reader) = try readAll(text: lines.joined(separator: "\n") + "\n")
        #expect(result.events.map(\.seq) == [1, 3, 7])
        #expect(reader.unknownKinds == ["teleport": 3, "warp": 1])
        // Fields of known kinds only: "colour" and "extra" (not the unknown kind's "speed").
        #expect(reader.unknownFieldCount == 2)
        #expect(result.notes.count == 2)
        #expect(result.diagnostics.count == 2, "\(result.diagnostics)")
        #expect(result.notes.map(\.line) == [2, 5])
        #expect(result.notes.first?.message.contains("\"teleport\"") == true)
        #expect(result.notes.last?.message.contains("\"warp\"") == true)
        #expect(reader.invalidLineCount == 0)
    }

    @Test("a malformed line in the middle: a damaged record is an error, a line of other text a note; every later event kept")
    func malformedLineInTheMiddle() throws {
        var lines = [Self.session] + Self.marks(2...4)
        lines.insert(#"{"seq":5,"t":9,"ev":"attach","parent":2"#, at: 2)   // line 3: cut short
        lines.insert("not json at all", at: 4)                               // line 5
        lines.append(#"{"seq":9,"t":9000,"ev":"load","id":"four"}"#)        // line 7: wrong type
        lines += Self.marks(10...12)
        let (result, reader) = try readAll(text: lines.joined(separator: "\n") + "\n")
        #expect(result.events.map(\.seq) == [1, 2, 3, 4, 10, 11, 12])
        #expect(result.errors.map(\.line) == [3, 7])
        #expect(result.notes.map(\.line) == [5])
        #expect(result.errors.count + result.notes.count == result.diagnostics.count, "\(result.diagnostics)")
        if result.errors.count == 2 {
            #expect(result.errors[0].message.contains("truncated"))
            #expect(result.errors[1].message.contains("\"id\""))
        }
        #expect(result.notes.first?.message.contains("not JSON") == true)
        // Damaged records make the trace unusable for a verdict; seqs 5 to 9 are missing too.
        #expect(reader.integrity.problems.map(\.kind) == [.damagedRecords, .sequenceGap])
        #expect(reader.integrity.problems.first?.line == 3)
        #expect(reader.integrity.problems.first?.count == 2)
        for error in result.errors + result.notes {
            #expect(error.message.hasSuffix("line skipped") || error.message.hasSuffix("; skipped"))
            #expect(error.description.hasPrefix("line \(error.line ?? 0): "))
        }
        #expect(reader.invalidLineCount == 3)
        #expect(reader.lineCount == 10)
    }

    @Test("sequence numbers going back: a warning, the events are kept")
    func outOfOrder() throws {
        let lines = [
            Self.session,
            #"{"seq":2,"t":1,"ev":"mark","text":"a"}"#,
            #"{"seq":5,"t":2,"ev":"mark","text":"b"}"#,
            #"{"seq":3,"t":3,"ev":"mark","text":"c"}"#,
            #"{"seq":5,"t":4,"ev":"mark","text":"d"}"#,
            #"{"seq":6,"t":5,"ev":"mark","text":"e"}"#,
        ]
        let (result, _) = try readAll(text: lines.joined(separator: "\n") + "\n")
        #expect(result.events.map(\.seq) == [1, 2, 5, 3, 5, 6])
        #expect(result.warnings.map(\.line) == [4, 5])
        #expect(result.warnings.first?.message.contains("seq 3") == true)
        #expect(result.warnings.first?.message.contains("out of order") == true)
        #expect(result.errors.isEmpty)
        // The warning comes right before the event it is about.
        if let index = result.items.firstIndex(where: { if case .diagnostic = $0 { true } else { false } }) {
            #expect(result.items[index + 1] == .event(result.events[3]))
        }
    }

    @Test("a second session in the same stream restarts the sequence check, with a note; the trace stays usable")
    func secondSession() throws {
        let lines = [Self.session] + Self.marks(2...3) + [Self.session] + Self.marks(2...3)
        let (result, reader) = try readAll(text: lines.joined(separator: "\n") + "\n")
        #expect(result.events.count == 6)
        #expect(result.diagnostics.map(\.severity) == [.note], "\(result.diagnostics)")
        #expect(result.notes.first?.line == 4)
        #expect(result.notes.first?.message.contains("each is analysed on its own") == true)
        #expect(reader.integrity.isUsable)
        #expect(reader.integrity.sessions == 2)
    }

    @Test("a trace without its session record, or from a newer format version: a warning, events kept")
    func missingSessionOrNewerVersion() throws {
        let (headless, _) = try readAll(text: Self.marks(5...7).joined(separator: "\n") + "\n")
        #expect(headless.events.map(\.seq) == [5, 6, 7])
        #expect(headless.warnings.count == 1)
        #expect(headless.warnings.first?.message.contains("session") == true)

        let newer = #"{"seq":1,"t":0,"ev":"session","v":7,"app":"t"}"# + "\n" + Self.marks(2...2)[0] + "\n"
        let (future, _) = try readAll(text: newer)
        #expect(future.events.count == 2)
        #expect(future.warnings.count == 1)
        #expect(future.warnings.first?.message.contains("v7") == true)
    }

    // MARK: - Truncation

    @Test("truncation at every byte offset: complete lines are kept, at most a warning about the cut line", .dedicatedThread, .singleThreaded, arguments: [
        "orphaned-task", "duplicate-child",
    ])
    func truncationAtEveryOffset(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let (full, _) = try readAll(bytes: bytes)
        let scratch = try ScratchDirectory("cut")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", "")
        for cut in 0...bytes.count {
            let prefix = Array(bytes[..<cut])
            try scratch.replace("trace.ndjson", bytes: prefix)
            let reader = try TraceReader(path: file)
            let result = readAll(reader)
            // Lines complete before the cut (a final line that lacks only its newline counts).
            let completeLines = prefix.split(separator: 10, omittingEmptySubsequences: true).count
            let endsLine = prefix.isEmpty || prefix.last == 10 || (cut < bytes.count && bytes[cut] == 10)
            let expectedCount = endsLine ? completeLines : completeLines - 1
            #expect(result.events == Array(full.events.prefix(expectedCount)), "cut at \(cut)")
            #expect(reader.rejection == nil, "cut at \(cut)")
            #expect(result.errors.isEmpty, "cut at \(cut): \(result.errors)")
            #expect(result.notes.isEmpty, "cut at \(cut): \(result.notes)")
            if expectedCount < completeLines {
                #expect(result.warnings.count == 1, "cut at \(cut)")
                #expect(result.warnings.first?.message.contains("cut short") == true)
                #expect(result.warnings.first?.line == completeLines)
                #expect(reader.endedMidLine)
            } else {
                #expect(result.warnings.isEmpty, "cut at \(cut): \(result.warnings)")
            }
        }
    }

    // MARK: - Garbage

    @Test("binary garbage lines between valid events: a note for a line of other bytes, an error for a damaged record; the events are kept")
    func binaryGarbageInTheMiddle() throws {
        var bytes = Array((Self.session + "\n").utf8)
        bytes += [0, 1, 2, 0xFF, 0xFE, 0x80, 0x7B, 0x22, 0x0A]              // line 2: garbage, starting with NUL
        bytes += Array((Self.marks(2...2)[0] + "\n").utf8)
        bytes += Array(#"{"seq":3,"t":2500,"ev":"mark","text":""#.utf8) + [0xC3, 0x28, 0xFF] + Array("\"}\n".utf8) // invalid UTF-8 in a string
        bytes += [0x7B] + Array(repeating: 0x00, count: 300) + [0x0A]       // line 5: NULs
        bytes += Array((Self.marks(4...4)[0] + "\n").utf8)
        let (result, reader) = try readAll(bytes: bytes)
        #expect(reader.rejection == nil)
        #expect(result.events.map(\.seq) == [1, 2, 3, 4])
        #expect(result.notes.map(\.line) == [2])
        #expect(result.errors.map(\.line) == [5])
        #expect(reader.integrity.problems.map(\.kind) == [.damagedRecords])
        // Invalid UTF-8 inside a string is repaired, not fatal.
        if result.events.count > 2, case .mark(let text) = result.events[2].kind { #expect(text.contains("\u{FFFD}")) }
    }

    @Test("random bytes: the reader never crashes and never invents events", .dedicatedThread, .singleThreaded)
    func randomBytes() throws {
        var rng = SplitMix(seed: 42)
        let scratch = try ScratchDirectory("random")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", "")
        for round in 0..<200 {
            let count = Int(rng.next() % 4096)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if round % 2 == 0 {
                // Behind a valid session record, so that the reader does not reject the input.
                bytes = Array((Self.session + "\n").utf8) + bytes.map { $0 == 0x7B ? 0x20 : $0 }
            }
            try scratch.replace("trace.ndjson", bytes: bytes)
            let reader = try TraceReader(path: file, options: .init(maxLineLength: 256))
            let result = readAll(reader)
            if round % 2 == 0 {
                // Without '{' nothing after the session record can be an event: every
                // line is other text, a note each.
                #expect(reader.rejection == nil)
                #expect(result.events.count == 1, "round \(round)")
                #expect(result.errors.allSatisfy { $0.message.contains("longer than") }, "\(result.errors)")
                #expect(reader.invalidLineCount == result.diagnostics.count)
            } else {
                #expect(result.events.isEmpty, "round \(round)")
            }
        }
    }

    @Test("a file that is not a trace is rejected", arguments: [
        "# Fixture traces\n\nSmall, hand-written NDJSON traces\n",
        #"{"name":"napkin","version":"1.0.0","dependencies":{}}"# + "\n" + #"{"name":"other"}"# + "\n",
        "seq,t,ev\n1,0,session\n",
        "<?xml version=\"1.0\"?>\n<trace/>\n",
    ])
    func notATrace(_ text: String) throws {
        let (result, reader) = try readAll(text: text)
        let rejection = try #require(reader.rejection)
        #expect(rejection.message.contains("not a napkin trace"))
        #expect(rejection.message.contains("line 1"))
        #expect(result.items.isEmpty, "\(result.items)")
        #expect(reader.next() == nil)
    }

    @Test("lines that are not records before the first record (the app's own output) are skipped; after it, counted")
    func outputBeforeTheFirstRecord() throws {
        let text = "Starting MyServer...\n" + #"{"level":"info","msg":"listening"}"# + "\n" + ([Self.session] + Self.marks(2...4)).joined(separator: "\n")
            + "\nrequest served\n" + Self.marks(5...5)[0] + "\n"
        let (result, reader) = try readAll(text: text)
        #expect(reader.rejection == nil)
        #expect(result.events.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(result.errors.isEmpty)
        #expect(result.notes.map(\.line) == [7])
        #expect(reader.integrity.isUsable, "\(reader.integrity.problems)")
        #expect(reader.integrity.foreignLines == 3)
        #expect(reader.integrity.records == 5)
    }

    @Test("one session record and a million lines of garbage: not usable for a verdict")
    func mostlyGarbage() throws {
        var text = Self.session + "\n"
        for k in 0..<2_000 { text += "garbage line \(k)\n" }
        let (result, reader) = try readAll(text: text)
        #expect(reader.rejection == nil)
        #expect(result.events.count == 1)
        #expect(reader.integrity.problems.map(\.kind) == [.mostlyNotRecords])
        #expect(reader.integrity.problems.first?.message.contains("2000 of 2001 lines") == true)
    }

    @Test("a file with no record at all in its first 1,000 lines is rejected as not a trace")
    func noRecordInTheFirstLines() throws {
        let text = (0..<1_500).map { "line \($0)" }.joined(separator: "\n") + "\n" + Self.session + "\n"
        let (result, reader) = try readAll(text: text)
        let rejection = try #require(reader.rejection)
        #expect(rejection.message.contains("not a napkin trace: line 1"))
        #expect(result.events.isEmpty)
    }

    @Test("sequence gaps not accounted for by a dropped record, seqs going back, time going back or jumping: damage", .dedicatedThread, .singleThreaded)
    func sequenceAndTime() throws {
        func problems(_ lines: [String]) throws -> [TraceIntegrity.Problem.Kind] {
            let (_, reader) = try readAll(text: lines.joined(separator: "\n") + "\n")
            return reader.integrity.problems.map(\.kind)
        }
        let clean = [Self.session] + Self.marks(2...6)
        #expect(try problems(clean) == [])
        // A dropped record that names exactly the missing seqs accounts for them.
        let dropped = [Self.session] + Self.marks(2...3) + [#"{"seq":7,"t":7000,"ev":"dropped","count":3,"first":4,"last":6}"#] + Self.marks(8...9)
        #expect(try problems(dropped) == [])
        #expect(try problems([Self.session] + Self.marks(2...3) + Self.marks(6...7)) == [.sequenceGap])
        #expect(try problems([Self.session] + Self.marks(2...5) + Self.marks(3...4)) == [.timeBackwards, .sequenceOutOfOrder])
        #expect(try problems([Self.session, #"{"seq":2,"t":5000,"ev":"mark","text":"a"}"#, #"{"seq":3,"t":4000,"ev":"mark","text":"b"}"#]) == [.timeBackwards])
        let jump = #"{"seq":3,"t":1000000000000000,"ev":"mark","text":"b"}"#
        #expect(try problems([Self.session, #"{"seq":2,"t":5000,"ev":"mark","text":"a"}"#, jump]) == [.timeJump])
        // Wrap-around near 2^64: a jump, then time going back.
        let wrap = [Self.session, #"{"seq":2,"t":18446744073709551000,"ev":"mark","text":"a"}"#, #"{"seq":3,"t":5,"ev":"mark","text":"b"}"#]
        #expect(try problems(wrap) == [.timeJump, .timeBackwards])
        // Two processes writing to one destination: two sessions, interleaved.
        let interleaved = [Self.session, Self.session] + Self.marks(2...3) + Self.marks(2...3)
        #expect(try problems(interleaved).contains(.sequenceOutOfOrder))
    }

    @Test("a real README is rejected")
    func readmeIsRejected() throws {
        let (result, reader) = try readAll(path: Fixtures.directory.appendingPathComponent("README.md").path)
        #expect(reader.rejection != nil)
        #expect(result.events.isEmpty)
    }

    @Test("an empty file yields nothing, and no rejection")
    func emptyFile() throws {
        for text in ["", "\n\n", "\r\n  \n"] {
            let (result, reader) = try readAll(text: text)
            #expect(result.items.isEmpty)
            #expect(reader.rejection == nil)
            #expect(reader.eventCount == 0)
        }
    }

    @Test("opening a missing file or a directory throws a clear error")
    func badPaths() throws {
        let missing = NSTemporaryDirectory() + "napkin-no-such-trace-\(UUID().uuidString).ndjson"
        do {
            _ = try TraceReader(path: missing)
            Issue.record("a missing file was opened")
        } catch let error as TraceReadError {
            #expect(error.message.contains("no such file"))
            #expect(error.source == missing)
        }
        do {
            _ = try TraceReader(path: NSTemporaryDirectory())
            Issue.record("a directory was opened as a trace")
        } catch let error as TraceReadError {
            #expect(error.message.contains("directory"))
        }
    }

    // MARK: - Enormous lines

    @Test("a line longer than maxLineLength is skipped with an error; the following events are kept", .dedicatedThread, .singleThreaded,
          arguments: [100, 5_000, 300_000, 1_000_000])
    func enormousLine(_ length: Int) throws {
        let text = String(repeating: "x", count: length)
        let long = #"{"seq":3,"t":2,"ev":"mark","text":""# + text + #""}"#
        let lines = [Self.session, Self.marks(2...2)[0], long] + Self.marks(4...6)
        let (result, reader) = try readAll(text: lines.joined(separator: "\n") + "\n", options: .init(maxLineLength: 1024))
        if long.utf8.count <= 1024 {
            #expect(result.events.map(\.seq) == [1, 2, 3, 4, 5, 6])
            #expect(result.diagnostics.isEmpty)
        } else {
            #expect(result.events.map(\.seq) == [1, 2, 4, 5, 6])
            #expect(result.errors.count == 1, "\(result.diagnostics)")
            #expect(result.errors.first?.line == 3)
            #expect(result.errors.first?.message.contains("longer than 1024 bytes") == true)
            #expect(reader.invalidLineCount == 1)
        }
        #expect(reader.lineCount == 6)
    }

    @Test("an enormous line with the default limit, and one at the very end without a newline", .dedicatedThread, .singleThreaded)
    func enormousLineDefaultLimit() throws {
        let huge = String(repeating: "a", count: 3 << 20)
        let lines = [Self.session, huge] + Self.marks(3...4) + [huge]
        let (result, reader) = try readAll(text: lines.joined(separator: "\n"))
        #expect(result.events.map(\.seq) == [1, 3, 4])
        #expect(result.errors.map(\.line) == [2, 5])
        #expect(reader.lineCount == 5)
    }

    @Test("maxLineLength is never below 64 bytes")
    func minimumLineLength() throws {
        let options = TraceReader.Options(maxLineLength: 1)
        #expect(options.maxLineLength == 64)
        let long = #"{"seq":2,"t":1,"ev":"mark","text":"a mark a little longer than sixty-four bytes"}"#
        let (result, _) = try readAll(text: [Self.session, long, Self.marks(3...3)[0]].joined(separator: "\n"), options: options)
        #expect(result.events.map(\.seq) == [1, 3])
        #expect(result.errors.map(\.line) == [2])
    }

    // MARK: - Pipes

    @Test("reading from a pipe written in small pieces by another thread")
    func readsFromAPipe() async throws {
        let bytes = try Fixtures.bytes("orphaned-task")
        let (expected, _) = try readAll(bytes: bytes)
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            var offset = 0
            var size = 1
            while offset < bytes.count {
                let n = min(size, bytes.count - offset)
                _ = bytes[offset..<(offset + n)].withUnsafeBytes { CLibrary.write(writeEnd, $0.baseAddress, n) }
                offset += n
                size = size * 3 % 97 + 1
                usleep(200)
            }
            close(writeEnd)
        }
        writer.start()
        let events = await onThread {
            let reader = TraceReader(fileDescriptor: readEnd, source: "-")
            return readAll(reader).events
        }
        close(readEnd)
        #expect(events == expected.events)
    }

    // MARK: - Follow mode

    @Test("follow: events appended by another thread are read as they come")
    func followGrowingFile() async throws {
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", Self.session + "\n")
        let reader = Shared(try TraceReader(path: file, options: .init(follow: true, pollInterval: .milliseconds(5))))
        let appender = Thread {
            for chunk in Self.marks(2...40) {
                // Write each line in two pieces, so the reader sometimes sees half a line.
                let half = chunk.index(chunk.startIndex, offsetBy: chunk.count / 2)
                try? scratch.append("trace.ndjson", String(chunk[..<half]))
                usleep(500)
                try? scratch.append("trace.ndjson", String(chunk[half...]) + "\n")
                usleep(500)
            }
        }
        appender.start()
        let result = await followUntil(reader, timeout: .seconds(30)) { $0.events.count == 40 }
        #expect(result.events.map(\.seq) == Array(1...40))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(!result.timedOut)
    }

    @Test("follow: a truncated and rewritten file is noticed and read from the start")
    func followTruncation() async throws {
        let old = ([Self.session] + Self.marks(2...30)).joined(separator: "\n") + "\n"
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", old)
        let reader = Shared(try TraceReader(path: file, options: .init(follow: true, pollInterval: .milliseconds(5))))
        let new = #"{"seq":1,"t":0,"ev":"session","v":1,"app":"second","pid":2,"wall":0}"# + "\n"
            + #"{"seq":2,"t":5,"ev":"mark","text":"again"}"# + "\n"
        let rewritten = Flag()
        let result = await followUntil(reader, timeout: .seconds(30), onItem: { result in
            // Once the old content is read, truncate the file and write shorter content.
            if result.events.count == 30 && rewritten.setFirst() {
                try? scratch.replace("trace.ndjson", bytes: Array(new.utf8))
            }
        }) { $0.events.last?.kind == .mark(text: "again") }
        #expect(!result.timedOut)
        #expect(result.events.count == 32)
        #expect(result.notes.count == 1)
        #expect(result.notes.first?.message.contains("truncated") == true)
        #expect(result.errors.isEmpty && result.warnings.isEmpty, "\(result.diagnostics)")
        if case .sessionStart(let info)? = result.events.dropLast().last?.kind {
            #expect(info.app == "second")
        } else {
            Issue.record("the new content's session record was not read")
        }
    }

    @Test("follow: a file replaced by rename is noticed and the new file followed")
    func followReplacement() async throws {
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", ([Self.session] + Self.marks(2...3)).joined(separator: "\n") + "\n")
        let reader = Shared(try TraceReader(path: file, options: .init(follow: true, pollInterval: .milliseconds(5))))
        let replaced = Flag()
        let replacement = ([#"{"seq":1,"t":0,"ev":"session","v":1,"app":"rotated","pid":3,"wall":0}"#]
                           + Self.marks(2...50)).joined(separator: "\n") + "\n"
        let result = await followUntil(reader, timeout: .seconds(30), onItem: { result in
            if result.events.count == 3 && replaced.setFirst() {
                let other = file + ".new"
                _ = FileManager.default.createFile(atPath: other, contents: Data(replacement.utf8))
                rename(other, file)
            }
        }) { $0.events.count == 53 }
        #expect(!result.timedOut)
        #expect(result.events.count == 53)
        #expect(result.notes.count == 1)
        #expect(result.notes.first?.message.contains("replaced") == true)
        if result.events.count > 3, case .sessionStart(let info) = result.events[3].kind {
            #expect(info.app == "rotated")
        } else {
            Issue.record("the new file's session record was not read")
        }
        #expect(result.errors.isEmpty && result.warnings.isEmpty, "\(result.diagnostics)")
    }

    @Test("follow: stop() from another thread ends a reader waiting at the end of the file")
    func followStop() async throws {
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", Self.session + "\n")
        let reader = Shared(try TraceReader(path: file, options: .init(follow: true, pollInterval: .milliseconds(5))))
        let result = await followUntil(reader, timeout: .milliseconds(300)) { _ in false }
        #expect(result.timedOut)
        #expect(result.events.count == 1)
        #expect(reader.value.next() == nil)
    }
}

// MARK: - Helpers

/// A value handed to other threads; the reader's `stop()` is documented as
/// safe to call from any thread, and the rest is used by one thread at a time.
final class Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A flag threads can share.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    /// Sets the flag; returns whether this call was the one that set it.
    func setFirst() -> Bool { !value.exchange(true, ordering: .acquiringAndReleasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// What a following reader returned before it was stopped.
struct FollowResult {
    var events: [TraceEvent] = []
    var diagnostics: [TraceDiagnostic] = []
    var timedOut = false
    var errors: [TraceDiagnostic] { diagnostics.filter { $0.severity == .error } }
    var warnings: [TraceDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    var notes: [TraceDiagnostic] { diagnostics.filter { $0.severity == .note } }
}

/// Runs `body` on a new thread (it blocks), off the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Reads a following reader on its own thread until `done` holds, then stops
/// it; a timer stops it after `timeout` whatever happens, so a test never hangs.
func followUntil(_ reader: Shared<TraceReader>, timeout: Duration,
                 onItem: @escaping @Sendable (FollowResult) -> Void = { _ in },
                 _ done: @escaping @Sendable (FollowResult) -> Bool) async -> FollowResult {
    let finished = Flag()
    let timedOut = Flag()
    let (seconds, attoseconds) = timeout.components
    let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    DispatchQueue.global().asyncAfter(deadline: deadline) {
        if !finished.isSet {
            _ = timedOut.setFirst()
            reader.value.stop()
        }
    }
    var result = await onThread {
        var result = FollowResult()
        while let item = reader.value.next() {
            switch item {
            case .event(let event): result.events.append(event)
            case .diagnostic(let diagnostic): result.diagnostics.append(diagnostic)
            }
            onItem(result)
            if done(result) {
                reader.value.stop()
                break
            }
        }
        // Finished here, on the reading thread: the task awaiting this
        // thread may resume much later on a busy machine (its pool is as
        // wide as the cores), and that delay is not the reader's.
        _ = finished.setFirst()
        return result
    }
    result.timedOut = timedOut.isSet
    return result
}
