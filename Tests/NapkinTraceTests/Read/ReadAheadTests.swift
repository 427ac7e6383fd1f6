import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// `TraceReader.readAhead(event:diagnostic:)` hands out what
/// `read(event:diagnostic:)` hands out on a fresh reader, in the same order
/// (diagnostics after a rejection aside), and leaves the reader in the same
/// state: on every trace file of the repository, on long generated traces
/// with damage on both sides of the 2,048-event batch boundaries, stopped
/// or thrown out of part way, empty, and not a trace at all.
@Suite("Reading ahead with readAhead(event:diagnostic:)")
struct ReadAheadTests {
    /// Events per batch handed from the reading thread (`ReadAheadChannel.batchSize`).
    static let batch = 2_048
    /// How far ahead (in events) the reading thread can be of the event being
    /// handed out: the rest of its batch, 4 full batches waiting and the one being filled.
    static let maxAhead = 6 * batch

    /// What one way of reading handed out.
    struct Reading {
        /// Events and diagnostics, in order.
        var items: [TraceReader.Item] = []
        /// Diagnostics `read` handed out once the input was rejected (not in `items`).
        var afterRejection = 0
        /// Calls of either callback after `event` returned false or a callback threw.
        var lateCalls = 0
        /// The error a callback threw and the reader rethrew, if any.
        var thrown: Stop?
    }

    /// The error the callbacks throw.
    struct Stop: Error, Equatable {
        var at: Int
    }

    /// When a callback stops reading: `event` returns false at event `event`
    /// (counted from 0), or throws there; or `diagnostic` throws at diagnostic `diagnostic`.
    struct Stopping {
        var event: Int = .max
        var throwing = false
        var diagnostic: Int = .max
        static let never = Stopping()
    }

    /// Reads `reader` with `read` (`ahead` false) or `readAhead` (`ahead` true).
    static func read(_ reader: TraceReader, ahead: Bool, stopping: Stopping = .never) -> Reading {
        var reading = Reading()
        var events = 0, diagnostics = 0
        var over = false
        func event(_ event: TraceEvent) throws(Stop) -> Bool {
            if over { reading.lateCalls += 1 }
            reading.items.append(.event(event))
            events += 1
            if events - 1 == stopping.event {
                over = true
                if stopping.throwing { throw Stop(at: stopping.event) }
                return false
            }
            return true
        }
        func diagnostic(_ diagnostic: TraceDiagnostic) throws(Stop) {
            if over { reading.lateCalls += 1 }
            // Reading ahead, the reader must not be touched until it returns.
            if !ahead && reader.rejection != nil {
                reading.afterRejection += 1
                return
            }
            reading.items.append(.diagnostic(diagnostic))
            diagnostics += 1
            if diagnostics - 1 == stopping.diagnostic {
                over = true
                throw Stop(at: stopping.diagnostic)
            }
        }
        do throws(Stop) {
            if ahead {
                try reader.readAhead(event: event, diagnostic: diagnostic)
            } else {
                try reader.read(event: event, diagnostic: diagnostic)
            }
        } catch {
            reading.thrown = error
        }
        return reading
    }

    /// Reads the file at `path` both ways, each with a fresh reader.
    static func bothWays(_ path: String, options: TraceReader.Options = .init(), stopping: Stopping = .never) throws
        -> (plain: Reading, plainReader: TraceReader, ahead: Reading, aheadReader: TraceReader) {
        let plainReader = try TraceReader(path: path, options: options)
        let plain = read(plainReader, ahead: false, stopping: stopping)
        let aheadReader = try TraceReader(path: path, options: options)
        let ahead = read(aheadReader, ahead: true, stopping: stopping)
        return (plain, plainReader, ahead, aheadReader)
    }

