/// The encoder's write position in a buffer that the caller made large enough
/// (``TraceEncoder`` sizes it from ``TraceEncoder/upperBound(of:)``): byte
/// writes with no capacity or uniqueness check, the inner loop of encoding.
struct EncodingCursor {
    /// Where the next byte goes.
    private(set) var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        position = start
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        position.pointee = value
        position += 1
    }

    @inline(__always)
    mutating func bytes(_ text: StaticString) {
        text.withUTF8Buffer { bytes($0) }
    }

    @inline(__always)
    mutating func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        position.update(from: base, count: buffer.count)
        position += buffer.count
    }

    /// The decimal digits of `value` (at most 20 bytes), written from the
    /// last, two at a time.
    @inline(__always)
    mutating func decimal(_ value: UInt64) {
        if value < 10 {
            byte(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var digits = 2
        var limit: UInt64 = 100
        while digits < 20 && value >= limit {
            digits += 1
            limit &*= 10
        }
        var v = value
        var at = position + digits
        position = at
        Self.pairs.withUTF8Buffer { pairs in
            while v >= 100 {
                let pair = Int(truncatingIfNeeded: v % 100) &* 2
                v /= 100
                at -= 2
                at[0] = pairs[pair]
                at[1] = pairs[pair &+ 1]
            }
            if v >= 10 {
                let pair = Int(truncatingIfNeeded: v) &* 2
                at -= 2
                at[0] = pairs[pair]
                at[1] = pairs[pair &+ 1]
            } else {
                at -= 1
                at[0] = UInt8(truncatingIfNeeded: v) &+ 48
            }
        }
    }

    /// "00", "01", ... "99", back to back.
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// `bytes` (UTF-8) escaped for the inside of a JSON string literal: at most
    /// six bytes per input byte (`\u00XX`).
    mutating func escaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            if byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                self.byte(byte)
                continue
            }
            self.byte(92)
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): self.byte(byte)
            case 0x0A: self.byte(UInt8(ascii: "n"))
            case 0x0D: self.byte(UInt8(ascii: "r"))
            case 0x09: self.byte(UInt8(ascii: "t"))
            default:
                self.byte(UInt8(ascii: "u"))
                self.byte(48)
                self.byte(48)
                self.byte(Self.hexDigit(byte >> 4))
                self.byte(Self.hexDigit(byte & 15))
            }
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble &+ 48 : nibble &+ 87
    }
}
