/// Parses one NDJSON line of a trace into a ``TraceEvent``: the inverse of ``TraceEncoder``.
///
/// Hand-written for speed (no `JSONDecoder`, no intermediate dictionary): one
/// pass over the bytes, strings materialised only for the fields that keep
/// them (type names, labels, marks). It accepts any valid JSON object: keys in
/// any order, whitespace, escapes, unknown fields of any type (skipped and
/// counted), and rejects everything else with a reason.
public struct TraceLineParser: Sendable {
    /// What one line turned out to be.
    public enum Result: Sendable, Equatable {
        /// A napkin event.
        case event(TraceEvent)
        /// A well-formed record whose `ev` this reader does not know (written
        /// by a newer producer); skipped.
        case unknownKind(String)
        /// Not a valid record; the reason is one line, fit for a diagnostic.
        case invalid(String)
    }

    /// Fields of known kinds that this reader did not recognise, counted.
    public private(set) var unknownFieldCount = 0

    /// Creates a parser.
    public init() {}

    /// Parses `line` (without its newline; a trailing `\r` is ignored).
    public mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result {
        var fast = TraceFastPath(line)
        if let event = fast.parse() { return .event(event) }
        var scanner = Scanner(bytes: line)
        var fields = Fields()
        switch scanner.parseObject(into: &fields) {
        case .failure(let reason): return .invalid(reason)
        case .success: break
        }
        // Fields of known kinds only: a record of an unknown kind is counted as such.
        if fields.kind != nil { unknownFieldCount &+= fields.unknown }
        return fields.makeEvent()
    }

    /// Parses a line given as a string (convenience for tests and tools).
    public mutating func parse(_ line: String) -> Result {
        var copy = line
        return copy.withUTF8 { parse($0) }
    }
}

// MARK: - Fields

/// The field names of format v1, recognised without building strings.
enum FieldKey {
    case seq, t, ev, v, app, pid, wall, id, type, interactor, itype, parent, child
    case task, owner, label, outcome, text, count, first, last, reason
    case unknown
}

/// The values collected from one line.
struct Fields {
    var seq: UInt64?
    var t: UInt64?
    var kind: KindName?
    var kindText: String?
    var v: UInt64?
    var app: String?
    var pid: UInt64?
    var wall: Int64?
    var id: UInt64?
    var type: String?
    var interactor: UInt64?
    var itype: String?
    var parent: UInt64?
    var child: UInt64?
    var task: UInt64?
    var owner: UInt64?
    var label: String?
    var outcome: String?
    var text: String?
    var count: UInt64?
    var first: UInt64?
    var last: UInt64?
    var reason: String?
    var unknown = 0
    /// The first field whose value had the wrong type, for the diagnostic.
    var wrongType: String?

