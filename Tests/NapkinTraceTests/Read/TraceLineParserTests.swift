import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// The hand-written NDJSON line parser: every event kind round-trips through
/// the encoder, any valid JSON object is accepted, and everything else is
/// rejected with a reason.
@Suite("Trace line parser")
struct TraceLineParserTests {
    /// One event of every kind, with awkward strings where a kind has any.
    static let everyKind: [TraceEvent.Kind] = [
        .sessionStart(SessionInfo(version: 1, app: "Rib \"House\"\\ 🍔", pid: 4242, wallClock: 1_767_225_600_123_456_789)),
        .sessionStart(SessionInfo(version: 1, app: "", pid: 0, wallClock: -1_000)),
        .sessionStart(SessionInfo(version: 1, app: "rev", pid: 1, wallClock: 0, revision: TraceFormat.revision)),
        .interactorCreated(id: 1, type: "HomeInteractor"),
        .routerCreated(id: 2, type: "Generic<Int, [String]>", interactor: 1, interactorType: "Module.Home\tInteractor"),
        .attach(parent: 2, child: 4),
        .detach(parent: 2, child: 4),
        .activate(interactor: 3),
        .deactivate(interactor: 3),
        .hookEnd(interactor: 3),
        .load(router: 4),
        .launch(router: 2),
        .view(router: 4, appearance: .shown),
        .view(router: 4, appearance: .covered),
        .view(router: 4, appearance: .removed),
        .taskStart(task: 9, owner: 3, label: "poller \u{1}\u{7F}\n\r"),
        .taskStart(task: 10, owner: 3, label: nil),
        .taskCancel(task: 9),
        .taskEnd(task: 9, outcome: .cancelled),
        .taskEnd(task: 10, outcome: .completed),
        .deallocated(id: 4),
        .retained(id: 6, retainers: Retainers(paths: ["LoggedInRouter#6.interactor → LoggedInInteractor#5.router (suspect) → LoggedInRouter#6 (cycle)",
                                                      "Store.items[\"a\tb\"] → LoggedInRouter#6"], found: 2, total: 3,
                                              note: "one more: a global, a running task, or an unowned(unsafe) reference")),
        .retained(id: 6, retainers: Retainers(paths: [], found: 0, total: nil, note: nil)),
        .mark(text: "line\nbreak, tab\t, quote \", backslash \\, slash /, é, 日本, 😀"),
        .mark(text: ""),
        .dropped(count: 3, firstSeq: 12, lastSeq: 14),
        .sessionEnd(reason: "exit"),
    ]

    private func parse(_ line: String) -> TraceLineParser.Result {
        var parser = TraceLineParser()
        return parser.parse(line)
    }

    private func event(_ line: String) -> TraceEvent? {
        if case .event(let event) = parse(line) { return event }
        return nil
    }

    /// The reason of an invalid line, or nil (and a recorded issue) when it parsed.
    private func reason(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        if case .invalid(let reason) = parse(line) { return reason }
        Issue.record("accepted: \(line) as \(parse(line))", sourceLocation: sourceLocation)
        return nil
    }

    private func expectNotARecord(_ line: String, _ words: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .notARecord(let reason) = parse(line) else {
            Issue.record("\(line) is not taken for a line that is not a record: \(parse(line))", sourceLocation: sourceLocation)
            return
        }
        for word in words {
            #expect(reason.contains(word), "reason \"\(reason)\" for \(line) lacks \"\(word)\"", sourceLocation: sourceLocation)
        }
    }

    private func expectInvalid(_ line: String, _ words: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        guard let reason = reason(line, sourceLocation: sourceLocation) else { return }
        for word in words {
            #expect(reason.contains(word), "reason \"\(reason)\" for \(line) lacks \"\(word)\"", sourceLocation: sourceLocation)
        }
        #expect(!reason.contains("\n"), "a reason is one line", sourceLocation: sourceLocation)
    }

    // MARK: - Round trip

