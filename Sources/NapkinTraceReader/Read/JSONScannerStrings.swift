/// Strings for ``JSONScanner``: finding a string's end, and decoding its
/// escapes (surrogate pairs joined, lone surrogates replaced) into scratch space.
extension JSONScanner {
    /// Reads a string value (escapes resolved). The caller checked ``nextValueKind``.
    mutating func readString() throws(JSONError) -> String {
        guard let (start, end, escaped) = scanString() else { throw JSONError("unterminated string (truncated?)") }
        if !escaped { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
        guard decode(start, end) else { throw JSONError("invalid escape in the string at column \(start)") }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Scans a string starting at the opening quote; returns the content range
    /// and whether it contains escapes; leaves the cursor after the closing quote.
    mutating func scanString() -> (Int, Int, Bool)? {
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

    /// Decodes string content `s..<e` into `scratch`, resolving escapes; false on a bad escape.
    mutating func decode(_ s: Int, _ e: Int) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        var k = s
        while k < e {
            let b = bytes[k]
            if b != UInt8(ascii: "\\") {
                scratch.append(b)
                k += 1
                continue
            }
            guard k + 1 < e else { return false }
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
                guard var scalar = hex4(k, e) else { return false }
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
                return false
            }
        }
        return true
    }

    /// The value of the four hex digits at `k` (before `e`), or nil.
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
}
