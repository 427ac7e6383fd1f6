import Testing
@testable import napkin_inspect
import TestSupport

/// ``KeyDecoder``: the terminal's bytes to keys, including sequences cut
/// between two reads and garbage.
@Suite("key decoder")
struct KeyDecoderTests {
    /// The keys of `batches`, read one after the other by one decoder.
    static func decode(_ batches: [UInt8]...) -> [Key] {
        var decoder = KeyDecoder()
        return batches.flatMap { decoder.keys($0) }
    }

    /// The bytes of `text`.
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("arrows in both forms, with and without modifiers")
    func arrows() {
        #expect(Self.decode(Self.bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")) == [.up, .down, .right, .left])
        #expect(Self.decode(Self.bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD")) == [.up, .down, .right, .left])
        #expect(Self.decode(Self.bytes("\u{1B}[1;2A\u{1B}[1;5D")) == [.up, .left])
    }

    @Test("PgUp, PgDn, Home and End in every spelling; Shift-Tab")
    func editingKeys() {
        #expect(Self.decode(Self.bytes("\u{1B}[5~\u{1B}[6~")) == [.pageUp, .pageDown])
        #expect(Self.decode(Self.bytes("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF")) == [.home, .end, .home, .end])
        #expect(Self.decode(Self.bytes("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~")) == [.home, .end, .home, .end])
        #expect(Self.decode(Self.bytes("\u{1B}[5;5~")) == [.pageUp])
        #expect(Self.decode(Self.bytes("\u{1B}[Z")) == [.backTab])
    }

    @Test("Escape alone: an ESC that ends the batch, or before another ESC or a plain byte")
    func escape() {
        #expect(Self.decode([0x1B]) == [.escape])
        #expect(Self.decode([0x1B, 0x1B]) == [.escape, .escape])
        #expect(Self.decode([0x1B, 0x1B, 0x5B, 0x41]) == [.escape, .up])
        #expect(Self.decode(Self.bytes("\u{1B}q")) == [.escape, .character("q")])
        #expect(Self.decode([0x1B], Self.bytes("q")) == [.escape, .character("q")], "ESC ending a batch is Escape at once")
    }

    @Test("Enter, Backspace, Tab, Ctrl-C and other control bytes")
    func controls() {
        #expect(Self.decode([13, 10, 13, 13]) == [.enter, .enter, .enter], "CR LF is one Enter")
        #expect(Self.decode([10]) == [.enter])
        #expect(Self.decode([127, 8]) == [.backspace, .backspace])
        #expect(Self.decode([9]) == [.tab])
        #expect(Self.decode([3]) == [.interrupt])
        #expect(Self.decode([12, 0]) == [.control(12), .control(0)])
        #expect(Key.control(12).description == "Ctrl-L")
    }

    @Test("printable characters, ASCII and UTF-8")
    func characters() {
        #expect(Self.decode(Self.bytes("q/ab ?")) == ["q", "/", "a", "b", " ", "?"].map { .character($0) })
        #expect(Self.decode(Self.bytes("é→𝄞")) == [.character("é"), .character("→"), .character("𝄞")])
    }

    @Test("a sequence or character cut between two reads is finished by the next one")
    func split() {
        #expect(Self.decode([0x1B, 0x5B], [0x41]) == [.up])
        #expect(Self.decode(Self.bytes("\u{1B}[5"), Self.bytes("~")) == [.pageUp])
        #expect(Self.decode(Self.bytes("\u{1B}O"), Self.bytes("B")) == [.down])
        #expect(Self.decode(Self.bytes("\u{1B}[1;"), Self.bytes("2"), Self.bytes("C")) == [.right])
        let arrow = Array("→".utf8)
        #expect(Self.decode([arrow[0]], Array(arrow[1...])) == [.character("→")])
        #expect(Self.decode(Array(arrow[0..<2]), [arrow[2], 0x61]) == [.character("→"), .character("a")])
    }

    @Test("an unfinished sequence followed by an empty read is dropped, not kept forever")
    func abandoned() {
        #expect(Self.decode(Self.bytes("\u{1B}[5"), [], Self.bytes("x")) == [.character("x")])
        #expect(Self.decode([0xE2, 0x86], [], Self.bytes("y")) == [.character("y")])
    }

    @Test("garbage: unknown sequences are ignored whole, broken ones give way to the byte that broke them")
    func garbage() {
        // Unknown but well-formed: F5, Insert, Delete, a mouse report, an unknown final.
        #expect(Self.decode(Self.bytes("\u{1B}[15~\u{1B}[2~\u{1B}[3~\u{1B}[<0;12;5M\u{1B}[?u\u{1B}OPx")) == [.character("x")])
        // A control byte inside a sequence ends it, and is read itself.
        #expect(Self.decode([0x1B, 0x5B, 0x31, 0x0D]) == [.enter])
        #expect(Self.decode([0x1B, 0x4F, 0x09]) == [.tab])
        // Invalid UTF-8: stray continuation bytes, a lead without its continuation, bytes never valid.
        #expect(Self.decode([0x80, 0xBF, 0xC3, 0x41, 0xFF, 0xC0, 0x42]) == [.character("A"), .character("B")])
        // C1 controls encoded in UTF-8 are not printable: dropped.
        #expect(Self.decode([0xC2, 0x9B, 0x41]) == [.character("A")])
        // A parameter run longer than any key: read to its end, ignored, never kept.
        let long = Self.bytes("\u{1B}[" + String(repeating: "1;", count: 40) + "A") + Self.bytes("z")
        #expect(Self.decode(long) == [.character("z")])
        let cut = Self.bytes("\u{1B}[" + String(repeating: "9", count: 60))
        #expect(Self.decode(cut, Self.bytes("~k")) == [.character("~"), .character("k")], "too long to keep across reads")
    }

    @Test("any bytes at all: never a crash, and at most one key per byte", .dedicatedThread, .singleThreaded)
    func anyBytes() {
        var generator = SystemRandomNumberGenerator()
        var decoder = KeyDecoder()
        for _ in 0..<2_000 {
            let batch = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                [0x1B, 0x5B, 0x4F, 0x7E, 0x31, 0x3B].randomElement(using: &generator)! as UInt8
                    ^ (Bool.random(using: &generator) ? 0 : UInt8.random(in: 0...255, using: &generator))
            }
            #expect(decoder.keys(batch).count <= batch.count + KeyDecoder.maxSequence)
        }
    }
}
