@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing

/// The fast path's literals, made from the wire format's one definition:
/// each is the bytes of the text it stands for, and every event name is
/// found from its bytes on a line.
@Suite("Fast path literals")
struct FastPathLiteralsTests {
    static func expect(_ literal: WireLiteral, spells text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(literal == WireLiteral(spelling: text), "\(text)", sourceLocation: sourceLocation)
        let bytes = Array(text.utf8)
        let last = bytes.suffix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
        #expect(literal.count == bytes.count && (bytes.count <= 8 || literal.last == last), "\(text)", sourceLocation: sourceLocation)
    }

    @Test("each key is the field's name with the encoder's punctuation, a string's opening quote included")
    func keys() {
        for field in TraceField.allCases {
            let name = field.name.description
            Self.expect(.key(field), spells: ",\"\(name)\":" + (field.valueType == .string ? "\"" : ""))
        }
        Self.expect(.recordStart, spells: #"{"seq":"#)
    }

    @Test("each event name's literal is its ev value and the closing quote")
    func names() {
        for name in TraceEvent.Name.allCases {
            Self.expect(.name(name), spells: name.rawValue + "\"")
        }
    }

    @Test("the view states and task outcomes are their raw values, each with its closing quote, in order")
    func choices() {
        let appearances = FastPathLiterals.shared.appearances.entries
        #expect(appearances.map(\.1) == ViewAppearance.allCases)
        for (literal, value) in appearances { Self.expect(literal, spells: value.rawValue + "\"") }
        let outcomes = FastPathLiterals.shared.outcomes.entries
        #expect(outcomes.map(\.1) == TaskOutcome.allCases)
        for (literal, value) in outcomes { Self.expect(literal, spells: value.rawValue + "\"") }
    }

    @Test("every event name is the candidate for its bytes on a line, whatever follows it", arguments: TraceEvent.Name.allCases)
    func nameCandidates(_ name: TraceEvent.Name) {
        let names = FastPathLiterals.shared.names
        for tail in LineCursorTests.tails + [Array(#","id":4}"#.utf8)] {
            let line = Array((name.rawValue + "\"").utf8) + tail
            let found = LineCursorTests.withCursor(ExactReads.self, line, tail: []) { $0.nameCandidate(in: names) }
            #expect(found == name, "another name has the same first eight bytes: the fast path cannot tell \(name) apart")
        }
    }

    @Test("bytes that are no name's have no candidate, or one whose literal does not match")
    func nonNames() {
        let names = FastPathLiterals.shared.names
        for text in ["", "\"", "attac\"", "attachx\"", "Attach\"", "task_\"", "task_startx\"", "hook_en", "deinit", "x\"attach\""] {
            let bytes = Array(text.utf8)
            let matched = LineCursorTests.withCursor(ExactReads.self, bytes, tail: []) { cursor -> Bool in
                guard let name = cursor.nameCandidate(in: names) else { return false }
                return cursor.match(.name(name))
            }
            #expect(!matched, "\(text)")
        }
    }
}
