import NapkinTrace

/// A cursor over one line for ``TraceFastPath``, reading the line eight
/// bytes at a time: literals are matched with a word compare, numbers
/// decoded eight digits at a time, strings scanned eight bytes at a time.
///
/// `readable` says how many bytes from the line's start may be loaded:
/// the line's length, or more when the line sits in a buffer with room
/// after it (the reader's buffer keeps a zeroed tail for this). Bytes past
/// the line's end may be loaded, never used: every result is clamped to the
/// line. Lines are ASCII punctuation around UTF-8 strings; words are
/// little-endian (the first byte is the lowest).
///
/// `Reads` says, at compile time, whether at least 8 bytes after the line
/// may be loaded (``PaddedReads``: every load is then a plain load) or not
/// (``ExactReads``: a load that would cross the end is assembled byte by
/// byte).
struct LineCursor<Reads: WordReads> {
    /// The line's first byte.
    let p: UnsafePointer<UInt8>
    /// The line's length, without a trailing `\r`.
    let n: Int
    /// How many bytes from `p` may be loaded (at least `n`).
    private let readable: Int
    /// The current position.
    var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) {
        p = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        var count = bytes.count
        if count > 0 && p[count - 1] == 13 { count -= 1 }
        n = count
        self.readable = bytes.baseAddress == nil ? 0 : max(readable, bytes.count)
    }

    /// The byte at the cursor, or 0 at the end of the line.
    @inline(__always)
    var current: UInt8 { i < n ? p[i] : 0 }

    /// Whether the cursor is at the end of the line.
    @inline(__always)
    var atEnd: Bool { i == n }

    // MARK: - Words

    /// The eight bytes from `j`, little-endian; beyond what may be loaded, zeros.
    @inline(__always)
    func word(at j: Int) -> UInt64 {
        // Padded: every load starts at or before the line's end (each caller
        // checks that first), so 8 bytes from it are readable.
        if Reads.padded || j &+ 8 <= readable {
            return UInt64(littleEndian: UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self))
        }
        return partialWord(at: j)
    }

    /// The bytes from `j` to the end of the line, zero-padded to a word.
    @inline(never)
    private func partialWord(at j: Int) -> UInt64 {
        var w: UInt64 = 0
        var k = 0
        while k < 8 && j + k < n {
            w |= UInt64(p[j + k]) << UInt64(8 * k)
            k += 1
        }
        return w
    }

    /// The low `count` bytes of a word (`count` in 0...8).
    @inline(__always)
    static func mask(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 << UInt64(8 * count)) &- 1
    }

    // MARK: - Literals

    /// Consumes `literal` if the line continues with it.
    @inline(__always)
    mutating func match(_ literal: WireLiteral) -> Bool {
        guard i &+ literal.count <= n else { return false }
        if literal.count <= 8 {
            guard word(at: i) & literal.mask == literal.first else { return false }
        } else {
            guard word(at: i) == literal.first, word(at: i &+ literal.count &- 8) == literal.last else { return false }
        }
        i &+= literal.count
        return true
    }

    /// Consumes the first of `choices` the line continues with, and returns its value.
    @inline(__always)
    mutating func match<Value>(oneOf choices: WireChoices<Value>) -> Value? {
        for (literal, value) in choices.entries where match(literal) { return value }
        return nil
    }

    /// The event name the bytes at the cursor can be (not consumed): the
    /// candidate for the key of the word at the cursor, up to its first
    /// quote (all of it when it has none). Matching the name's literal
    /// confirms it.
    @inline(__always)
    func nameCandidate(in names: WireNameSlots) -> TraceEvent.Name? {
        guard i < n else { return nil }
        let w = word(at: i)
        let quote = w ^ 0x2222_2222_2222_2222
        let flags = (quote &- 0x0101_0101_0101_0101) & ~quote & 0x8080_8080_8080_8080
        // The lowest flag is the first quote's top bit (a false flag can
        // only follow a true one); no flag: the whole word.
        return names.candidate(w & (((flags & (0 &- flags)) &>> 7) &- 1))
    }

    /// Consumes `byte` if it is next.
    @inline(__always)
    mutating func match(_ byte: UInt8) -> Bool {
        guard i < n, p[i] == byte else { return false }
        i &+= 1
        return true
    }

    // MARK: - Numbers

    /// How many of a word's bytes, from the first, are ASCII digits (0...8).
    ///
    /// A byte is a digit when its high nibble is 3 and adding 6 keeps it
    /// there. Adding 6 to the whole word can carry from a byte of 0xFA or
    /// more into the next one, but such a byte is itself not a digit, and
    /// only the first non-digit counts.
    @inline(__always)
    static func leadingDigits(_ w: UInt64) -> Int {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        let other = ((w & nibbles) ^ threes) | (((w &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
        return other.trailingZeroBitCount >> 3
    }

    /// The value of the first `count` (1...8) bytes of `w`, which are ASCII digits.
    ///
    /// The digits are moved to the top of the word (the bytes below become
    /// leading zeros), then combined pairwise: bytes into two-digit values,
    /// those into four-digit ones, those into the eight-digit result.
    @inline(__always)
    static func value(ofDigits w: UInt64, count: Int) -> UInt64 {
        var v = (w &- 0x3030_3030_3030_3030) &<< UInt64(64 &- 8 &* count)
        v = (v &* 10) &+ (v &>> 8)
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 100) &+ ((v &>> 16) & 0x00FF_00FF_00FF_00FF)
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 10_000) &+ ((v &>> 32) & 0x0000_FFFF_0000_FFFF)
        return v & 0xFFFF_FFFF
    }

    /// 10 to the power `k` (0...8).
    @inline(__always)
    static func power(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// The digits of the number at the cursor, up to 8, consumed.
    @inline(__always)
    private mutating func digits() -> (value: UInt64, count: Int) {
        let w = word(at: i)
        let count = min(Self.leadingDigits(w), n &- i)
        guard count > 0 else { return (0, 0) }
        i &+= count
        return (Self.value(ofDigits: w, count: count), count)
    }

    /// An unsigned integer of 1 to 19 digits (leading zeros allowed, as the
    /// general parser allows them); nil otherwise (the general parser
    /// decides about a sign, a fraction, an exponent or a larger value).
    @inline(__always)
    mutating func number() -> UInt64? {
        let first = digits()
        guard first.count > 0 else { return nil }
        if first.count < 8 { return first.value }
        let second = digits()
        if second.count == 0 { return first.value }
        var value = first.value &* Self.power(second.count) &+ second.value
        if second.count < 8 { return value }
        // At most 19 digits in all: below 2^64.
        let third = digits()
        if third.count == 0 { return value }
        guard third.count <= 3 else { return nil }
        value = value &* Self.power(third.count) &+ third.value
        return value
    }

    /// A node id: a number that is not 0.
    @inline(__always)
    mutating func id() -> UInt64? {
        guard let value = number(), value != 0 else { return nil }
        return value
    }

    // MARK: - Strings

    /// From just after an opening quote at `start`: the position of the
    /// closing quote, if no backslash (an escape) and no control character
    /// comes first; nil otherwise (the general parser decides).
    ///
    /// Each word is tested for a quote, a backslash or a byte below 0x20 at
    /// once; the first byte flagged is exact (a false flag can only follow
    /// a true one within the word).
    @inline(__always)
    func plainStringEnd(from start: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var j = start
        while j < n {
            let w = word(at: j)
            let quote = w ^ 0x2222_2222_2222_2222
            let backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
            let flags = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                         | ((w &- 0x2020_2020_2020_2020) & ~w)) & highs
            if flags != 0 {
                let k = j &+ flags.trailingZeroBitCount >> 3
                return k < n && p[k] == UInt8(ascii: "\"") ? k : nil
            }
            j &+= 8
        }
        return nil
    }

    /// A hash of the bytes `start..<end` of the line, for ``ByteKeyedCache``.
    @inline(__always)
    func hash(from start: Int, to end: Int) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: end &- start) &* k
        var j = start
        while j &+ 8 <= end {
            h = (h ^ word(at: j)) &* k
            h ^= h &>> 29
            j &+= 8
        }
        if j < end {
            h = (h ^ (word(at: j) & Self.mask(end &- j))) &* k
            h ^= h &>> 29
        }
        return h &* 0xBF58_476D_1CE4_E5B9
    }

    /// The bytes `start..<end` of the line.
    @inline(__always)
    func bytes(from start: Int, to end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: p + start, count: end &- start)
    }
}

/// Whether a ``LineCursor`` may load 8 bytes past the line's end.
protocol WordReads {
    /// Whether at least 8 readable bytes follow the line.
    static var padded: Bool { get }
}

/// At least 8 readable bytes follow the line (the reader's buffer).
enum PaddedReads: WordReads {
    @inline(__always) static var padded: Bool { true }
}

/// Nothing past the line may be read.
enum ExactReads: WordReads {
    @inline(__always) static var padded: Bool { false }
}
