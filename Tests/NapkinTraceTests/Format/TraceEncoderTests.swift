import Foundation
import NapkinTrace
import Testing
import TestSupport

/// The NDJSON spelling of every event kind (trace format v1, docs/trace-format.md).
@Suite("Trace encoder")
struct TraceEncoderTests {
    private func line(_ seq: UInt64, _ time: UInt64, _ kind: TraceEvent.Kind) -> String {
        TraceEncoder.line(TraceEvent(seq: seq, time: time, kind: kind))
    }

    @Test("every event kind encodes as documented")
    func everyKind() {
        let cases: [(TraceEvent.Kind, String)] = [
            (.sessionStart(SessionInfo(app: "Demo", pid: 4242, wallClock: 1_763_800_000_123_456_789)),
             #"{"seq":7,"t":99,"ev":"session","v":1,"app":"Demo","pid":4242,"wall":1763800000123456789}"#),
            // Format revision 1 says so after the wall clock; revision 0 writes nothing.
            (.sessionStart(SessionInfo(app: "Demo", pid: 4242, wallClock: 1_763_800_000_123_456_789, revision: TraceFormat.revision)),
             #"{"seq":7,"t":99,"ev":"session","v":1,"app":"Demo","pid":4242,"wall":1763800000123456789,"rev":1}"#),
            (.interactorCreated(id: 1, type: "HomeInteractor"),
             #"{"seq":7,"t":99,"ev":"interactor","id":1,"type":"HomeInteractor"}"#),
            (.routerCreated(id: 2, type: "HomeRouter", interactor: 1, interactorType: "HomeInteractor"),
             #"{"seq":7,"t":99,"ev":"router","id":2,"type":"HomeRouter","interactor":1,"itype":"HomeInteractor"}"#),
            (.attach(parent: 2, child: 4), #"{"seq":7,"t":99,"ev":"attach","parent":2,"child":4}"#),
            (.detach(parent: 2, child: 4), #"{"seq":7,"t":99,"ev":"detach","parent":2,"child":4}"#),
            (.activate(interactor: 3), #"{"seq":7,"t":99,"ev":"activate","id":3}"#),
            (.deactivate(interactor: 3), #"{"seq":7,"t":99,"ev":"deactivate","id":3}"#),
            (.hookEnd(interactor: 3), #"{"seq":7,"t":99,"ev":"hook_end","id":3}"#),
            (.load(router: 4), #"{"seq":7,"t":99,"ev":"load","id":4}"#),
            (.launch(router: 2), #"{"seq":7,"t":99,"ev":"launch","id":2}"#),
            (.view(router: 4, appearance: .covered), #"{"seq":7,"t":99,"ev":"view","id":4,"state":"covered"}"#),
            (.taskStart(task: 5, owner: 3, label: "poll"),
             #"{"seq":7,"t":99,"ev":"task_start","task":5,"owner":3,"label":"poll"}"#),
            (.taskStart(task: 5, owner: 3, label: nil), #"{"seq":7,"t":99,"ev":"task_start","task":5,"owner":3}"#),
            (.taskCancel(task: 5), #"{"seq":7,"t":99,"ev":"task_cancel","task":5}"#),
            (.taskEnd(task: 5, outcome: .completed), #"{"seq":7,"t":99,"ev":"task_end","task":5,"outcome":"completed"}"#),
            (.taskEnd(task: 5, outcome: .cancelled), #"{"seq":7,"t":99,"ev":"task_end","task":5,"outcome":"cancelled"}"#),
            (.deallocated(id: 4), #"{"seq":7,"t":99,"ev":"deinit","id":4}"#),
            (.retained(id: 6, retainers: Retainers(paths: ["A#6.b (suspect) → C#6 (cycle)"], found: 1, total: 1, note: nil)),
             #"{"seq":7,"t":99,"ev":"retained","id":6,"found":1,"refs":1,"text":"A#6.b (suspect) → C#6 (cycle)"}"#),
            // Two paths, one per line; the runtime's count unknown.
            (.retained(id: 6, retainers: Retainers(paths: ["A#2.s (suspect) → B#6", "C.h[\"k\"] → B#6"], found: 2, total: nil, note: nil)),
             #"{"seq":7,"t":99,"ev":"retained","id":6,"found":2,"text":"A#2.s (suspect) → B#6\nC.h[\"k\"] → B#6"}"#),
            // A line break within a path stays in it, as the two characters `\n`.
            (.retained(id: 6, retainers: Retainers(paths: ["A.h[\"x\ny\"] → B#6"], found: 1, total: nil, note: nil)),
             #"{"seq":7,"t":99,"ev":"retained","id":6,"found":1,"text":"A.h[\"x\\ny\"] → B#6"}"#),
            // Nothing found: no text, the note says why.
            (.retained(id: 6, retainers: Retainers(paths: [], found: 0, total: 1, note: "searched 3 objects")),
             #"{"seq":7,"t":99,"ev":"retained","id":6,"found":0,"refs":1,"reason":"searched 3 objects"}"#),
            (.mark(text: "user tapped login"), #"{"seq":7,"t":99,"ev":"mark","text":"user tapped login"}"#),
            (.dropped(count: 3, firstSeq: 10, lastSeq: 12),
             #"{"seq":7,"t":99,"ev":"dropped","count":3,"first":10,"last":12}"#),
            (.sessionEnd(reason: "exit"), #"{"seq":7,"t":99,"ev":"end","reason":"exit"}"#),
        ]
        for (kind, expected) in cases {
            #expect(line(7, 99, kind) == expected)
        }
        // Every kind of the model is covered above.
        let missing = TraceEvent.Name.allCases.filter { name in !cases.contains { $0.0.name == name } }
        #expect(missing.isEmpty, "no line above for \(missing)")
    }

    @Test("every event kind has its section in docs/trace-format.md (### `ev`: ...), and every such section is a kind")
    func everyKindDocumented() throws {
        let text = try String(contentsOf: PackagePaths.url("docs/trace-format.md"), encoding: .utf8)
        let sections = text.split(separator: "\n").filter { $0.hasPrefix("### `") }.map { String($0.dropFirst(5).prefix { $0 != "`" }) }
        for name in TraceEvent.Name.allCases {
            #expect(sections.contains(name.rawValue), "docs/trace-format.md has no section ### `\(name.rawValue)`: ...")
        }
        #expect(Set(sections) == Set(TraceEvent.Name.allCases.map(\.rawValue)), "\(sections)")
    }

    @Test("append writes one line per event, each ending in a newline")
    func appendTerminatesLines() {
        var bytes: [UInt8] = Array("prefix\n".utf8)
        TraceEncoder.append(TraceEvent(seq: 1, time: 0, kind: .mark(text: "a")), to: &bytes)
        TraceEncoder.append(TraceEvent(seq: 2, time: 1, kind: .mark(text: "b")), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "prefix\n" + #"{"seq":1,"t":0,"ev":"mark","text":"a"}"# + "\n" + #"{"seq":2,"t":1,"ev":"mark","text":"b"}"# + "\n")
    }

    @Test("numbers: zero, single digits and the extremes of their types")
    func numbers() {
        #expect(line(0, 0, .launch(router: 9)) == #"{"seq":0,"t":0,"ev":"launch","id":9}"#)
        #expect(line(UInt64.max, 10, .launch(router: UInt64.max))
            == #"{"seq":18446744073709551615,"t":10,"ev":"launch","id":18446744073709551615}"#)
        #expect(line(1, 1_000_000_000, .dropped(count: 100, firstSeq: 1_000_000, lastSeq: 1_000_099))
            == #"{"seq":1,"t":1000000000,"ev":"dropped","count":100,"first":1000000,"last":1000099}"#)
        // A wall clock before 1970 (a badly set clock) stays valid JSON.
        #expect(line(1, 0, .sessionStart(SessionInfo(app: "a", pid: 0, wallClock: -5)))
            == #"{"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":0,"wall":-5}"#)
        #expect(line(1, 0, .sessionStart(SessionInfo(app: "a", pid: 1, wallClock: Int64.min)))
            == #"{"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":1,"wall":-9223372036854775808}"#)
    }

    @Test("every number of digits, at both edges: the digits Swift prints")
    func digitEdges() {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 1...19 {
            power *= 10
            values += [power - 1, power, power + 1, power / 10 * 9 + 7]
        }
        for value in values {
            #expect(line(value, value, .taskCancel(task: value))
                == #"{"seq":\#(value),"t":\#(value),"ev":"task_cancel","task":\#(value)}"#)
        }
        for wall in [Int64.min, Int64.min + 1, -1, -10, -99, -100, Int64.max] {
            #expect(line(1, 0, .sessionStart(SessionInfo(app: "a", pid: -7, wallClock: wall)))
                == #"{"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":-7,"wall":\#(wall)}"#)
        }
    }

    @Test("a line far larger than the stack buffer (a megabyte of control characters, each six bytes escaped) is whole", .dedicatedThread, .singleThreaded)
    func hugeLine() throws {
        let text = String(repeating: "\u{1}\"x", count: 350_000)
        var bytes: [UInt8] = []
        TraceEncoder.append(TraceEvent(seq: 1, time: 2, kind: .mark(text: text),
                                       location: CodeLocation(fileID: "App/\"Odd\".swift", line: 12)), to: &bytes)
        #expect(bytes.last == 10 && bytes.dropLast().allSatisfy { $0 != 10 })
        let line = String(decoding: bytes.dropLast(), as: UTF8.self)
        #expect(try decodedText(line, key: "text") == text)
        #expect(try decodedText(line, key: "src") == #"App/"Odd".swift:12"#)
    }

    @Test("quotes, backslashes and control characters are escaped",
          arguments: [
            ("say \"hi\"", #"say \"hi\""#),
            (#"C:\path\to"#, #"C:\\path\\to"#),
            ("line1\nline2\r\n\ttab", #"line1\nline2\r\n\ttab"#),
            ("\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}", #"\u0000\u0001\u0008\u000b\u000c\u001f"#),
            ("del\u{7F}", #"del\u007f"#),
            ("\\\"", #"\\\""#),
            ("", ""),
          ])
    func escaping(raw: String, escaped: String) throws {
        let encoded = line(1, 2, .mark(text: raw))
        #expect(encoded == #"{"seq":1,"t":2,"ev":"mark","text":""# + escaped + #""}"#)
        #expect(try decodedText(encoded, key: "text") == raw)
    }

    @Test("non-ASCII text is written as UTF-8 and reads back unchanged",
          arguments: ["Café résumé", "日本語のラベル", "emoji 🧻 napkin", "\u{2028}separators\u{2029}", "Ωmega<Ünïcode>"])
    func nonASCII(text: String) throws {
        let encoded = line(3, 4, .mark(text: text))
        // Written as is (JSON allows any Unicode in strings), not as \u escapes.
        #expect(encoded.contains(text))
        #expect(try decodedText(encoded, key: "text") == text)
    }

    @Test("type names, labels and reasons are escaped like marks")
    func everyStringFieldIsEscaped() throws {
        let nasty = "Weird\"Type\\<T>\n\u{1}é"
        let router = line(1, 0, .routerCreated(id: 1, type: nasty, interactor: 2, interactorType: nasty))
        #expect(try decodedText(router, key: "type") == nasty)
        #expect(try decodedText(router, key: "itype") == nasty)
        #expect(try decodedText(line(1, 0, .interactorCreated(id: 2, type: nasty)), key: "type") == nasty)
        #expect(try decodedText(line(1, 0, .taskStart(task: 3, owner: 2, label: nasty)), key: "label") == nasty)
        #expect(try decodedText(line(1, 0, .sessionEnd(reason: nasty)), key: "reason") == nasty)
        #expect(try decodedText(line(1, 0, .sessionStart(SessionInfo(app: nasty, pid: 1, wallClock: 0))), key: "app") == nasty)
        // None of them breaks the line.
        #expect(!router.contains("\n"))
    }

    /// Parses `line` with Foundation's JSON parser and returns the string field `key`.
    private func decodedText(_ line: String, key: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?[key] as? String
    }
}
