/// Writes ``TraceEvent``s as NDJSON, one object per line (trace format v1).
///
/// The encoder appends to a caller-owned byte buffer so the background writer
/// can reuse one buffer for every batch. It is the only place that knows how an
/// event is spelled on the wire; ``TraceLineParser`` is its inverse.
public enum TraceEncoder {
    /// Appends `event` and a trailing newline to `out`.
    public static func append(_ event: TraceEvent, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        field(.seq, event.seq, &out, first: true)
        field(.t, event.time, &out)
        field(.ev, event.kind.name.rawValue, &out)
        switch event.kind {
        case .sessionStart(let info):
            field(.v, Int64(info.version), &out)
            field(.app, info.app, &out)
            field(.pid, Int64(info.pid), &out)
            field(.wall, info.wallClock, &out)
            // Absent means revision 0 (traces written before revisions were counted).
            if info.revision > 0 { field(.rev, UInt64(info.revision), &out) }
            // Only a resumed part says which part it is (absent means 1).
            if info.part > 1 {
                field(.part, UInt64(info.part), &out)
                field(.lost, info.lost, &out)
                field(.replay, UInt64(clamping: info.replayCount), &out)
            }
        case .interactorCreated(let id, let type):
            field(.id, id, &out)
            field(.type, type, &out)
        case .routerCreated(let id, let type, let interactor, let interactorType):
            field(.id, id, &out)
            field(.type, type, &out)
            field(.interactor, interactor, &out)
            field(.itype, interactorType, &out)
        case .attach(let parent, let child), .detach(let parent, let child):
            field(.parent, parent, &out)
            field(.child, child, &out)
        case .activate(let id), .deactivate(let id), .hookEnd(let id), .load(let id), .launch(let id), .deallocated(let id):
            field(.id, id, &out)
        case .view(let router, let appearance):
            field(.id, router, &out)
            field(.state, appearance.rawValue, &out)
        case .taskStart(let task, let owner, let label):
            field(.task, task, &out)
            field(.owner, owner, &out)
            if let label { field(.label, label, &out) }
        case .taskCancel(let task):
            field(.task, task, &out)
        case .taskEnd(let task, let outcome):
            field(.task, task, &out)
            field(.outcome, outcome.rawValue, &out)
        case .mark(let text):
            field(.text, text, &out)
        case .dropped(let count, let first, let last):
            field(.count, count, &out)
            field(.first, first, &out)
            field(.last, last, &out)
        case .sessionEnd(let reason):
            field(.reason, reason, &out)
        }
        if let location = event.location {
            key(.src, &out, first: false)
            out.append(UInt8(ascii: "\""))
            location.withFileIDBytes { appendEscaped($0, to: &out) }
            out.append(UInt8(ascii: ":"))
            appendInt(UInt64(location.line), to: &out)
            out.append(UInt8(ascii: "\""))
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

    @inline(__always)
    private static func key(_ field: TraceField, _ out: inout [UInt8], first: Bool) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        field.name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    private static func field(_ field: TraceField, _ value: UInt64, _ out: inout [UInt8], first: Bool = false) {
        key(field, &out, first: first)
        appendInt(value, to: &out)
    }

    private static func field(_ field: TraceField, _ value: Int64, _ out: inout [UInt8]) {
        key(field, &out, first: false)
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendInt(value.magnitude, to: &out)
        } else {
            appendInt(UInt64(value), to: &out)
        }
    }

    private static func field(_ field: TraceField, _ value: String, _ out: inout [UInt8]) {
        key(field, &out, first: false)
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
        var copy = value
        copy.withUTF8 { appendEscaped($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` (UTF-8) escaped for the inside of a JSON string literal.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
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
    }
}
