import NapkinTrace

/// A cursor over one line of JSON: the general (slow) path of the trace
/// parser, for records the fast path does not take (other key orders,
/// whitespace, escapes, unknown fields, numbers written by other tools).
///
/// It knows JSON, not the trace format: ``TraceRecordFields`` drives it and
/// decides what each field means. Every failure is a ``JSONError`` whose
/// message names the column and is fit for a one-line diagnostic.
struct JSONScanner {
    // MARK: - State

    /// The line, without a trailing carriage return.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The cursor: the index of the next byte to read.
    var i = 0
    /// Reused scratch space for decoded strings and keys.
    var scratch: [UInt8] = []
    /// The current key, decoded (a range of `bytes`, or `scratch` when it had escapes).
    private var key: (start: Int, end: Int, decoded: Bool) = (0, 0, false)

    /// What a value turned out to be, for a field that expects a given type.
    enum ValueKind {
        case string, number, other, null
    }

    /// A cursor at the start of `line` (a trailing `\r` is left out).
    init(_ line: UnsafeBufferPointer<UInt8>) {
        var end = line.count
        if end > 0 && line[end - 1] == 13 { end -= 1 }
        bytes = UnsafeBufferPointer(rebasing: line[0..<end])
    }

    /// The cursor's column (1-based), for messages.
    var column: Int { i + 1 }

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

    /// After the closing `}`: nothing but whitespace may follow.
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

    /// Skips JSON whitespace.
    @inline(__always)
    mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 32 || b == 9 || b == 10 || b == 13 { i += 1 } else { return }
        }
    }

    /// Expects the literal `word` (`true`, `false`, `null`) at the cursor.
    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let n = word.utf8CodeUnitCount
        var k = 0
        while k < n, i + k < bytes.count, bytes[i + k] == word.utf8Start[k] { k += 1 }
        guard k == n else { throw JSONError("unexpected \(describe(bytes[i])) at column \(column)") }
        i += n
    }

    /// How messages show byte `b`: the character in quotes, or its hex value.
    func describe(_ b: UInt8) -> String {
        if b >= 32 && b < 127 { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }
}