    func makeEvent() -> TraceLineParser.Result {
        guard let kind else {
            if let kindText { return .unknownKind(kindText) }
            if let wrongType { return .invalid(wrongType) }
            return .invalid("no \"ev\" field: not a napkin trace record")
        }
        if let wrongType { return .invalid(wrongType) }
        guard let seq else { return .invalid("\(kind.wire) record without \"seq\"") }
        guard let t else { return .invalid("\(kind.wire) record without \"t\"") }
        func need<T>(_ value: T?, _ name: String) -> Result<T, Failure> {
            if let value { return .success(value) }
            return .failure(Failure(message: "\(kind.wire) record without \"\(name)\""))
        }
        func nodeID(_ value: UInt64?, _ name: String) -> Result<UInt64, Failure> {
            guard let value else { return .failure(Failure(message: "\(kind.wire) record without \"\(name)\"")) }
            guard value != 0 else { return .failure(Failure(message: "\(kind.wire) record with \"\(name)\": 0 (ids start at 1)")) }
            return .success(value)
        }
        do {
            let k: TraceEvent.Kind
            switch kind {
            case .session:
                let version = try need(v, "v").get()
                k = .sessionStart(SessionInfo(version: Int(clamping: version), app: app ?? "",
                                              pid: Int(clamping: pid ?? 0), wallClock: wall ?? 0))
            case .interactor:
                k = .interactorCreated(id: try nodeID(id, "id").get(), type: try need(type, "type").get())
            case .router:
                k = .routerCreated(id: try nodeID(id, "id").get(), type: try need(type, "type").get(),
                                   interactor: interactor ?? 0, interactorType: itype ?? "")
            case .attach:
                k = .attach(parent: try nodeID(parent, "parent").get(), child: try nodeID(child, "child").get())
            case .detach:
                k = .detach(parent: try nodeID(parent, "parent").get(), child: try nodeID(child, "child").get())
            case .activate: k = .activate(interactor: try nodeID(id, "id").get())
            case .deactivate: k = .deactivate(interactor: try nodeID(id, "id").get())
            case .load: k = .load(router: try nodeID(id, "id").get())
            case .launch: k = .launch(router: try nodeID(id, "id").get())
            case .taskStart:
                k = .taskStart(task: try nodeID(task, "task").get(), owner: try nodeID(owner, "owner").get(), label: label)
            case .taskCancel: k = .taskCancel(task: try nodeID(task, "task").get())
            case .taskEnd:
                let text = try need(outcome, "outcome").get()
                guard let o = TaskOutcome(rawValue: text) else {
                    return .invalid("task_end record with unknown \"outcome\": \"\(text)\" (expected completed or cancelled)")
                }
                k = .taskEnd(task: try nodeID(task, "task").get(), outcome: o)
            case .deallocated: k = .deallocated(id: try nodeID(id, "id").get())
            case .mark: k = .mark(text: text ?? "")
            case .dropped:
                k = .dropped(count: try need(count, "count").get(), firstSeq: first ?? 0, lastSeq: last ?? 0)
            case .end: k = .sessionEnd(reason: reason ?? "")
            }
            return .event(TraceEvent(seq: seq, time: t, kind: k))
        } catch {
            return .invalid(error.message)
        }
    }

    struct Failure: Error { var message: String }
}

/// The `ev` values of format v1, in the order of ``TraceFormat/kindNames``.
enum KindName: Int {
    case session, interactor, router, attach, detach, activate, deactivate, load, launch
    case taskStart, taskCancel, taskEnd, deallocated, mark, dropped, end

    var wire: String { TraceFormat.kindNames[rawValue] }
}

// MARK: - Scanner