    /// Reads `path` completely both ways and expects the same items and the same reader state; returns the plain reading.
    @discardableResult
    static func expectSame(_ path: String, _ name: String, options: TraceReader.Options = .init(),
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Reading {
        let (plain, plainReader, ahead, aheadReader) = try bothWays(path, options: options)
        #expect(ahead.items.count == plain.items.count, "\(name)", sourceLocation: sourceLocation)
        if ahead.items != plain.items {
            let first = zip(ahead.items, plain.items).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(ahead.items.count, plain.items.count)
            Issue.record("\(name): items differ from item \(first): read ahead \(ahead.items.dropFirst(first).prefix(3)), read \(plain.items.dropFirst(first).prefix(3))",
                         sourceLocation: sourceLocation)
        }
        #expect(ahead.lateCalls == 0 && plain.lateCalls == 0, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.eventCount == plainReader.eventCount, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.lineCount == plainReader.lineCount, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.byteCount == plainReader.byteCount, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.invalidLineCount == plainReader.invalidLineCount, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.unknownFieldCount == plainReader.unknownFieldCount, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.unknownKinds == plainReader.unknownKinds, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.endedMidLine == plainReader.endedMidLine, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.integrity == plainReader.integrity, "\(name)", sourceLocation: sourceLocation)
        #expect(aheadReader.rejection?.message == plainReader.rejection?.message, "\(name)", sourceLocation: sourceLocation)
        // Nothing is left to read after either.
        #expect(aheadReader.next() == nil && plainReader.next() == nil, "\(name)", sourceLocation: sourceLocation)
        return plain
    }

    /// For each diagnostic of `items`, how many events come before it.
    static func diagnosticPositions(_ items: [TraceReader.Item]) -> [Int] {
        var events = 0
        var positions: [Int] = []
        for item in items {
            switch item {
            case .event: events += 1
            case .diagnostic: positions.append(events)
            }
        }
        return positions
    }

    // MARK: - Traces written for the tests

    /// Lines that are not simply the next record, put between the records of a generated trace.
    enum Junk: CaseIterable {
        /// A line that looks like a record but is damaged (an error).
        case damaged
        /// The app's own output (a note).
        case foreign
        /// Empty and white-space lines (nothing).
        case blank
        /// A record longer than the reader's line limit (an error).
        case tooLong
        /// A record whose seq goes backwards (a warning, then the event).
        case outOfOrder
        /// A record of a kind this reader does not know (a note the first time).
        case unknownKind
        /// A new session record (the event, then a note).
        case newSession
        /// Sequence numbers skip a few (no diagnostic; the integrity notes it).
        case seqGap
    }

    /// A trace being generated: records written with `TraceEncoder`, junk between them.
    struct Generator {
        var bytes: [UInt8] = []
        var seq: UInt64 = 0
        var time: UInt64 = 0
        /// Events the reader will hand out for the bytes so far.
        var events = 0
        /// Bytes of a too-long line (more than the reader's limit).
        let longLine: Int

        init(longLine: Int) {
            self.longLine = longLine
            record(.sessionStart(SessionInfo(app: "read-ahead", pid: 7, wallClock: 1_700_000_000_000_000_000)))
        }

        mutating func record(_ kind: TraceEvent.Kind) {
            seq += 1
            time += 1_000
            TraceEncoder.append(TraceEvent(seq: seq, time: time, kind: kind), to: &bytes)
            events += 1
        }

        /// An ordinary record, varied by `k`.
        mutating func ordinary(_ k: Int) {
            let id = UInt64(k + 1)
            switch k % 4 {
            case 0: record(.interactorCreated(id: id, type: "Interactor\(k % 97)"))
            case 1: record(.mark(text: "step \(k) \u{e9}\u{1F9FB} \"quoted\""))
            case 2: record(.activate(interactor: id))
            default: record(.deallocated(id: id))
            }
        }

        mutating func line(_ text: String) {
            bytes += Array(text.utf8)
            bytes.append(10)
        }

        mutating func junk(_ junk: Junk) {
            switch junk {
            case .damaged:
                line(#"{"seq":\#(seq + 1),"t":\#(time),"ev":"mark","text":"unterminated}"#)
            case .foreign:
                line("[app] loading the catalog (\(seq))")
            case .blank:
                line("")
                line("  \t\r")
            case .tooLong:
                line(#"{"seq":\#(seq + 1),"t":\#(time),"ev":"mark","text":"\#(String(repeating: "x", count: longLine))"}"#)
            case .outOfOrder:
                // An earlier seq, at the same time: a warning, then the event.
                TraceEncoder.append(TraceEvent(seq: seq - 1, time: time, kind: .mark(text: "late")), to: &bytes)
                events += 1
            case .unknownKind:
                seq += 1
                line(#"{"seq":\#(seq),"t":\#(time),"ev":"from_the_future","x":1}"#)
            case .newSession:
                record(.sessionStart(SessionInfo(app: "read-ahead", pid: 8, wallClock: 1_700_000_000_000_000_000)))
            case .seqGap:
                seq += 3
            }
        }
    }

    /// A trace of `count` events (the session record included) with `junk[n]`
    /// written when `n` events are written, and `tail` after the last record;
    /// `truncated` ends it with half a record.
    static func generate(count: Int, junk: [Int: [Junk]] = [:], tail: [Junk] = [], truncated: Bool = false,
                         longLine: Int = 400) -> (bytes: [UInt8], junkPositions: Set<Int>) {
        var g = Generator(longLine: longLine)
        var positions: Set<Int> = []
        var k = 0
        while g.events < count {
            if let lines = junk[g.events], !positions.contains(g.events) {
                positions.insert(g.events)
                for line in lines { g.junk(line) }
                continue
            }
            g.ordinary(k)
            k += 1
        }
        for line in tail { g.junk(line) }
        if truncated { g.bytes += Array(#"{"seq":\#(g.seq + 1),"t":\#(g.time),"ev":"mar"#.utf8) }
        return (g.bytes, positions)
    }

    /// Junk on both sides of the batch boundaries (and at the very start).
    static let boundaryJunk: [Int: [Junk]] = {
        let kinds = Junk.allCases
        var junk: [Int: [Junk]] = [:]
        var n = 0
        for boundary in [1, 2 * batch, 3 * batch, 4 * batch, 5 * batch, batch] {
            for position in [boundary - 2, boundary - 1, boundary, boundary + 1] where position >= 1 {
                junk[position] = [kinds[n % kinds.count], kinds[(n + 3) % kinds.count]]
                n += 1
            }
        }
        // Several diagnostics in a row right before the first event of the second batch.
        junk[batch] = [.damaged, .foreign, .tooLong, .blank, .outOfOrder, .damaged]
        // The last event of a batch is a session record: its note comes after it, in the next batch.
        junk[2 * batch - 1] = [.newSession]
        return junk
    }()

    /// Reads `bytes` from a temporary file both ways, with the usual options
    /// and with small reads, and expects the same; returns the plain reading.
    @discardableResult
    static func expectSame(bytes: [UInt8], _ name: String, maxLineLength: Int = 256,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Reading {
        let scratch = try ScratchDirectory("read-ahead")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: bytes)
        var chunked = TraceReader.Options(maxLineLength: maxLineLength)
        chunked.readChunk = 4096
        try expectSame(file, name + " (small reads)", options: chunked, sourceLocation: sourceLocation)
        return try expectSame(file, name, options: TraceReader.Options(maxLineLength: maxLineLength), sourceLocation: sourceLocation)
    }

    // MARK: - Whole traces

    @Test("every trace file of the repository, read whole and with small buffers", .dedicatedThread)
    func repository() throws {
        var small = TraceReader.Options(maxLineLength: 64)
        small.readChunk = 4096
        var files = 0
        for directory in ["Tests/Fixtures/traces", "Tests/Fixtures/hostile", "Tests/Fixtures/fuzz", "Examples/traces"] {
            for name in try PackagePaths.files(in: directory, endingIn: "") where !name.hasSuffix(".sh") {
                let path = PackagePaths.url(directory + "/" + name).path
                try Self.expectSame(path, directory + "/" + name)
                try Self.expectSame(path, directory + "/" + name + " (small buffers)", options: small)
                files += 1
            }
        }
        #expect(files > 50)
    }

    @Test("11,000 events with damage on both sides of every batch boundary, a second session, and a cut last line", .dedicatedThread)
    func boundaries() throws {
        let (bytes, junkPositions) = Self.generate(count: 11_000, junk: Self.boundaryJunk,
                                                   tail: [.damaged, .foreign, .outOfOrder, .blank], truncated: true)
        #expect(junkPositions == Set(Self.boundaryJunk.keys))
        let plain = try Self.expectSame(bytes: bytes, "boundaries")
        // The trace does put diagnostics where the batches meet.
        let positions = Set(Self.diagnosticPositions(plain.items))
        for position in [1, Self.batch - 1, Self.batch, Self.batch + 1, 2 * Self.batch, 4 * Self.batch - 1, 4 * Self.batch] {
            #expect(positions.contains(position), "no diagnostic after \(position) events")
        }
        let events = plain.items.filter { if case .event = $0 { true } else { false } }.count
        #expect(events > 11_000)
        // After the last event: the damage of the tail and the cut line.
        if case .diagnostic(let last) = plain.items.last {
            #expect(last.severity == .warning && last.message.contains("cut short"), "\(last)")
        } else {
            Issue.record("the trace does not end with the cut line's warning")
        }
    }

    @Test("whole batches: exactly 4 of them, then with diagnostics only after the last, and one event more", .dedicatedThread)
    func wholeBatches() throws {
        let exact = Self.generate(count: 4 * Self.batch).bytes
        let plain = try Self.expectSame(bytes: exact, "4 whole batches")
        #expect(plain.items.count == 4 * Self.batch && Self.diagnosticPositions(plain.items).isEmpty)

        let tail = Self.generate(count: 4 * Self.batch, tail: [.damaged, .foreign, .tooLong], truncated: true).bytes
        let withTail = try Self.expectSame(bytes: tail, "4 whole batches, then diagnostics")
        #expect(Self.diagnosticPositions(withTail.items) == Array(repeating: 4 * Self.batch, count: 4))

        let oneMore = Self.generate(count: 4 * Self.batch + 1, junk: [4 * Self.batch: [.foreign]]).bytes
        let plainOneMore = try Self.expectSame(bytes: oneMore, "4 whole batches and one event")
        #expect(Self.diagnosticPositions(plainOneMore.items) == [4 * Self.batch])
    }

    @Test("a line over the default limit of 1 MiB right before the first event of the second batch", .dedicatedThread)
    func longLineAtBoundary() throws {
        let bytes = Self.generate(count: 3 * Self.batch, junk: [Self.batch: [.tooLong, .foreign]], longLine: (1 << 20) + 100).bytes
        let scratch = try ScratchDirectory("read-ahead-long")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: bytes)
        let plain = try Self.expectSame(file, "1 MiB line")
        #expect(Self.diagnosticPositions(plain.items) == [Self.batch, Self.batch])
    }

    @Test("thousands of diagnostics between two events, more than a batch holds", .dedicatedThread)
    func manyDiagnosticsTogether() throws {
        var junk: [Int: [Junk]] = [3: Array(repeating: .damaged, count: 3 * Self.batch + 5)]
        junk[Self.batch + 10] = Array(repeating: .foreign, count: Self.batch)
        let bytes = Self.generate(count: 3 * Self.batch, junk: junk).bytes
        let plain = try Self.expectSame(bytes: bytes, "many diagnostics together")
        #expect(Self.diagnosticPositions(plain.items).count == 4 * Self.batch + 5)
    }

    @Test("an empty file: nothing handed out, and no rejection, as with read")
    func empty() throws {
        let scratch = try ScratchDirectory("read-ahead-empty")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: [UInt8]())
        let (plain, plainReader, ahead, aheadReader) = try Self.bothWays(file)
        #expect(ahead.items.isEmpty && plain.items.isEmpty)
        #expect(aheadReader.rejection == nil && plainReader.rejection == nil)
        #expect(aheadReader.eventCount == 0 && aheadReader.byteCount == 0 && aheadReader.lineCount == 0)
        try Self.expectSame(file, "empty")
        let blankScratch = try ScratchDirectory("read-ahead-blank")
        defer { blankScratch.remove() }
        let blank = try blankScratch.write("trace.ndjson", "\n\n  \n")
        try Self.expectSame(blank, "blank lines only")
    }

    @Test("input that is not a trace: rejected afterwards as with read, no diagnostic after the rejection", .dedicatedThread,
          arguments: [
              ("a JSON array", "[\n  {\"seq\": 1, \"t\": 0},\n  {\"seq\": 2, \"t\": 1}\n]\n"),
              ("plain text", "Hello,\nthis is not a trace.\n\nIt has lines.\n"),
              ("more foreign lines than allowed", String(repeating: "the app says hello\n", count: 1_500) + "{\"seq\":1,\"t\":0,\"ev\":\"mark\",\"text\":\"a\"}\n"),
              ("a too-long line, then text", String(repeating: "y", count: 300) + "\nplain text\n" + String(repeating: "z", count: 300)),
              ("a damaged first record, then records", "{\"seq\":1,\"t\":0,\"ev\":\"session\",\"v\":1,\n" +
                  (2...5_000).map { "{\"seq\":\($0),\"t\":\($0),\"ev\":\"mark\",\"text\":\"m\"}\n" }.joined() + "[1,2\n"),
          ])
    func notATrace(name: String, text: String) throws {
        let scratch = try ScratchDirectory("read-ahead-not-a-trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", text)
        let (plain, plainReader, ahead, aheadReader) = try Self.bothWays(file, options: .init(maxLineLength: 256))
        #expect(plainReader.rejection != nil, "\(name)")
        #expect(aheadReader.rejection?.message == plainReader.rejection?.message, "\(name)")
        #expect(ahead.items == plain.items, "\(name): read ahead \(ahead.items), read \(plain.items)")
        #expect(!ahead.items.contains { if case .event = $0 { true } else { false } }, "\(name)")
        try Self.expectSame(file, name, options: .init(maxLineLength: 256))
    }

    // MARK: - Stopping part way

    /// 50,000 events with junk sprinkled over the first batches.
    static let longTrace: [UInt8] = generate(count: 50_000, junk: boundaryJunk, tail: [.foreign], truncated: true).bytes

    @Test("event returns false at event k: exactly k + 1 events, then nothing, and the reading thread stops", .dedicatedThread,
          .timeLimit(.minutes(2)), arguments: [0, 1, 2_047, 2_048, 5_000])
    func stopsAt(k: Int) throws {
        let scratch = try ScratchDirectory("read-ahead-stop")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: Self.longTrace)
        let (plain, _, ahead, aheadReader) = try Self.bothWays(file, options: .init(maxLineLength: 256),
                                                                stopping: Stopping(event: k))
        let events = ahead.items.filter { if case .event = $0 { true } else { false } }.count
        #expect(events == k + 1)
        #expect(ahead.lateCalls == 0)
        #expect(ahead.thrown == nil)
        if case .event = ahead.items.last {} else { Issue.record("the last item is not the event that stopped reading") }
        #expect(ahead.items == plain.items)
        // The counts include what was read ahead, but the reading thread
        // stopped instead of reading on to the end (50,000 events).
        #expect(aheadReader.eventCount >= k + 1)
        #expect(aheadReader.eventCount <= k + Self.maxAhead, "read \(aheadReader.eventCount) events")
        #expect(aheadReader.rejection == nil)
    }

    @Test("a reader that follows its input is read on the calling thread: stopped at event 0, nothing was read ahead",
          .timeLimit(.minutes(2)))
    func followingReaderIsNotReadAhead() throws {
        let scratch = try ScratchDirectory("read-ahead-follow")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: Self.longTrace)
        let reader = try TraceReader(path: file, options: .init(follow: true, maxLineLength: 256))
        let reading = Self.read(reader, ahead: true, stopping: Stopping(event: 0))
        let events = reading.items.filter { if case .event = $0 { true } else { false } }.count
        #expect(events == 1)
        #expect(reading.lateCalls == 0)
        // Read ahead, the reading thread would have parsed at least a batch.
        #expect(reader.eventCount == 1, "read \(reader.eventCount) events")
    }

    @Test("a callback that throws at event k: the error comes out, nothing after it, and the reader goes away", .dedicatedThread,
          .timeLimit(.minutes(2)), arguments: [0, 1, 2_047, 2_048, 5_000])
    func throwsAt(k: Int) throws {
        let scratch = try ScratchDirectory("read-ahead-throw")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: Self.longTrace)
        weak var gone: TraceReader?
        do {
            let (plain, _, ahead, aheadReader) = try Self.bothWays(file, options: .init(maxLineLength: 256),
                                                                    stopping: Stopping(event: k, throwing: true))
            #expect(ahead.thrown == Stop(at: k))
            #expect(plain.thrown == Stop(at: k))
            #expect(ahead.lateCalls == 0)
            #expect(ahead.items == plain.items)
            #expect(ahead.items.filter { if case .event = $0 { true } else { false } }.count == k + 1)
            #expect(aheadReader.eventCount >= k + 1 && aheadReader.eventCount <= k + Self.maxAhead)
            gone = aheadReader
        }
        // Nothing (the thread that read ahead) keeps the reader.
        #expect(gone == nil)
    }

    @Test("a long run of diagnostics is handed over in batches too: stopped at the first event, the reader is not read to the end", .dedicatedThread,
          .timeLimit(.minutes(2)))
    func diagnosticsAreBatched() throws {
        let bytes = Self.generate(count: 3 * Self.batch, junk: [2: Array(repeating: .foreign, count: 100_000)]).bytes
        let scratch = try ScratchDirectory("read-ahead-diagnostics")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: bytes)
        let (plain, plainReader, ahead, aheadReader) = try Self.bothWays(file, stopping: Stopping(event: 0))
        #expect(ahead.items == plain.items && ahead.items.count == 1)
        #expect(plainReader.lineCount == 1)
        // At most a few batches of items are read ahead (each at most 2,048
        // events and 2,048 diagnostics), not the 100,000 lines of app output.
        #expect(aheadReader.lineCount <= 6 * 2 * Self.batch + 10, "read \(aheadReader.lineCount) lines ahead")
        try Self.expectSame(file, "100,000 diagnostics between two events")
    }

    @Test("a diagnostic callback that throws: the error comes out, nothing after it", .dedicatedThread,
          .timeLimit(.minutes(2)), arguments: [0, 3, 4, 9])
    func diagnosticThrows(d: Int) throws {
        let scratch = try ScratchDirectory("read-ahead-throw-diagnostic")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: Self.longTrace)
        let (plain, _, ahead, _) = try Self.bothWays(file, options: .init(maxLineLength: 256),
                                                      stopping: Stopping(diagnostic: d))
        #expect(ahead.thrown == Stop(at: d))
        #expect(ahead.lateCalls == 0)
        #expect(ahead.items == plain.items)
        if case .diagnostic = ahead.items.last {} else { Issue.record("the last item is not the diagnostic that threw") }
    }
}
