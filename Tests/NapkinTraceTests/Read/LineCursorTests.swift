@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// The word-at-a-time pieces of the fast path (``LineCursor``), each
/// checked against the obvious byte-at-a-time definition, on lines that end exactly where the buffer ends and on lines
/// followed by other bytes (which must never change a result).
@Suite("Line cursor")
struct LineCursorTests {
    /// What may follow a line in the reader's buffer: the next line's bytes, or anything.
    static let tails: [[UInt8]] = [
        [], Array("0123456789abcdef".utf8), Array("\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"".utf8),
        Array(repeating: 0, count: 16), Array(repeating: 0xFF, count: 16), Array("9999999999999999".utf8),
    ]

    /// Calls `body` with a cursor over `line`, followed in memory by `tail` (readable, not part of the line).
    static func withCursor<R, Reads: WordReads>(_ reads: Reads.Type, _ line: [UInt8], tail: [UInt8],
                                                _ body: (inout LineCursor<Reads>) -> R) -> R {
        let bytes = line + tail
        return bytes.withUnsafeBufferPointer { buffer in
            var cursor = LineCursor<Reads>(UnsafeBufferPointer(rebasing: buffer[0..<line.count]), readable: bytes.count)
            return body(&cursor)
        }
    }

    /// The number at the start of `line` (followed by `tail`) and where it
    /// ends, read by a cursor of each kind that may read it; both must agree.
    static func readNumber(_ line: [UInt8], tail: [UInt8]) -> (UInt64, Int)? {
        func read<Reads: WordReads>(_ reads: Reads.Type) -> (UInt64, Int)? {
            withCursor(reads, line, tail: tail) { cursor -> (UInt64, Int)? in
                guard let value = cursor.number() else { return nil }
                return (value, cursor.i)
            }
        }
        let exact = read(ExactReads.self)
        if tail.count >= 8 {
            let padded = read(PaddedReads.self)
            #expect(padded?.0 == exact?.0 && padded?.1 == exact?.1, "padded and exact reads differ")
        }
        return exact
    }

    /// The end of the plain string at the start of `line`, by a cursor of each kind that may read it.
    static func stringEnd(_ line: [UInt8], tail: [UInt8]) -> Int? {
        let exact = withCursor(ExactReads.self, line, tail: tail) { $0.plainStringEnd(from: 0) }
        if tail.count >= 8 {
            #expect(withCursor(PaddedReads.self, line, tail: tail) { $0.plainStringEnd(from: 0) } == exact)
        }
        return exact
    }

    /// The number at the start of `line` as the fast path must read it: 1 to 19 digits.
    static func expectedNumber(_ line: [UInt8]) -> (UInt64, Int)? {
        let digits = line.prefix { $0 >= 48 && $0 <= 57 }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        return (digits.reduce(0) { $0 * 10 + UInt64($1 - 48) }, digits.count)
    }

    @Test("leading digits and their value, for every count and every kind of byte after them")
    func wordDigits() {
        var random = SplitMix(seed: 42)
        let others: [UInt8] = [0, 0x2F, 0x3A, 0x2C, 0x7D, 0x22, 0xFA, 0xFF, 0x30 + 0x80, 0x20, 0x61]
        for _ in 0..<2_000 {
            var bytes = (0..<8).map { _ in UInt8(48 + random.next() % 10) }
            let count = Int(random.next() % 9)
            if count < 8 {
                bytes[count] = others[Int(random.next() % UInt64(others.count))]
                for k in (count + 1)..<8 where random.next() % 2 == 0 { bytes[k] = UInt8(truncatingIfNeeded: random.next()) }
            }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            #expect(LineCursor<ExactReads>.leadingDigits(word) == count, "\(bytes)")
            if count > 0 {
                let expected = bytes.prefix(count).reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 48) }
                #expect(LineCursor<ExactReads>.value(ofDigits: word, count: count) == expected, "\(bytes)")
            }
        }
    }

    @Test("numbers of 0 to 25 digits, followed by anything, read exactly or refused", .dedicatedThread, .singleThreaded)
    func numbers() {
        var random = SplitMix(seed: 7)
        let ends: [[UInt8]] = [[], Array(",".utf8), Array("}".utf8), Array(".5,".utf8), Array("e3}".utf8), Array("-1".utf8), [0xC3, 0xA9]]
        for length in 0...25 {
            for _ in 0..<40 {
                var digits = (0..<length).map { _ in UInt8(48 + random.next() % 10) }
                if random.next() % 4 == 0, !digits.isEmpty { digits[0] = 48 }   // leading zeros, as the general parser takes them
                for end in ends {
                    let line = digits + end
                    for tail in Self.tails {
                        let result = Self.readNumber(line, tail: tail)
                        let expected = Self.expectedNumber(line)
                        #expect(result?.0 == expected?.0 && result?.1 == expected?.1, "\(String(decoding: line, as: UTF8.self)) + \(tail)")
                    }
                }
            }
        }
        // The largest 19-digit numbers do not overflow.
        let largest = Array("9999999999999999999".utf8)
        #expect(Self.readNumber(largest, tail: [])?.0 == 9_999_999_999_999_999_999)
        #expect(Self.readNumber(largest, tail: Array("99999999".utf8))?.0 == 9_999_999_999_999_999_999, "digits after the line are not read")
        #expect(Self.readNumber(largest + [57], tail: Array("99999999".utf8)) == nil, "20 digits")
    }

    @Test("a plain string's end: the first quote, unless an escape or a control character comes first")
    func plainStrings() {
        var random = SplitMix(seed: 99)
        let alphabet: [UInt8] = Array("ab Z9:,{}".utf8) + [0x22, 0x5C, 0x00, 0x1F, 0x20, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<3_000 {
            let length = Int(random.next() % 40)
            let line = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            var expected: Int?
            for (k, b) in line.enumerated() {
                if b == 0x22 { expected = k; break }
                if b == 0x5C || b < 0x20 { break }
            }
            for tail in Self.tails {
                let end = Self.stringEnd(line, tail: tail)
                #expect(end == expected, "\(line) + \(tail)")
            }
        }
    }

    @Test("literals match only within the line")
    func literalsWithinTheLine() {
        let line = Array(#"{"seq":1,"t":2,"ev":"load","id":3}"#.utf8)
        for cut in 0...line.count {
            for tail in Self.tails + [Array(line[cut...]) + Array(repeating: 0, count: 8)] {
                let matched = Self.withCursor(ExactReads.self, Array(line[..<cut]), tail: tail) { $0.match(.recordStart) }
                #expect(matched == (cut >= 7), "cut at \(cut)")
                if tail.count >= 8 {
                    #expect(Self.withCursor(PaddedReads.self, Array(line[..<cut]), tail: tail) { $0.match(.recordStart) } == matched)
                }
            }
        }
    }

    @Test("a hash depends on the bytes of the range only")
    func hashes() {
        let text = Array("LoggedInInteractor and more".utf8)
        for end in 0...18 {
            let hashes = Self.tails.map { tail in Self.withCursor(ExactReads.self, text, tail: tail) { $0.hash(from: 0, to: end) } }
                + [Self.withCursor(PaddedReads.self, text, tail: Self.tails[1]) { $0.hash(from: 0, to: end) }]
            #expect(Set(hashes).count == 1)
            let alone = Self.withCursor(ExactReads.self, Array(text[..<end]), tail: []) { $0.hash(from: 0, to: end) }
            #expect(hashes[0] == alone)
        }
    }
}
