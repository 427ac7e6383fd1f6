/// Writes ``TraceEvent``s as NDJSON, one object per line (trace format v1).
///
/// The encoder appends to a caller-owned byte buffer so the background writer
/// can reuse one buffer for every batch. It is the only place that knows how an
/// event is spelled on the wire; ``TraceLineParser`` is its inverse.
public enum TraceEncoder {
    /// Appends `event` and a trailing newline to `out`.
    public static func append(_ event: TraceEvent, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"seq":"#.utf8)
        appendInt(event.seq, to: &out)
        out.append(contentsOf: #","t":"#.utf8)
        appendInt(event.time, to: &out)
        out.append(contentsOf: #","ev":""#.utf8)
        out.append(contentsOf: event.kind.wireName.utf8)
        out.append(UInt8(ascii: "\""))
        switch event.kind {
        case .sessionStart(let info):
            field("v", Int64(info.version), &out)
            field("app", info.app, &out)
            field("pid", Int64(info.pid), &out)
            field("wall", info.wallClock, &out)
        case .interactorCreated(let id, let type):
            field("id", id, &out)
            field("type", type, &out)
        case .routerCreated(let id, let type, let interactor, let interactorType):
            field("id", id, &out)
            field("type", type, &out)
            field("interactor", interactor, &out)
            field("itype", interactorType, &out)
        case .attach(let parent, let child), .detach(let parent, let child):
            field("parent", parent, &out)
            field("child", child, &out)
        case .activate(let id), .deactivate(let id), .load(let id), .launch(let id), .deallocated(let id):
            field("id", id, &out)
        case .taskStart(let task, let owner, let label):
            field("task", task, &out)
            field("owner", owner, &out)
            if let label { field("label", label, &out) }
        case .taskCancel(let task):
            field("task", task, &out)
        case .taskEnd(let task, let outcome):
            field("task", task, &out)
            field("outcome", outcome.rawValue, &out)
        case .mark(let text):
            field("text", text, &out)
        case .dropped(let count, let first, let last):
            field("count", count, &out)
            field("first", first, &out)
            field("last", last, &out)
        case .sessionEnd(let reason):
            field("reason", reason, &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    /// The NDJSON text of one event, without the trailing newline.
    public static func line(_ event: TraceEvent) -> String {
        var bytes: [UInt8] = []
        append(event, to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func key(_ name: StaticString, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    private static func field(_ name: StaticString, _ value: UInt64, _ out: inout [UInt8]) {
        key(name, &out)
        appendInt(value, to: &out)
    }

    private static func field(_ name: StaticString, _ value: Int64, _ out: inout [UInt8]) {
        key(name, &out)
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendInt(value.magnitude, to: &out)
        } else {
            appendInt(UInt64(value), to: &out)
        }
    }

    private static func field(_ name: StaticString, _ value: String, _ out: inout [UInt8]) {
        key(name, &out)
        appendString(value, to: &out)
    }

    /// Appends the decimal digits of `value`.
    static func appendInt(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        // Twenty digits hold any UInt64; fill from the end, then copy once.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var v = value
            var i = 24
            while v > 0 {
                i -= 1
                raw[i] = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
            }
            out.append(contentsOf: raw[i..<24])
        }
    }

    /// Appends `value` as a JSON string literal, escaping quotes, backslashes
    /// and control characters.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension TraceEvent.Kind {
    /// A dense index of the kind (0 = session ... 15 = end), for counting.
    var ordinal: Int {
        switch self {
        case .sessionStart: 0
        case .interactorCreated: 1
        case .routerCreated: 2
        case .attach: 3
        case .detach: 4
        case .activate: 5
        case .deactivate: 6
        case .load: 7
        case .launch: 8
        case .taskStart: 9
        case .taskCancel: 10
        case .taskEnd: 11
        case .deallocated: 12
        case .mark: 13
        case .dropped: 14
        case .sessionEnd: 15
        }
    }

    /// The value of the `ev` field for this kind.
    public var wireName: String { TraceFormat.kindNames[ordinal] }

}
