/// JSON text built by hand, byte by byte, for output too large to build as
/// `Encodable` values first (`export`: millions of events): the caller writes
/// the structure (`{`, keys, commas) and this type writes the values.
///
/// Strings are always valid JSON whatever they hold (type names, labels and
/// marks come from the trace and may be hostile): `"` and `\` are escaped,
/// and so is every character ``PrintableText/needsEscape(_:)`` names (the
/// C0 and C1 controls, DEL, bidi controls, line separators), which a
/// terminal or a JavaScript reader may act on; `<`, `>` and `&` are escaped
/// too, so that the text can sit in an HTML `<script>` element
/// (`</script>` in a type name cannot end it).
///
/// The bytes are handed to `flush` in chunks of about ``chunkSize``, so
/// memory stays bounded however long the text is.
struct JSONBytes {
    /// About how many bytes are kept before they are handed to `flush`.
    static let chunkSize = 1 << 20

    /// The bytes not yet flushed.
    private(set) var bytes: [UInt8] = []
    /// Where full chunks go (a file, standard output).
    private let flush: ([UInt8]) throws(CommandFailure) -> Void

    /// Text whose chunks go to `flush`.
    init(flush: @escaping ([UInt8]) throws(CommandFailure) -> Void) {
        self.flush = flush
        bytes.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Hands the bytes written so far to `flush` once there are ``chunkSize`` of them.
    mutating func flushIfFull() throws(CommandFailure) {
        if bytes.count >= Self.chunkSize { try flushAll() }
    }

    /// Hands every byte written so far to `flush`.
    mutating func flushAll() throws(CommandFailure) {
        guard !bytes.isEmpty else { return }
        try flush(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Drops what was written after the first `count` bytes (not yet flushed).
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Structure written as given: `{"ph":`, `,`, `}`.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"text"`, escaped as the type's documentation says.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x22: raw(#"\""#)
            case 0x5C: raw(#"\\"#)
            case 0x3C, 0x3E, 0x26: escape(value)
            case 0x20..<0x7F: bytes.append(UInt8(value))
            default:
                if PrintableText.needsEscape(scalar) {
                    escape(value)
                } else {
                    UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\u00XX`: a character below U+10000 as a JSON escape.
    private mutating func escape(_ value: UInt32) {
        raw(#"\u"#)
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(Self.hexDigits[Int((value >> UInt32(shift)) & 0xF)])
        }
    }

    /// The lowercase hexadecimal digits, as bytes.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` in decimal.
    mutating func number(_ value: UInt64) {
        // The digits come out last first: write them, then turn them around.
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// `value` in decimal, with a minus sign when it is negative.
    mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        number(UInt64(value.magnitude))
    }

    /// `value` in lowercase hexadecimal digits (no prefix).
    mutating func hex(_ value: UInt64) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(Self.hexDigits[Int(rest & 0xF)])
            rest >>= 4
        } while rest > 0
        bytes[start...].reverse()
    }

    /// Nanoseconds as microseconds, exactly: `3703837` is `3703.837`,
    /// `5000` is `5` (the fraction, when there is one, without trailing zeros).
    mutating func microseconds(_ nanoseconds: UInt64) {
        number(nanoseconds / 1_000)
        var fraction = nanoseconds % 1_000
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt64 = 100
        while fraction != 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }
}
