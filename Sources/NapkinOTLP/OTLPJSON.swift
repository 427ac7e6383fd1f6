/// The small JSON writer the OTLP payloads are built with: objects, arrays,
/// escaped strings and integers appended to one growing byte buffer, in the
/// OTLP/JSON spelling (lowerCamelCase keys, 64-bit integers as strings, ids
/// as lowercase hex). Written by hand so that a payload costs one buffer and
/// no intermediate model, and so that every string goes through one escape.
struct OTLPJSON {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    init(reserving capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Structure

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":` (the name is one of ours: plain ASCII, never escaped).
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    /// Appends already-encoded JSON (a value written earlier by this writer) as one element or value.
    mutating func raw(_ encoded: [UInt8]) {
        separate()
        bytes.append(contentsOf: encoded)
        needsComma = true
    }

    // MARK: - Values

    mutating func string(_ value: String) {
        separate()
        Self.appendEscaped(value, to: &bytes)
        needsComma = true
    }

    /// An integer as a JSON number (a 32-bit field: an enum, a count, a flag).
    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// A 64-bit integer as a JSON string, as OTLP/JSON spells `int64`, `fixed64` and `uint64`.
    mutating func int64(_ value: Int64) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// An unsigned 64-bit integer as a JSON string.
    mutating func uint64(_ value: UInt64) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendDigits(value)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// `value` as a JSON string of `count` bytes of lowercase hex, most significant first (an id).
    mutating func hex(_ value: UInt64, bytes count: Int = 8) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendHex(value, count: count)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A trace id as a JSON string of 32 lowercase hex digits.
    mutating func hex(_ id: OTLPTraceID) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendHex(id.high, count: 8)
        appendHex(id.low, count: 8)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func appendHex(_ value: UInt64, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            let byte = UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8))
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0xf)])
        }
    }

    private mutating func appendDigits(_ value: UInt64) {
        // Written least significant first, then reversed in place.
        var rest = value
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    mutating func double(_ value: Double) {
        separate()
        if value.isFinite {
            bytes.append(contentsOf: String(value).utf8)
        } else {
            // Proto3 JSON spells the non-finite doubles as strings.
            Self.appendEscaped(value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity", to: &bytes)
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    // MARK: - Members (key and value)

    mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    mutating func member(_ name: StaticString, int value: Int) { key(name); int(value) }
    mutating func member(_ name: StaticString, uint64 value: UInt64) { key(name); uint64(value) }

    // MARK: - Escaping

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `value` as a JSON string: quotes, backslash and control
    /// characters escaped; everything else is written as its UTF-8 bytes
    /// (a Swift string is valid Unicode, so the output is valid UTF-8).
    static func appendEscaped(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most names need no escape: their bytes go in at once.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7f }) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7f:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xf)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `count` bytes of `value`, most significant first, as lowercase hex.
    static func hex(_ value: UInt64, bytes count: Int = 8) -> String {
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for index in stride(from: count - 1, through: 0, by: -1) {
            let byte = UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8))
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
