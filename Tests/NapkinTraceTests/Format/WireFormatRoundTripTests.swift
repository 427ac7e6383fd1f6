@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing

/// One sample event of every kind, written by ``TraceEncoder`` and read back
/// by each path of the reader: the fast path (for the kinds it takes), the
/// general path (forced by spelling the line differently), and
/// ``TraceLineParser``, which picks one. All of them must give the event back.
@Suite("Wire format round trip")
struct WireFormatRoundTripTests {
    /// A sample of every event kind. No `default:`: a new kind does not
    /// compile here until it has a sample. Strings are plain (no escapes,
    /// quotes or commas), so that the fast path can take them and the line
    /// can be re-spelled field by field.
    static func sample(_ name: TraceEvent.Name) -> TraceEvent.Kind {
        switch name {
        case .session: .sessionStart(SessionInfo(app: "Rib House ☕", pid: 4242, wallClock: -1_767_225_600_123_456_789,
                                                 revision: TraceFormat.revision))
        case .interactor: .interactorCreated(id: 3, type: "HomeInteractor")
        case .router: .routerCreated(id: 4, type: "Generic<Int>Router", interactor: 3, interactorType: "Module.HomeInteractor")
        case .launch: .launch(router: 2)
        case .attach: .attach(parent: 2, child: 4)
        case .activate: .activate(interactor: 3)
        case .hookEnd: .hookEnd(interactor: 3)
        case .load: .load(router: 4)
        case .view: .view(router: 4, appearance: .removed)
        case .detach: .detach(parent: 2, child: 4)
        case .deactivate: .deactivate(interactor: 3)
        case .taskStart: .taskStart(task: 5, owner: 3, label: "poll café")
        case .taskCancel: .taskCancel(task: 5)
        case .taskEnd: .taskEnd(task: 5, outcome: .cancelled)
        case .deallocated: .deallocated(id: 1_234_567_890_123_456_789)   // 19 digits: the most the fast path reads
        case .retained: .retained(id: 6, retainers: Retainers(
            paths: ["LoggedInRouter#6.interactor → LoggedInInteractor#5.router (suspect) → LoggedInRouter#6 (cycle)"],
            found: 1, total: 2, note: "one more strong reference is held outside the traced objects"))
        case .mark: .mark(text: "user tapped login 日本")
        case .dropped: .dropped(count: 3, firstSeq: 12, lastSeq: 14)
        case .end: .sessionEnd(reason: "exit")
        }
    }

    /// The sample event of kind `name`; the kinds the framework locates carry
    /// a code location (`src`).
    static func event(_ name: TraceEvent.Name) -> TraceEvent {
        let located: Set<TraceEvent.Name> = [.router, .attach, .detach, .taskStart]
        return TraceEvent(seq: 7, time: 99_000, kind: sample(name),
                          location: located.contains(name) ? CodeLocation(fileID: "Rib House/HomeRouter.swift", line: 42) : nil)
    }

    /// The kinds the fast path takes: all but those written once per session.
    static let fastPathKinds = Set(TraceEvent.Name.allCases).subtracting([.session, .dropped, .end])

    // MARK: - The three readers

    static func fastPath(_ line: String) -> TraceEvent? {
        var copy = line
        return copy.withUTF8 { bytes in
            var fast = TraceFastPath<ExactReads>(bytes, readable: bytes.count)
            var caches = FastPathCaches()
            return fast.parse(&caches)
        }
    }

    static func generalPath(_ line: String) -> TraceLineParser.Result {
        var copy = line
        return copy.withUTF8 { bytes in
            var scanner = JSONScanner(bytes)
            var fields = TraceRecordFields()
            do throws(JSONError) {
                try fields.read(from: &scanner)
            } catch {
                return .invalid(error.message)
            }
            return fields.makeEvent()
        }
    }

    static func lineParser(_ line: String) -> TraceLineParser.Result {
        var parser = TraceLineParser()
        return parser.parse(line)
    }

    // MARK: - Re-spelling a line