    @Test("every event kind round-trips through TraceEncoder", arguments: everyKind)
    func roundTrip(_ kind: TraceEvent.Kind) {
        let original = TraceEvent(seq: 1_234_567, time: 9_876_543_210, kind: kind)
        let line = TraceEncoder.line(original)
        #expect(!line.contains("\n"))
        var parser = TraceLineParser()
        #expect(parser.parse(line) == .event(original), "\(line)")
        #expect(parser.unknownFieldCount == 0)
    }

    @Test("the round trip covers every kind of the format")
    func everyKindCovered() {
        let names = Set(Self.everyKind.map(\.name))
        #expect(names == Set(TraceEvent.Name.allCases), "everyKind has no event of \(Set(TraceEvent.Name.allCases).subtracting(names))")
    }

    @Test("extreme values round-trip: seq and time of UInt64.max, ids of UInt64.max, the extreme wall clocks")
    func extremes() {
        let events = [
            TraceEvent(seq: .max, time: .max, kind: .attach(parent: .max, child: .max - 1)),
            TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: "a", pid: Int(Int32.max), wallClock: .min))),
            TraceEvent(seq: 2, time: 0, kind: .sessionStart(SessionInfo(app: "a", pid: 1, wallClock: .max))),
            TraceEvent(seq: 3, time: 0, kind: .dropped(count: .max, firstSeq: 0, lastSeq: .max)),
        ]
        for original in events {
            #expect(parse(TraceEncoder.line(original)) == .event(original), "\(TraceEncoder.line(original))")
        }
    }

    // MARK: - Accepted JSON

    @Test("keys in any order")
    func keyOrder() {
        let expected = TraceEvent(seq: 7, time: 100, kind: .routerCreated(id: 4, type: "HomeRouter", interactor: 3, interactorType: "HomeInteractor"))
        let lines = [
            #"{"itype":"HomeInteractor","interactor":3,"type":"HomeRouter","id":4,"ev":"router","t":100,"seq":7}"#,
            #"{"ev":"router","id":4,"seq":7,"interactor":3,"t":100,"itype":"HomeInteractor","type":"HomeRouter"}"#,
            #"{"type":"HomeRouter","seq":7,"itype":"HomeInteractor","t":100,"ev":"router","interactor":3,"id":4}"#,
        ]
        for line in lines { #expect(event(line) == expected, "\(line)") }
    }

    @Test("whitespace around every token, a trailing CR, spaces at both ends")
    func whitespace() {
        let expected = TraceEvent(seq: 3, time: 5, kind: .attach(parent: 2, child: 4))
        let lines = [
            #"{ "seq" : 3 , "t" : 5 , "ev" : "attach" , "parent" : 2 , "child" : 4 }"#,
            "\t {\t\"seq\":3,\"t\":5,\"ev\":\"attach\",\"parent\":2,\"child\":4}\t ",
            "{\"seq\":3,\"t\":5,\"ev\":\"attach\",\"parent\":2,\"child\":4}\r",
            "{\n\"seq\":3,\r\n\"t\":5,\"ev\":\"attach\",\"parent\":2,\"child\":4\n}",
        ]
        for line in lines { #expect(event(line) == expected, "\(line.debugDescription)") }
    }

    @Test("unknown fields of every JSON type are skipped and counted")
    func unknownFields() {
        var parser = TraceLineParser()
        let line = #"{"seq":3,"s":"x\"y","n":-1.5e+3,"i":12,"b":true,"f":false,"z":null,"o":{"a":[1,{"b":[]}],"c":{}},"a":[[],[1,2],"s",{"k":null}],"t":5,"ev":"attach","parent":2,"child":4}"#
        #expect(parser.parse(line) == .event(TraceEvent(seq: 3, time: 5, kind: .attach(parent: 2, child: 4))))
        #expect(parser.unknownFieldCount == 8)
        // The count accumulates over lines.
        _ = parser.parse(#"{"seq":4,"t":6,"ev":"load","id":4,"future":{"x":1}}"#)
        #expect(parser.unknownFieldCount == 9)
        // A line without unknown fields adds nothing.
        _ = parser.parse(#"{"seq":5,"t":7,"ev":"load","id":4}"#)
        #expect(parser.unknownFieldCount == 9)
    }

    @Test("a field name written with escapes is the field it spells")
    func escapedKey() {
        var parser = TraceLineParser()
        // "\u0069d" is "id", valid JSON for the same key.
        #expect(parser.parse(#"{"seq":4,"t":6,"ev":"load","\u0069d":4}"#) == .event(TraceEvent(seq: 4, time: 6, kind: .load(router: 4))))
        #expect(parser.parse(#"{"seq":4,"t":6,"ev":"detach","p\u0061rent":2,"\u0063hild":4}"#)
            == .event(TraceEvent(seq: 4, time: 6, kind: .detach(parent: 2, child: 4))))
        #expect(parser.unknownFieldCount == 0)
    }

    @Test("an unknown kind is reported with its name, written with escapes or not")
    func unknownKind() {
        #expect(parse(#"{"seq":4,"t":6,"ev":"teleport","id":4}"#) == .unknownKind("teleport"))
        #expect(parse(#"{"seq":4,"t":6,"ev":"tele\u0070ort"}"#) == .unknownKind("teleport"))
        // An escaped spelling of a known kind is that kind (JSON says they are the same string).
        #expect(parse(#"{"seq":4,"t":6,"ev":"lo\u0061d","id":4}"#) == .event(TraceEvent(seq: 4, time: 6, kind: .load(router: 4))))
        #expect(parse(#"{"seq":4,"t":6,"ev":"det\u0061ch","parent":2,"child":4}"#) == .event(TraceEvent(seq: 4, time: 6, kind: .detach(parent: 2, child: 4))))
        #expect(parse(#"{"ev":"","seq":1,"t":0}"#) == .unknownKind(""))
    }

    @Test("string escapes: short escapes, \\u escapes, surrogate pairs, lone surrogates")
    func escapes() {
        let cases: [(String, String)] = [
            (#"a\"b\\c\/d\be\ff\ng\rh\ti"#, "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"),
            (#"\u0041\u00e9\u65E5"#, "Aé日"),
            (#"\uD83D\uDE00 \ud83c\udf54"#, "😀 🍔"),
            (#"x\uD83Dy"#, "x\u{FFFD}y"),        // a high surrogate without its pair
            (#"x\uDE00y"#, "x\u{FFFD}y"),        // a lone low surrogate
            (#"\uD83D\u0041"#, "\u{FFFD}A"),      // a high surrogate followed by a non-surrogate
            (#"\u0000"#, "\u{0}"),
            ("raw é 😀", "raw é 😀"),
        ]
        for (escaped, text) in cases {
            let line = #"{"seq":1,"t":0,"ev":"mark","text":""# + escaped + #""}"#
            #expect(event(line)?.kind == .mark(text: text), "\(escaped) -> \(String(describing: event(line)))")
        }
    }

    @Test("a code location (src) is read as FILE:LINE, with escapes and colons in the file; a malformed one makes the record invalid")
    func codeLocations() {
        let attach = event(#"{"seq":1,"t":0,"ev":"attach","parent":2,"child":4,"src":"App/Home Router.swift:42"}"#)
        #expect(attach?.location == CodeLocation(fileID: "App/Home Router.swift", line: 42))
        #expect(attach?.location?.fileName == "Home Router.swift")
        #expect(attach?.location?.module == "App")
        // The last colon separates the line; the general parser takes escapes.
        #expect(event(#"{"src":"C:\\app\/x.swift:7","seq":1,"t":0,"ev":"detach","parent":2,"child":4}"#)?.location
                == CodeLocation(fileID: #"C:\app/x.swift"#, line: 7))
        // Without src there is no location; with any kind the field is read.
        #expect(event(#"{"seq":1,"t":0,"ev":"attach","parent":2,"child":4}"#)?.location == nil)
        #expect(event(#"{"seq":1,"t":0,"ev":"mark","text":"x","src":"A/B.swift:1"}"#)?.location?.line == 1)
        for bad in ["App/Home.swift", "App/Home.swift:", "App/Home.swift:0", "App/Home.swift:-3", ":12", "App/Home.swift:4x"] {
            expectInvalid(#"{"seq":1,"t":0,"ev":"attach","parent":2,"child":4,"src":""# + bad + #""}"#, "src", "FILE:LINE")
        }
        expectInvalid(#"{"seq":1,"t":0,"ev":"attach","parent":2,"child":4,"src":42}"#, "src")
        // Round trip through the encoder, for a literal and a parsed location alike.
        for location in [CodeLocation(fileID: "RibHouse/LoggedInRouter.swift", line: 58), CodeLocation(fileID: "A \"q\"/B.swift", line: 1)] {
            let original = TraceEvent(seq: 3, time: 9, kind: .taskStart(task: 5, owner: 3, label: nil), location: location)
            var parser = TraceLineParser()
            #expect(parser.parse(TraceEncoder.line(original)) == .event(original))
        }
    }

    @Test("ids of 0 are rejected, except a router's missing interactor")
    func zeroIDs() {
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":0}"#, "\"id\"", "0")
        expectInvalid(#"{"seq":1,"t":0,"ev":"attach","parent":0,"child":4}"#, "\"parent\"", "ids start at 1")
        expectInvalid(#"{"seq":1,"t":0,"ev":"attach","parent":2,"child":0}"#, "\"child\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_start","task":0,"owner":3}"#, "\"task\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_start","task":5,"owner":0}"#, "\"owner\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_cancel","task":0}"#, "\"task\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_end","task":0,"outcome":"completed"}"#, "\"task\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"deinit","id":0}"#, "deinit", "\"id\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"interactor","id":0,"type":"X"}"#, "interactor", "\"id\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"router","id":0,"type":"X"}"#, "router", "\"id\"")
        // A router written without an interactor (or with 0) is accepted: it has none.
        #expect(event(#"{"seq":1,"t":0,"ev":"router","id":2,"type":"R","interactor":0}"#)?.kind
                == .routerCreated(id: 2, type: "R", interactor: 0, interactorType: ""))
        #expect(event(#"{"seq":1,"t":0,"ev":"router","id":2,"type":"R"}"#)?.kind
                == .routerCreated(id: 2, type: "R", interactor: 0, interactorType: ""))
        // Sequence numbers and times of 0 are fine.
        #expect(event(#"{"seq":0,"t":0,"ev":"load","id":1}"#) == TraceEvent(seq: 0, time: 0, kind: .load(router: 1)))
    }

    @Test("a malformed retained record is rejected with a one-line reason")
    func malformedRetained() {
        expectInvalid(#"{"seq":1,"t":0,"ev":"retained","id":6}"#, "retained", "\"found\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"retained","found":1}"#, "retained", "\"id\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"retained","id":0,"found":1}"#, "retained", "\"id\"", "ids start at 1")
        expectInvalid(#"{"seq":1,"t":0,"ev":"retained","id":6,"found":-1}"#, "\"found\"", "non-negative")
        expectInvalid(#"{"seq":1,"t":0,"ev":"retained","id":6,"found":1,"refs":"one"}"#, "\"refs\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"retained","id":6,"found":1,"text":["a"]}"#, "\"text\"", "string")
        // Absent or empty text: no paths; an empty line between two paths is no path.
        #expect(event(#"{"seq":1,"t":0,"ev":"retained","id":6,"found":0,"text":""}"#)?.kind
                == .retained(id: 6, retainers: Retainers(paths: [], found: 0, total: nil, note: nil)))
        #expect(event(#"{"seq":1,"t":0,"ev":"retained","id":6,"found":2,"text":"a → X#6\n\nb → X#6"}"#)?.kind
                == .retained(id: 6, retainers: Retainers(paths: ["a → X#6", "b → X#6"], found: 2, total: nil, note: nil)))
    }

    @Test("optional fields default; null strings count as absent")
    func optionalFields() {
        #expect(event(#"{"seq":1,"t":0,"ev":"session","v":1}"#)?.kind
                == .sessionStart(SessionInfo(version: 1, app: "", pid: 0, wallClock: 0)))
        #expect(event(#"{"seq":1,"t":0,"ev":"mark"}"#)?.kind == .mark(text: ""))
        #expect(event(#"{"seq":1,"t":0,"ev":"end"}"#)?.kind == .sessionEnd(reason: ""))
        #expect(event(#"{"seq":1,"t":0,"ev":"task_start","task":5,"owner":3,"label":null}"#)?.kind
                == .taskStart(task: 5, owner: 3, label: nil))
        #expect(event(#"{"seq":1,"t":0,"ev":"dropped","count":2}"#)?.kind == .dropped(count: 2, firstSeq: 0, lastSeq: 0))
        // A newer session version is parsed (the reader warns about it).
        #expect(event(#"{"seq":1,"t":0,"ev":"session","v":2,"app":"x"}"#)?.kind
                == .sessionStart(SessionInfo(version: 2, app: "x", pid: 0, wallClock: 0)))
    }

    @Test("the session's rev: absent is revision 0 (no hook ends promised), 1 and later promise hook_end records")
    func formatRevision() throws {
        func info(_ line: String) throws -> SessionInfo {
            guard case .sessionStart(let info)? = event(line)?.kind else { throw ProbeFailure(line) }
            return info
        }
        let old = try info(#"{"seq":1,"t":0,"ev":"session","v":1,"app":"x","pid":1,"wall":0}"#)
        #expect(old.revision == 0 && !old.recordsHookEnds)
        let current = try info(#"{"seq":1,"t":0,"ev":"session","v":1,"app":"x","pid":1,"wall":0,"rev":1}"#)
        #expect(current.revision == 1 && current.recordsHookEnds)
        // Anywhere in the record, and a later revision keeps the promise.
        let later = try info(#"{"rev":7,"seq":1,"t":0,"ev":"session","v":1,"app":"x"}"#)
        #expect(later.revision == 7 && later.recordsHookEnds)
        expectInvalid(#"{"seq":1,"t":0,"ev":"session","v":1,"rev":-1}"#, "rev")
        expectInvalid(#"{"seq":1,"t":0,"ev":"session","v":1,"rev":"1"}"#, "rev")
        #expect(event(#"{"seq":9,"t":5,"ev":"hook_end","id":3}"#) == TraceEvent(seq: 9, time: 5, kind: .hookEnd(interactor: 3)))
        expectInvalid(#"{"seq":9,"t":5,"ev":"hook_end"}"#, "hook_end", "\"id\"")
        expectInvalid(#"{"seq":9,"t":5,"ev":"hook_end","id":0}"#, "hook_end", "ids start at 1")
    }

    private struct ProbeFailure: Error, CustomStringConvertible {
        var description: String
        init(_ line: String) { description = "not a session record: \(line)" }
    }

    // MARK: - Rejected lines

    @Test("missing required fields name the field and the kind")
    func missingFields() {
        expectInvalid(#"{"t":0,"ev":"load","id":1}"#, "load", "\"seq\"")
        expectInvalid(#"{"seq":1,"ev":"load","id":1}"#, "load", "\"t\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load"}"#, "load", "\"id\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"session","app":"x"}"#, "session", "\"v\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"interactor","id":1}"#, "interactor", "\"type\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"router","id":2}"#, "router", "\"type\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"detach","parent":2}"#, "detach", "\"child\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_end","task":5}"#, "task_end", "\"outcome\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_cancel"}"#, "task_cancel", "\"task\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"dropped","first":1}"#, "dropped", "\"count\"")
        expectNotARecord(#"{"seq":1,"t":0,"id":1}"#, "no \"ev\"", "not a napkin trace record")
        expectNotARecord("{}", "no \"ev\"")
    }

    @Test("integral numbers written with a fraction or an exponent (as jq writes them) are integers")
    func integralFloats() {
        #expect(parse(#"{"seq":1e3,"t":0,"ev":"load","id":1}"#) == .event(TraceEvent(seq: 1000, time: 0, kind: .load(router: 1))))
        #expect(parse(#"{"seq":1,"t":12.0,"ev":"load","id":1}"#) == .event(TraceEvent(seq: 1, time: 12, kind: .load(router: 1))))
        #expect(parse(#"{"seq":1,"t":1.5E+9,"ev":"load","id":2.50e1}"#) == .event(TraceEvent(seq: 1, time: 1_500_000_000, kind: .load(router: 25))))
        #expect(parse(#"{"seq":1,"t":18446744073709551615.0,"ev":"load","id":1}"#)
            == .event(TraceEvent(seq: 1, time: .max, kind: .load(router: 1))))
        #expect(parse(#"{"seq":1,"t":0,"ev":"session","v":1,"wall":-1.7e18}"#)
            == .event(TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(version: 1, app: "", pid: 0, wallClock: -1_700_000_000_000_000_000)))))
    }

    @Test("wrong types name the field and what it must be")
    func wrongTypes() {
        expectInvalid(#"{"seq":"1","t":0,"ev":"load","id":1}"#, "\"seq\"", "non-negative integer")
        expectInvalid(#"{"seq":-1,"t":0,"ev":"load","id":1}"#, "\"seq\"", "non-negative integer")
        expectInvalid(#"{"seq":1.5,"t":0,"ev":"load","id":1}"#, "\"seq\"", "an integer")
        expectInvalid(#"{"seq":1.0000001e3,"t":0,"ev":"load","id":1}"#, "\"seq\"", "an integer")
        expectInvalid(#"{"seq":1,"t":1e-3,"ev":"load","id":1}"#, "\"t\"", "an integer")
        expectInvalid(#"{"seq":1,"t":1e30,"ev":"load","id":1}"#, "\"t\"", "too large")
        expectInvalid(#"{"seq":1,"t":null,"ev":"load","id":1}"#, "\"t\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":true}"#, "\"id\"", "integer")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":[1]}"#, "\"id\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":{"n":1}}"#, "\"id\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":7,"id":1}"#, "\"ev\"", "a string")
        expectInvalid(#"{"seq":1,"t":0,"ev":null}"#, "\"ev\"")
        expectInvalid(#"{"seq":1,"t":0,"ev":"interactor","id":1,"type":42}"#, "\"type\"", "a string")
        expectInvalid(#"{"seq":1,"t":0,"ev":"mark","text":["a"]}"#, "\"text\"", "a string")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_end","task":5,"outcome":"exploded"}"#, "outcome", "exploded", "completed or cancelled")
        expectInvalid(#"{"seq":1,"t":0,"ev":"task_end","task":5,"outcome":1}"#, "\"outcome\"")
    }

    @Test("numbers too large for 64 bits are rejected, not wrapped")
    func overflow() {
        expectInvalid(#"{"seq":18446744073709551616,"t":0,"ev":"load","id":1}"#, "\"seq\"", "too large")
        expectInvalid(#"{"seq":1,"t":99999999999999999999999,"ev":"load","id":1}"#, "\"t\"", "too large")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":184467440737095516150}"#, "\"id\"", "too large")
        // The largest value is fine.
        #expect(event(#"{"seq":18446744073709551615,"t":0,"ev":"load","id":1}"#)?.seq == .max)
        // An unknown field with a huge number is just skipped.
        #expect(event(#"{"seq":1,"t":0,"ev":"load","id":1,"big":123456789012345678901234567890e400}"#) != nil)
        // The smallest wall clock is read exactly.
        if case .sessionStart(let info)? = event(#"{"seq":1,"t":0,"ev":"session","v":1,"wall":-9223372036854775808}"#)?.kind {
            #expect(info.wallClock == .min)
        } else {
            Issue.record("session with the smallest wall clock rejected")
        }
    }

    @Test("malformed JSON is rejected with a reason and never crashes")
    func malformed() {
        // Not an object at all: not a record (a line of the app's own output, say).
        expectNotARecord("", "empty")
        expectNotARecord("   ", "empty")
        expectNotARecord("hello", "not JSON", "'h'")
        expectNotARecord("[1,2]", "not JSON", "'['")
        expectNotARecord(#""seq""#, "not JSON")
        // An object that is not valid: a damaged record.
        expectInvalid("{", "truncated")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1"#, "truncated")
        expectInvalid(#"{"seq":1,"t":0,"ev":"lo"#, "truncated")
        expectInvalid(#"{"seq":1,"t":0,"ev":"#, "truncated")
        expectInvalid(#"{"seq":1,"t":0,"ev"#, "truncated")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,}"#, "field name")
        expectInvalid(#"{"seq":1 "t":0}"#, "expected ',' or '}'")
        expectInvalid(#"{"seq" 1}"#, "expected ':'")
        expectInvalid(#"{seq:1}"#, "field name")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1}}"#, "after the object")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1} {"seq":2}"#, "after the object")
        expectInvalid(#"{"seq":1,"t":0,"ev":"mark","text":"bad \q escape"}"#, "escape")
        expectInvalid(#"{"seq":1,"t":0,"ev":"mark","text":"bad \u12G4"}"#, "escape")
        expectInvalid(#"{"seq":1,"t":0,"ev":"mark","x":"bad \x"}"#, "escape")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":tru}"#, "unexpected")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":nul}"#, "unexpected")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":-}"#, "malformed number")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":[1,2}"#, "expected ',' or ']'")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":{"a" 1}}"#, "expected ':'")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":{1:2}}"#, "field name")
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":[1,2"#, "truncated")
        expectInvalid("{\"seq\":1,\"t\":0,\"ev\":\"load\",\"id\":1,\"x\":\u{1}}", "byte 0x1")
    }

    @Test("nested unknown values: deep nesting is fine up to a limit, beyond it a clear reason")
    func nesting() {
        let depth = 50
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var parser = TraceLineParser()
        #expect(parser.parse(#"{"seq":1,"t":0,"ev":"load","id":1,"x":"# + nested + "}") == .event(TraceEvent(seq: 1, time: 0, kind: .load(router: 1))))
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(parser.parse(#"{"seq":1,"t":0,"ev":"load","id":1,"x":"# + objects + "}") == .event(TraceEvent(seq: 1, time: 0, kind: .load(router: 1))))
        let tooDeep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        expectInvalid(#"{"seq":1,"t":0,"ev":"load","id":1,"x":"# + tooDeep + "}", "nested")
        // Unbalanced deep garbage does not crash either.
        expectInvalid(#"{"x":"# + String(repeating: "[", count: 100_000), "nested")
    }

    @Test("a known field with the wrong type wins over a missing field in the reason")
    func firstProblemReported() {
        expectInvalid(#"{"seq":"x","ev":"load"}"#, "\"seq\"", "integer")
    }

    @Test("the parser never crashes on random and mutated input", .dedicatedThread, .singleThreaded)
    func fuzz() {
        var rng = SplitMix(seed: 0x5EED)
        var parser = TraceLineParser()
        let seeds = Self.everyKind.map { TraceEncoder.line(TraceEvent(seq: 5, time: 6, kind: $0)) }
        let tokens = Array(#"{}[]",:\0e-."#.utf8)
        var accepted = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int(rng.next() % 80)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            } else {
                bytes = Array(seeds[Int(rng.next() % UInt64(seeds.count))].utf8)
                for _ in 0...(rng.next() % 4) where !bytes.isEmpty {
                    let i = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 4 {
                    case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.remove(at: i)
                    case 2: bytes.insert(tokens[Int(rng.next() % UInt64(tokens.count))], at: i)
                    default: bytes.removeSubrange(i...)
                    }
                }
            }
            let result = bytes.withUnsafeBufferPointer { parser.parse($0) }
            if case .event = result { accepted += 1 }
        }
        // Some mutations keep the line valid (e.g. a changed digit); most do not.
        #expect(accepted > 0 && accepted < 20_000)
    }
}
