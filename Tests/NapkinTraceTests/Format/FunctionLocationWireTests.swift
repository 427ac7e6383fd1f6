@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// A code location that names a function (`CodeLocation(module:function:)`:
/// a creation recorded where only the symbol could be had, an iOS device) on
/// the wire: written as the `fn` field instead of `src`, read back by each
/// path of the reader (the fast path, the general path, the line parser and
/// the whole reader) as the same event; a malformed `fn` is a damaged
/// record; lines (`src`) and traces without `fn` read as before.
@Suite("Function locations on the wire (fn)")
struct FunctionLocationWireTests {
    static let builder = CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:)")

    /// The creations, which are the records that name a function in practice.
    static let created: [TraceEvent] = [
        TraceEvent(seq: 7, time: 20_000_000, kind: .interactorCreated(id: 3, type: "LoggedInInteractor"), location: builder),
        TraceEvent(seq: 8, time: 20_010_000, kind: .routerCreated(id: 4, type: "LoggedInRouter", interactor: 3,
                                                                  interactorType: "LoggedInInteractor"), location: builder),
    ]

    @Test("the location: a function, line 0, its module and function apart, its description without a line")
    func location() {
        let location = Self.builder
        #expect(location.isFunction)
        #expect(location.line == 0)
        #expect(location.module == "RibHouse")
        #expect(location.function == "LoggedInBuilder.build(withListener:)")
        #expect(location.fileID == "RibHouse/LoggedInBuilder.build(withListener:)")
        #expect(location.description == "RibHouse/LoggedInBuilder.build(withListener:)")
        #expect(CodeLocation(parsingFunction: location.description) == location)
        // A line is no function.
        let line = CodeLocation(fileID: "RibHouse/LoggedInBuilder.swift", line: 21)
        #expect(!line.isFunction && line.function == nil && line.description == "RibHouse/LoggedInBuilder.swift:21")
    }

    @Test("encoded as \"fn\":\"MODULE/FUNCTION\", last, and no src", arguments: created)
    func encoded(_ event: TraceEvent) {
        let line = TraceEncoder.line(event)
        #expect(line.hasSuffix(#","fn":"RibHouse/LoggedInBuilder.build(withListener:)"}"#), "\(line)")
        #expect(!line.contains(#""src""#), "\(line)")
        #expect(line.components(separatedBy: #""fn""#).count == 2, "one fn field: \(line)")
    }

    @Test("read back the same by the fast path, the general path, the line parser, and re-spelled", arguments: created)
    func readBack(_ event: TraceEvent) {
        let line = TraceEncoder.line(event)
        #expect(WireFormatRoundTripTests.generalPath(line) == .event(event), "\(line)")
        #expect(WireFormatRoundTripTests.lineParser(line) == .event(event), "\(line)")
        // The fast path takes it (or would leave it to the general parser): either way, the same event.
        let fast = WireFormatRoundTripTests.fastPath(line)
        #expect(fast == nil || fast == event, "\(line)")
        #expect(fast == event, "the fast path reads fn like src: \(line)")
        for (how, respelled) in WireFormatRoundTripTests.respellings(line) {
            #expect(WireFormatRoundTripTests.fastPath(respelled) == nil, "\(how): \(respelled)")
            #expect(WireFormatRoundTripTests.lineParser(respelled) == .event(event), "\(how): \(respelled)")
        }
    }

    @Test("the fast path's cache of functions is its own: the same bytes as src and as fn are two readings")
    func cachesApart() {
        var parser = TraceLineParser()
        let src = #"{"seq":1,"t":0,"ev":"interactor","id":3,"type":"A","src":"M/f(x:):1"}"#
        let fn = #"{"seq":2,"t":0,"ev":"interactor","id":5,"type":"A","fn":"M/f(x:):1"}"#
        let fnOK = #"{"seq":3,"t":0,"ev":"interactor","id":7,"type":"A","fn":"M/f(x:)"}"#
        for _ in 0..<2 {
            #expect(parser.parse(src) == .event(TraceEvent(seq: 1, time: 0, kind: .interactorCreated(id: 3, type: "A"),
                                                           location: CodeLocation(fileID: "M/f(x:)", line: 1))))
            if case .invalid(let reason) = parser.parse(fn) {
                #expect(reason.contains("\"fn\" must be MODULE/FUNCTION(LABELS)"), "\(reason)")
            } else {
                Issue.record("accepted \(fn)")
            }
            #expect(parser.parse(fnOK) == .event(TraceEvent(seq: 3, time: 0, kind: .interactorCreated(id: 7, type: "A"),
                                                            location: CodeLocation(module: "M", function: "f(x:)"))))
        }
    }

    @Test("a malformed fn is a damaged record: one line naming the field and its form")
    func malformed() throws {
        for bad in ["nope", "/f()", "RibHouse/", "RibHouse/build", "RibHouse/(x:)", "RibHouse.build(x:)"] {
            let line = #"{"seq":8,"t":5,"ev":"router","id":4,"type":"R","interactor":3,"itype":"I","fn":""# + bad + #""}"#
            guard case .invalid(let reason) = WireFormatRoundTripTests.lineParser(line) else {
                Issue.record("accepted: \(line)")
                continue
            }
            #expect(reason == "\"fn\" must be MODULE/FUNCTION(LABELS) (e.g. \"App/HomeBuilder.build(withListener:)\"), not \"\(bad)\"")
            #expect(!reason.contains("\n"))
            #expect(WireFormatRoundTripTests.fastPath(line) == nil)
        }
        guard case .invalid(let reason) = WireFormatRoundTripTests.lineParser(#"{"seq":8,"t":5,"ev":"mark","text":"x","fn":42}"#) else {
            Issue.record("a number as fn was accepted")
            return
        }
        #expect(reason.contains("fn"), "\(reason)")

        // In a trace: an error diagnostic on its line, and the trace is damaged.
        let session = #"{"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":1,"wall":0}"#
        let text = [session, #"{"seq":2,"t":1,"ev":"interactor","id":3,"type":"I","fn":"nope"}"#,
                    #"{"seq":3,"t":2,"ev":"end","reason":"exit"}"#].joined(separator: "\n") + "\n"
        let (result, reader) = try readAll(text: text)
        #expect(result.events.map(\.seq) == [1, 3])
        #expect(result.errors.map(\.line) == [2])
        #expect(result.errors.first?.message.contains(#""fn" must be MODULE/FUNCTION(LABELS)"#) == true, "\(result.errors)")
        #expect(result.errors.allSatisfy { !$0.message.contains("\n") })
        #expect(reader.integrity.problems.map(\.kind).contains(.damagedRecords), "\(reader.integrity.problems)")
    }

    @Test("a whole trace with fn records reads to the same events through the reader")
    func throughTheReader() throws {
        let session = TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: "a", pid: 1, wallClock: 0)))
        let end = TraceEvent(seq: 4, time: 30_000_000, kind: .sessionEnd(reason: "exit"))
        let created = Self.created.enumerated().map { k, event in
            TraceEvent(seq: UInt64(2 + k), time: event.time, kind: event.kind, location: event.location)
        }
        let events = [session] + created + [end]
        let (result, reader) = try readAll(text: events.map { TraceEncoder.line($0) + "\n" }.joined())
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(reader.integrity.problems.isEmpty)
        #expect(result.events == events)
    }

    @Test("lines and traces without fn read as before: src is a line, src wins over fn, no location without either")
    func olderTraces() throws {
        let line = CodeLocation(fileID: "RibHouse/LoggedInBuilder.swift", line: 21)
        let event = TraceEvent(seq: 8, time: 5, kind: .interactorCreated(id: 3, type: "I"), location: line)
        let encoded = TraceEncoder.line(event)
        #expect(encoded.hasSuffix(#","src":"RibHouse/LoggedInBuilder.swift:21"}"#) && !encoded.contains(#""fn""#), "\(encoded)")
        #expect(WireFormatRoundTripTests.fastPath(encoded) == event)
        #expect(WireFormatRoundTripTests.lineParser(encoded) == .event(event))
        // A record with both: the line (a reader that knows only src reads the same).
        let both = #"{"seq":8,"t":5,"ev":"interactor","id":3,"type":"I","src":"RibHouse/LoggedInBuilder.swift:21","fn":"RibHouse/LoggedInBuilder.build(withListener:)"}"#
        #expect(WireFormatRoundTripTests.lineParser(both) == .event(event))
        // A fixture written before fn existed: the same locations, all lines.
        let events = try Fixtures.events("growing-population")
        let locations = events.compactMap(\.location)
        #expect(!locations.isEmpty)
        #expect(locations.allSatisfy { !$0.isFunction && $0 == CodeLocation(fileID: "Shop/OrderBuilder.swift", line: 31) })
        #expect(try Fixtures.events("not-deallocated").allSatisfy { $0.location == nil })
    }
}