    /// The `"key":value` fields of an encoder line (whose strings have no escapes, quotes or commas).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var inString = false
        for character in line.dropFirst().dropLast() {
            if character == "\"" { inString.toggle() }
            if character == "," && !inString {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    /// Ways of writing the same record that the fast path does not take.
    static func respellings(_ line: String) -> [(how: String, line: String)] {
        let fields = fields(line)
        let spaced = fields.map { field in
            let colon = field.range(of: "\":")!
            return String(field[..<colon.upperBound]) + " " + String(field[colon.upperBound...])
        }
        // The `ev` value with its first letter as a \u escape ("session" → "\u0073ession").
        let escaped = fields.map { field -> String in
            guard field.hasPrefix(#""ev":""#) else { return field }
            let name = field.dropFirst(#""ev":""#.count)
            let hex = String(name.unicodeScalars.first!.value, radix: 16)
            return #""ev":"\u"# + String(repeating: "0", count: 4 - hex.count) + hex + name.dropFirst()
        }
        return [
            ("spaces after colons and commas", "{ " + spaced.joined(separator: ", ") + " }"),
            ("keys in reverse order", "{" + fields.reversed().joined(separator: ",") + "}"),
            ("the ev name escaped", "{" + escaped.joined(separator: ",") + "}"),
        ]
    }

    // MARK: - Tests

    @Test("every sample is of its kind, and its line is plain (no escapes)", arguments: TraceEvent.Name.allCases)
    func samples(_ name: TraceEvent.Name) {
        #expect(Self.sample(name).name == name)
        #expect(Self.sample(name).wireName == name.rawValue)
        let line = TraceEncoder.line(Self.event(name))
        #expect(!line.contains("\\"), "\(line)")
        #expect(line.hasPrefix(#"{"seq":7,"t":99000,"ev":""# + name.rawValue + "\""), "\(line)")
    }

    @Test("the fast path reads back every kind it takes, and exactly those: not session, dropped or end",
          arguments: TraceEvent.Name.allCases)
    func fastPathReadsItsKinds(_ name: TraceEvent.Name) {
        let event = Self.event(name)
        let parsed = Self.fastPath(TraceEncoder.line(event))
        #expect(parsed == (Self.fastPathKinds.contains(name) ? event : nil), "\(name)")
    }

    @Test("the kinds the fast path takes")
    func fastPathTakesExactly() {
        let taken = TraceEvent.Name.allCases.filter { Self.fastPath(TraceEncoder.line(Self.event($0))) != nil }
        #expect(Set(taken) == Self.fastPathKinds)
        #expect(Self.fastPathKinds.count == TraceEvent.Name.allCases.count - 3)
    }

    @Test("the general path reads back every kind, as the encoder wrote it and re-spelled", arguments: TraceEvent.Name.allCases)
    func generalPathReadsEveryKind(_ name: TraceEvent.Name) {
        let event = Self.event(name)
        let line = TraceEncoder.line(event)
        #expect(Self.generalPath(line) == .event(event), "\(line)")
        for (how, respelled) in Self.respellings(line) {
            // The fast path does not take it, so the parser goes the general way.
            #expect(Self.fastPath(respelled) == nil, "\(how): \(respelled)")
            #expect(Self.generalPath(respelled) == .event(event), "\(how): \(respelled)")
        }
    }

    @Test("the line parser gives the same event as the fast and the general path, however the line is spelled",
          arguments: TraceEvent.Name.allCases)
    func lineParserAgrees(_ name: TraceEvent.Name) {
        let event = Self.event(name)
        let line = TraceEncoder.line(event)
        let parsed = Self.lineParser(line)
        #expect(parsed == .event(event), "\(line)")
        #expect(parsed == Self.generalPath(line))
        if let fast = Self.fastPath(line) { #expect(parsed == .event(fast)) }
        for (how, respelled) in Self.respellings(line) {
            #expect(Self.lineParser(respelled) == .event(event), "\(how): \(respelled)")
        }
    }
}

/// ``TraceEvent/Name`` and ``TraceField``: the index of each name, and the
/// tables that find a name or field from its bytes on the wire.
@Suite("Trace event names and fields")
struct TraceEventNameTests {
    static func name(_ bytes: [UInt8]) -> TraceEvent.Name? {
        bytes.withUnsafeBufferPointer { TraceEvent.Name.lookup($0) }
    }

    static func field(_ bytes: [UInt8]) -> TraceField? {
        bytes.withUnsafeBufferPointer { TraceField.lookup($0) }
    }

    /// Spellings one step from `word`: each byte changed up, down or in
    /// case, each proper prefix (the empty one too), one byte more at either end.
    static func nearMisses(_ word: String) -> [[UInt8]] {
        let bytes = Array(word.utf8)
        var misses: [[UInt8]] = []
        for i in bytes.indices {
            for changed in [bytes[i] &+ 1, bytes[i] &- 1, bytes[i] ^ 0x20] {
                var miss = bytes
                miss[i] = changed
                misses.append(miss)
            }
        }
        for count in 0..<bytes.count { misses.append(Array(bytes.prefix(count))) }
        misses.append(bytes + [UInt8(ascii: "s")])
        misses.append([UInt8(ascii: " ")] + bytes)
        return misses
    }

    @Test("index is the position in allCases, for every name")
    func indexIsPosition() {
        for (position, name) in TraceEvent.Name.allCases.enumerated() {
            #expect(name.index == position, "\(name)")
        }
    }

    @Test("every field has its own bit in a set of fields, at its position in allCases")
    func fieldBits() {
        for (position, field) in TraceField.allCases.enumerated() {
            #expect(position < 64 && field.bit == 1 << UInt64(position), "\(field): a set of fields holds 64")
        }
    }

    @Test("lookup finds every event name from its bytes, and nothing from a near miss")
    func nameLookup() {
        let known = Dictionary(uniqueKeysWithValues: TraceEvent.Name.allCases.map { (Array($0.rawValue.utf8), $0) })
        var rejected = 0
        for name in TraceEvent.Name.allCases {
            #expect(Self.name(Array(name.rawValue.utf8)) == name)
            for miss in Self.nearMisses(name.rawValue) {
                // A miss that spells another name is that name.
                #expect(Self.name(miss) == known[miss], "\(String(decoding: miss, as: UTF8.self))")
                if known[miss] == nil { rejected += 1 }
            }
        }
        #expect(Self.name([]) == nil)
        #expect(Self.name(Array("deallocated".utf8)) == nil)   // the Swift name, not the wire name
        #expect(rejected > 16 * 10)
    }

    @Test("lookup finds every field from its bytes, and nothing from a near miss")
    func fieldLookup() {
        let known = Dictionary(uniqueKeysWithValues: TraceField.allCases.map { (Array($0.name.description.utf8), $0) })
        #expect(known.count == TraceField.allCases.count)
        var rejected = 0
        for field in TraceField.allCases {
            #expect(Self.field(Array(field.name.description.utf8)) == field)
            for miss in Self.nearMisses(field.name.description) {
                // "t" is a prefix of "task", "text" and "type", and a field itself.
                #expect(Self.field(miss) == known[miss], "\(String(decoding: miss, as: UTF8.self))")
                if known[miss] == nil { rejected += 1 }
            }
        }
        #expect(Self.field([]) == nil)
        #expect(Self.field(Array("Seq".utf8)) == nil)
        #expect(rejected > TraceField.allCases.count * 3)
    }
}

/// The resumed session record (a later part of a socket trace): its extra
/// fields through every path of the reader.
@Suite("Wire format round trip: resumed session record")
struct ResumedSessionRoundTripTests {
    static let event = TraceEvent(seq: 7, time: 99_000, kind: .sessionStart(
        SessionInfo(app: "Rib House ☕", pid: 4242, wallClock: -1_767_225_600_123_456_789, part: 3, lost: 1_234, replayCount: 56)))

    @Test("part, lost and replay are written after wall, and read back by the general path and the line parser, however spelled")
    func roundTrip() {
        let line = TraceEncoder.line(Self.event)
        #expect(line.hasSuffix(#""wall":-1767225600123456789,"part":3,"lost":1234,"replay":56}"#), "\(line)")
        // Session records are left to the general parser.
        #expect(WireFormatRoundTripTests.fastPath(line) == nil)
        #expect(WireFormatRoundTripTests.generalPath(line) == .event(Self.event))
        #expect(WireFormatRoundTripTests.lineParser(line) == .event(Self.event))
        for (how, respelled) in WireFormatRoundTripTests.respellings(line) {
            #expect(WireFormatRoundTripTests.lineParser(respelled) == .event(Self.event), "\(how): \(respelled)")
        }
    }
}
