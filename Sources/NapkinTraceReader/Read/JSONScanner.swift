import NapkinTrace

/// A cursor over one line of JSON: the general (slow) path of the trace
/// parser, for records the fast path does not take (other key orders,
/// whitespace, escapes, unknown fields, numbers written by other tools).
///
/// It knows JSON, not the trace format: ``TraceRecordFields`` drives it and
/// decides what each field means. Every failure is a ``JSONError`` whose
/// message names the column and is fit for a one-line diagnostic.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Reused scratch space for decoded strings and keys.
    private var scratch: [UInt8] = []
    /// The current key, decoded (a range of `bytes`, or `scratch` when it had escapes).
    private var key: (start: Int, end: Int, decoded: Bool) = (0, 0, false)

    /// What a number turned out to be.
    enum Number {
        /// A non-negative integer (possibly written as `12.0` or `1.2e3`).
        case unsigned(UInt64)
        /// A negative integer.
        case negative(magnitude: UInt64)
        /// A number with a fractional part.
        case fraction
        /// An integer beyond 64 bits.
        case tooLarge
    }

    /// What a value turned out to be, for a field that expects a given type.
    enum ValueKind {
        case string, number, other, null
    }

    init(_ line: UnsafeBufferPointer<UInt8>) {
        var end = line.count
        if end > 0 && line[end - 1] == 13 { end -= 1 }
        bytes = UnsafeBufferPointer(rebasing: line[0..<end])
    }

    private var column: Int { i + 1 }

    /// Whether the line's first non-space byte opens an object.
    var startsWithObject: Bool {
        var k = 0
        while k < bytes.count, bytes[k] == 32 || bytes[k] == 9 { k += 1 }
        return k < bytes.count && bytes[k] == UInt8(ascii: "{")
    }

    // MARK: - Objects

    /// Expects `{`; afterwards call ``nextKey()`` until it returns false.
    mutating func openObject() throws(JSONError) {
        skipSpace()
        guard i < bytes.count else { throw JSONError("empty record") }
        guard bytes[i] == UInt8(ascii: "{") else {
            throw JSONError("not JSON: expected '{' at column \(column), found \(describe(bytes[i]))")
        }
        i += 1
    }

    /// Moves to the next member's value; returns false at the closing `}`
    /// (and checks that nothing follows it). Read the key with ``withKey(_:)``.
    mutating func nextKey(first: Bool) throws(JSONError) -> Bool {
        skipSpace()
        guard i < bytes.count else { throw JSONError("unexpected end of line inside the object (truncated?)") }
        if bytes[i] == UInt8(ascii: "}") && first {
            i += 1
            try finish()
            return false
        }
        if !first {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "}") {
                try finish()
                return false
            }
            guard b == UInt8(ascii: ",") else { throw JSONError("expected ',' or '}' at column \(i), found \(describe(b))") }
            skipSpace()
            guard i < bytes.count else { throw JSONError("unexpected end of line inside the object (truncated?)") }
        }
        guard bytes[i] == UInt8(ascii: "\"") else {
            throw JSONError("expected a field name at column \(column), found \(describe(bytes[i]))")
        }
        guard let (start, end, escaped) = scanString() else { throw JSONError("unterminated field name (truncated?)") }
        if escaped {
            guard decode(start, end) else { throw JSONError("invalid escape in a field name at column \(start)") }
            key = (0, scratch.count, true)
        } else {
            key = (start, end, false)
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
            throw JSONError(i < bytes.count ? "expected ':' at column \(column)" : "unexpected end of line after a field name (truncated?)")
        }
        i += 1
        skipSpace()
        guard i < bytes.count else { throw JSONError("unexpected end of line before a value (truncated?)") }
        return true
    }

    /// Calls `body` with the current key's bytes, escapes resolved.
    func withKey<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if key.decoded {
            return scratch.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<key.end])) }
        }
        return body(UnsafeBufferPointer(rebasing: bytes[key.start..<key.end]))
    }

    private mutating func finish() throws(JSONError) {
        skipSpace()
        if i < bytes.count {
            throw JSONError("unexpected \(describe(bytes[i])) after the object at column \(column)")
        }
    }

    // MARK: - Values

    /// What the next value is, without consuming it.
    var nextValueKind: ValueKind {
        switch bytes[i] {
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "-"), 48...57: .number
        case UInt8(ascii: "n"): .null
        default: .other
        }
    }

    /// Reads a string value (escapes resolved). The caller checked ``nextValueKind``.
    mutating func readString() throws(JSONError) -> String {
        guard let (start, end, escaped) = scanString() else { throw JSONError("unterminated string (truncated?)") }
        if !escaped { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
        guard decode(start, end) else { throw JSONError("invalid escape in the string at column \(start)") }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads a number. Integral values written with a fraction or an exponent
    /// (`12.0`, `1.5e3`, as jq and other tools write them) are integers.
    mutating func readNumber() throws(JSONError) -> Number {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let integerStart = i
        while i < bytes.count, bytes[i] &- 48 <= 9 { i += 1 }
        let integerEnd = i
        var fractionStart = i, fractionEnd = i
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fractionStart = i
            while i < bytes.count, bytes[i] &- 48 <= 9 { i += 1 }
            fractionEnd = i
        }
        var exponent = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var sign = 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                if bytes[i] == UInt8(ascii: "-") { sign = -1 }
                i += 1
            }
            let exponentStart = i
            while i < bytes.count, bytes[i] &- 48 <= 9 {
                exponent = min(exponent * 10 + Int(bytes[i] - 48), 100_000)
                i += 1
            }
            guard i > exponentStart else { throw JSONError("malformed number at column \(start + 1)") }
            exponent *= sign
        }
        guard integerEnd > integerStart else { throw JSONError("malformed number at column \(start + 1)") }
        // The digits, integer part then fraction, stand for digits × 10^shift:
        // the value is an integer when every digit that shifting moves past
        // the decimal point is zero.
        let integerCount = integerEnd - integerStart
        let total = integerCount + (fractionEnd - fractionStart)
        func digit(_ k: Int) -> UInt64 {
            UInt64(bytes[k < integerCount ? integerStart + k : fractionStart + k - integerCount] - 48)
        }
        let shift = exponent - (fractionEnd - fractionStart)
        var keep = total
        if shift < 0 {
            keep = max(0, total + shift)
            for k in keep..<total where digit(k) != 0 { return .fraction }
        }
        var value: UInt64 = 0
        for k in 0..<keep {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(digit(k))
            if o1 || o2 { return .tooLarge }
            value = a
        }
        if shift > 0 && value != 0 {
            for _ in 0..<shift {
                let (m, overflow) = value.multipliedReportingOverflow(by: 10)
                if overflow { return .tooLarge }
                value = m
            }
        }
        return negative && value != 0 ? .negative(magnitude: value) : .unsigned(value)
    }

    /// Skips any JSON value (validating its shape), leaving the cursor after it.
    mutating func skipValue(depth: Int = 0) throws(JSONError) {
        guard depth < 64 else { throw JSONError("values nested more than 64 deep") }
        guard i < bytes.count else { throw JSONError("unexpected end of line before a value (truncated?)") }
        let b = bytes[i]
        switch b {
        case UInt8(ascii: "\""):
            _ = try readString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close: UInt8 = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = b == UInt8(ascii: "{")
            i += 1
            skipSpace()
            if i < bytes.count && bytes[i] == close { i += 1; return }
            while true {
                skipSpace()
                if isObject {
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                        throw JSONError(i < bytes.count ? "expected a field name at column \(column)" : "unexpected end of line (truncated?)")
                    }
                    _ = try readString()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                        throw JSONError(i < bytes.count ? "expected ':' at column \(column)" : "unexpected end of line (truncated?)")
                    }
                    i += 1
                    skipSpace()
                }
                try skipValue(depth: depth + 1)
                skipSpace()
                guard i < bytes.count else { throw JSONError("unexpected end of line (truncated?)") }
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: ",") { continue }
                if c == close { return }
                throw JSONError("expected ',' or '\(Character(Unicode.Scalar(close)))' at column \(i), found \(describe(c))")
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), 48...57: _ = try readNumber()
        default: throw JSONError("unexpected \(describe(b)) at column \(column)")
        }
    }

    // MARK: - Bytes

    @inline(__always)
    private mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 32 || b == 9 || b == 10 || b == 13 { i += 1 } else { return }
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let n = word.utf8CodeUnitCount
        var k = 0
        while k < n, i + k < bytes.count, bytes[i + k] == word.utf8Start[k] { k += 1 }
        guard k == n else { throw JSONError("unexpected \(describe(bytes[i])) at column \(column)") }
        i += n
    }

    private func describe(_ b: UInt8) -> String {
        if b >= 32 && b < 127 { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    /// Scans a string starting at the opening quote; returns the content range
    /// and whether it contains escapes; leaves the cursor after the closing quote.
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

    /// Decodes string content `s..<e` into `scratch`, resolving escapes; false on a bad escape.
    private mutating func decode(_ s: Int, _ e: Int) -> Bool {
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

/// Why a line is not valid JSON (or not the JSON expected), in one line.
struct JSONError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