/// A cursor over one line's bytes.
struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    /// Reused scratch space for strings with escapes.
    private var scratch: [UInt8] = []
    /// The first field whose value had the wrong type.
    var wrongType: String?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 13 { end -= 1 }
        self.bytes = UnsafeBufferPointer(rebasing: bytes[0..<end])
    }

    enum Outcome { case success, failure(String) }

    private var column: Int { i + 1 }

    @inline(__always)
    private mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 32 || b == 9 || b == 10 || b == 13 { i += 1 } else { return }
        }
    }

    mutating func parseObject(into fields: inout Fields) -> Outcome {
        skipSpace()
        guard i < bytes.count else { return .failure("empty record") }
        guard bytes[i] == UInt8(ascii: "{") else {
            return .failure("not JSON: expected '{' at column \(column), found \(describe(bytes[i]))")
        }
        i += 1
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1
            return finish()
        }
        while true {
            skipSpace()
            guard i < bytes.count else { return .failure("unexpected end of line inside the object (truncated?)") }
            guard bytes[i] == UInt8(ascii: "\"") else {
                return .failure("expected a field name at column \(column), found \(describe(bytes[i]))")
            }
            guard let (keyStart, keyEnd, keyEscaped) = scanString() else {
                return .failure("unterminated field name (truncated?)")
            }
            let key = keyEscaped ? .unknown : identify(keyStart, keyEnd)
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                return .failure(i < bytes.count ? "expected ':' at column \(column)" : "unexpected end of line after a field name (truncated?)")
            }
            i += 1
            skipSpace()
            guard i < bytes.count else { return .failure("unexpected end of line before a value (truncated?)") }
            if case .failure(let reason) = parseValue(for: key, into: &fields) { return .failure(reason) }
            if let wrongType, fields.wrongType == nil { fields.wrongType = wrongType }
            skipSpace()
            guard i < bytes.count else { return .failure("unexpected end of line inside the object (truncated?)") }
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "}") { return finish() }
            return .failure("expected ',' or '}' at column \(i), found \(describe(b))")
        }
    }

    private mutating func finish() -> Outcome {
        skipSpace()
        if i < bytes.count {
            return .failure("unexpected \(describe(bytes[i])) after the object at column \(column)")
        }
        return .success
    }

    private func describe(_ b: UInt8) -> String {
        if b >= 32 && b < 127 { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    /// Scans a string starting at the opening quote; returns the content range
    /// and whether it contains escapes; leaves `i` after the closing quote.
    @inline(__always)
    private mutating func scanString() -> (Int, Int, Bool)? {
        i += 1
        let start = i
        var escaped = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let end = i
                i += 1
                return (start, end, escaped)
            }
            if b == UInt8(ascii: "\\") {
                escaped = true
                i += 2
                continue
            }
            i += 1
        }
        return nil
    }

    @inline(__always)
    private func matches(_ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
        guard end - start == literal.utf8CodeUnitCount else { return false }
        let p = literal.utf8Start
        var k = 0
        while k < end - start {
            if bytes[start + k] != p[k] { return false }
            k += 1
        }
        return true
    }

    private func identify(_ s: Int, _ e: Int) -> FieldKey {
        switch e - s {
        case 1:
            if bytes[s] == UInt8(ascii: "t") { return .t }
            if bytes[s] == UInt8(ascii: "v") { return .v }
        case 2:
            if matches(s, e, "ev") { return .ev }
            if matches(s, e, "id") { return .id }
        case 3:
            if matches(s, e, "seq") { return .seq }
            if matches(s, e, "app") { return .app }
            if matches(s, e, "pid") { return .pid }
        case 4:
            if matches(s, e, "wall") { return .wall }
            if matches(s, e, "type") { return .type }
            if matches(s, e, "task") { return .task }
            if matches(s, e, "text") { return .text }
            if matches(s, e, "last") { return .last }
        case 5:
            if matches(s, e, "child") { return .child }
            if matches(s, e, "itype") { return .itype }
            if matches(s, e, "owner") { return .owner }
            if matches(s, e, "label") { return .label }
            if matches(s, e, "count") { return .count }
            if matches(s, e, "first") { return .first }
        case 6:
            if matches(s, e, "parent") { return .parent }
            if matches(s, e, "reason") { return .reason }
        case 7:
            if matches(s, e, "outcome") { return .outcome }
        case 10:
            if matches(s, e, "interactor") { return .interactor }
        default: break
        }
        return .unknown
    }

    private mutating func parseValue(for key: FieldKey, into f: inout Fields) -> Outcome {
        switch key {
        case .seq: return unsigned(&f.seq, "seq")
        case .t: return unsigned(&f.t, "t")
        case .v: return unsigned(&f.v, "v")
        case .pid: return unsigned(&f.pid, "pid")
        case .id: return unsigned(&f.id, "id")
        case .interactor: return unsigned(&f.interactor, "interactor")
        case .parent: return unsigned(&f.parent, "parent")
        case .child: return unsigned(&f.child, "child")
        case .task: return unsigned(&f.task, "task")
        case .owner: return unsigned(&f.owner, "owner")
        case .count: return unsigned(&f.count, "count")
        case .first: return unsigned(&f.first, "first")
        case .last: return unsigned(&f.last, "last")
        case .wall:
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var value: UInt64?
            let outcome = unsigned(&value, "wall")
            if let value {
                // -9223372036854775808 (Int64.min) has no positive counterpart.
                f.wall = negative ? (value > UInt64(Int64.max) ? .min : -Int64(value)) : Int64(clamping: value)
            }
            return outcome
        case .ev:
            guard bytes[i] == UInt8(ascii: "\"") else { return wrongType("ev", "a string") }
            guard let (s, e, escaped) = scanString() else { return .failure("unterminated string (truncated?)") }
            f.kind = escaped ? nil : kindName(s, e)
            if f.kind == nil { f.kindText = decode(s, e, escaped) }
            return .success
        case .type: return string(&f.type, "type")
        case .itype: return string(&f.itype, "itype")
        case .app: return string(&f.app, "app")
        case .label: return string(&f.label, "label")
        case .outcome: return string(&f.outcome, "outcome")
        case .text: return string(&f.text, "text")
        case .reason: return string(&f.reason, "reason")
        case .unknown:
            f.unknown += 1
            return skipValue(depth: 0)
        }
    }

    private mutating func kindName(_ s: Int, _ e: Int) -> KindName? {
        switch e - s {
        case 3: return matches(s, e, "end") ? .end : nil
        case 4:
            if matches(s, e, "load") { return .load }
            if matches(s, e, "mark") { return .mark }
        case 6:
            if matches(s, e, "router") { return .router }
            if matches(s, e, "attach") { return .attach }
            if matches(s, e, "detach") { return .detach }
            if matches(s, e, "launch") { return .launch }
            if matches(s, e, "deinit") { return .deallocated }
        case 7:
            if matches(s, e, "session") { return .session }
            if matches(s, e, "dropped") { return .dropped }
        case 8:
            if matches(s, e, "activate") { return .activate }
            if matches(s, e, "task_end") { return .taskEnd }
        case 10:
            if matches(s, e, "interactor") { return .interactor }
            if matches(s, e, "deactivate") { return .deactivate }
            if matches(s, e, "task_start") { return .taskStart }
        case 11:
            if matches(s, e, "task_cancel") { return .taskCancel }
        default: break
        }
        return nil
    }

    private mutating func wrongType(_ name: String, _ expected: String) -> Outcome {
        if wrongType == nil { wrongType = "\"\(name)\" must be \(expected)" }
        return skipValue(depth: 0)
    }

    @inline(__always)
    private mutating func unsigned(_ slot: inout UInt64?, _ name: String) -> Outcome {
        var value: UInt64 = 0
        let start = i
        while i < bytes.count {
            let d = bytes[i] &- 48
            if d > 9 { break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(d))
            if o1 || o2 { return tooLarge(name) }
            value = a
            i += 1
        }
        if i == start { return wrongType(name, "a non-negative integer") }
        if i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                i = start // skip the whole number, not just its fraction or exponent
                return wrongType(name, "an integer")
            }
        }
        slot = value
        return .success
    }

    private mutating func tooLarge(_ name: String) -> Outcome {
        if wrongType == nil { wrongType = "\"\(name)\" is too large for a 64-bit unsigned integer" }
        return skipValue(depth: 0)
    }

    @inline(__always)
    private mutating func string(_ slot: inout String?, _ name: String) -> Outcome {
        guard bytes[i] == UInt8(ascii: "\"") else {
            if bytes[i] == UInt8(ascii: "n") { return skipValue(depth: 0) } // null: treated as absent
            return wrongType(name, "a string")
        }
        guard let (s, e, escaped) = scanString() else { return .failure("unterminated string (truncated?)") }
        guard let text = decode(s, e, escaped) else { return .failure("invalid escape in the string at column \(s)") }
        slot = text
        return .success
    }

    /// The text of string content `s..<e`, resolving escapes; nil on a bad escape.
    private mutating func decode(_ s: Int, _ e: Int, _ escaped: Bool) -> String? {
        if !escaped {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[s..<e]), as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        var k = s
        while k < e {
            let b = bytes[k]
            if b != UInt8(ascii: "\\") {
                scratch.append(b)
                k += 1
                continue
            }
            guard k + 1 < e else { return nil }
            let c = bytes[k + 1]
            k += 2
            switch c {
            case UInt8(ascii: "\""): scratch.append(34)
            case UInt8(ascii: "\\"): scratch.append(92)
            case UInt8(ascii: "/"): scratch.append(47)
            case UInt8(ascii: "b"): scratch.append(8)
            case UInt8(ascii: "f"): scratch.append(12)
            case UInt8(ascii: "n"): scratch.append(10)
            case UInt8(ascii: "r"): scratch.append(13)
            case UInt8(ascii: "t"): scratch.append(9)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(k, e) else { return nil }
                k += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A surrogate pair: \uD83D\uDE00.
                    if k + 6 <= e, bytes[k] == UInt8(ascii: "\\"), bytes[k + 1] == UInt8(ascii: "u"),
                       let low = hex4(k + 2, e), low >= 0xDC00 && low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        k += 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    scalar = 0xFFFD
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                scratch.append(contentsOf: String(Character(u)).utf8)
            default:
                return nil
            }
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    private func hex4(_ k: Int, _ e: Int) -> UInt32? {
        guard k + 4 <= e else { return nil }
        var v: UInt32 = 0
        for j in k..<(k + 4) {
            let b = bytes[j]
            let d: UInt8
            switch b {
            case 48...57: d = b - 48
            case 97...102: d = b - 87
            case 65...70: d = b - 55
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Skips any JSON value (validating its shape), leaving `i` after it.
    private mutating func skipValue(depth: Int) -> Outcome {
        guard depth < 64 else { return .failure("values nested more than 64 deep") }
        guard i < bytes.count else { return .failure("unexpected end of line before a value (truncated?)") }
        let b = bytes[i]
        switch b {
        case UInt8(ascii: "\""):
            guard let (s, e, escaped) = scanString() else { return .failure("unterminated string (truncated?)") }
            if escaped && decode(s, e, true) == nil { return .failure("invalid escape in the string at column \(s)") }
            return .success
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close: UInt8 = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = b == UInt8(ascii: "{")
            i += 1
            skipSpace()
            if i < bytes.count && bytes[i] == close { i += 1; return .success }
            while true {
                skipSpace()
                if isObject {
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                        return .failure(i < bytes.count ? "expected a field name at column \(column)" : "unexpected end of line (truncated?)")
                    }
                    guard scanString() != nil else { return .failure("unterminated string (truncated?)") }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                        return .failure(i < bytes.count ? "expected ':' at column \(column)" : "unexpected end of line (truncated?)")
                    }
                    i += 1
                    skipSpace()
                }
                if case .failure(let r) = skipValue(depth: depth + 1) { return .failure(r) }
                skipSpace()
                guard i < bytes.count else { return .failure("unexpected end of line (truncated?)") }
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: ",") { continue }
                if c == close { return .success }
                return .failure("expected ',' or '\(Character(Unicode.Scalar(close)))' at column \(i), found \(describe(c))")
            }
        case UInt8(ascii: "t"):
            return literal("true")
        case UInt8(ascii: "f"):
            return literal("false")
        case UInt8(ascii: "n"):
            return literal("null")
        case UInt8(ascii: "-"), 48...57:
            let start = i
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            var digits = 0
            while i < bytes.count, bytes[i] &- 48 <= 9 { i += 1; digits += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, bytes[i] &- 48 <= 9 { i += 1; digits += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                while i < bytes.count, bytes[i] &- 48 <= 9 { i += 1 }
            }
            return digits > 0 ? .success : .failure("malformed number at column \(start + 1)")
        default:
            return .failure("unexpected \(describe(b)) at column \(column)")
        }
    }

    private mutating func literal(_ word: StaticString) -> Outcome {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count, matches(i, i + n, word) else {
            return .failure("unexpected \(describe(bytes[i])) at column \(column)")
        }
        i += n
        return .success
    }
}
