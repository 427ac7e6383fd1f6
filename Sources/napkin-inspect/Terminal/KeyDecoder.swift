/// Turns the bytes a terminal sends into ``Key``s.
///
/// The inspector reads every byte waiting on the keyboard once per frame and
/// hands them over as one batch. Within a batch:
///
/// - `ESC [ …` (CSI) and `ESC O x` (SS3) are the cursor and editing keys:
///   arrows in both forms (`ESC [ A`, `ESC O A`, with modifiers ignored:
///   `ESC [ 1 ; 2 A` is ↑), PgUp/PgDn (`ESC [ 5 ~`, `ESC [ 6 ~`), Home/End
///   (`ESC [ H`/`F`, `ESC O H`/`F`, `ESC [ 1 ~`/`4 ~`, `ESC [ 7 ~`/`8 ~`) and
///   Shift-Tab (`ESC [ Z`). Other sequences (function keys, Insert, Delete,
///   mouse reports) are read whole and ignored.
/// - An ESC with nothing after it in the batch is Escape. An ESC before any
///   other byte is Escape too, and the byte is read on its own (Alt-x is
///   Escape, then x).
/// - A sequence cut by the end of the batch (`ESC [ 5` then `~`) is kept and
///   finished by the next batch; if the next batch is empty it is dropped.
///   A byte that cannot be part of a sequence ends it: what came before is
///   dropped, and the byte is read on its own. A sequence longer than
///   ``maxSequence`` bytes is read to its end and ignored, and never kept.
/// - CR or LF is Enter (CR LF once), DEL or BS Backspace, Tab, Ctrl-C
///   (byte 3) interrupt, other control bytes ``Key/control(_:)``.
/// - Other bytes are UTF-8: each printable character is one key; invalid
///   bytes are dropped, and a character cut by the end of the batch is
///   finished by the next one.
struct KeyDecoder {
    /// The longest escape sequence or UTF-8 character kept between batches, in bytes.
    static let maxSequence = 32

    /// The start of a sequence or character cut by the end of the last batch.
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    init() {}

    /// The keys in `batch` (everything read at once), after what the last batch left pending.
    mutating func keys(_ batch: [UInt8]) -> [Key] {
        guard !batch.isEmpty else {
            pending.removeAll()
            return []
        }
        let bytes = pending + batch
        pending.removeAll()
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                i = escape(bytes, at: i, into: &keys)
            case 13:
                keys.append(.enter)
                i += (i + 1 < bytes.count && bytes[i + 1] == 10) ? 2 : 1
            case 10:
                keys.append(.enter)
                i += 1
            case 9:
                keys.append(.tab)
                i += 1
            case 127, 8:
                keys.append(.backspace)
                i += 1
            case 3:
                keys.append(.interrupt)
                i += 1
            case 0..<32:
                keys.append(.control(byte))
                i += 1
            case 32..<127:
                keys.append(.character(Character(UnicodeScalar(byte))))
                i += 1
            default:
                i = utf8(bytes, at: i, into: &keys)
            }
        }
        return keys
    }

    /// Reads the escape sequence at `start`; returns where reading goes on.
    private mutating func escape(_ bytes: [UInt8], at start: Int, into keys: inout [Key]) -> Int {
        let next = start + 1
        guard next < bytes.count else {
            keys.append(.escape)
            return next
        }
        switch bytes[next] {
        case UInt8(ascii: "["):
            return csi(bytes, at: start, into: &keys)
        case UInt8(ascii: "O"):
            guard next + 1 < bytes.count else {
                pending = Array(bytes[start...])
                return bytes.count
            }
            let final = bytes[next + 1]
            guard (0x20..<0x7F).contains(final) else { return next + 1 }  // garbage: ESC O dropped
            if let key = Self.ss3Key(final) { keys.append(key) }
            return next + 2
        default:
            keys.append(.escape)
            return next
        }
    }

    /// Reads `ESC [ parameters final` at `start`; returns where reading goes on.
    private mutating func csi(_ bytes: [UInt8], at start: Int, into keys: inout [Key]) -> Int {
        var i = start + 2
        while i < bytes.count {
            let byte = bytes[i]
            if (0x20...0x3F).contains(byte) {
                i += 1
                continue
            }
            guard (0x40...0x7E).contains(byte) else { return i }  // garbage: the sequence so far is dropped
            let parameters = bytes[(start + 2)..<i]
            if i - start < Self.maxSequence, let key = Self.csiKey(final: byte, parameters: parameters) { keys.append(key) }
            return i + 1
        }
        if bytes.count - start <= Self.maxSequence { pending = Array(bytes[start...]) }
        return bytes.count
    }

    /// Reads the UTF-8 character whose first byte is at `start`; returns where reading goes on.
    private mutating func utf8(_ bytes: [UInt8], at start: Int, into keys: inout [Key]) -> Int {
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return start + 1  // a stray continuation byte, or never valid
        }
        var end = start + 1
        while end < bytes.count && end - start < length {
            guard (0x80...0xBF).contains(bytes[end]) else { return end }  // cut short: the lead is dropped
            end += 1
        }
        guard end - start == length else {
            pending = Array(bytes[start...])
            return bytes.count
        }
        var decoder = UTF8()
        var iterator = bytes[start..<end].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator), !PrintableText.needsEscape(scalar) {
            keys.append(.character(Character(scalar)))
        }
        return end
    }

    /// The key of `ESC O final`, if it is one the inspector knows.
    private static func ss3Key(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// The key of `ESC [ parameters final`, if it is one the inspector knows.
    private static func csiKey(final: UInt8, parameters: ArraySlice<UInt8>) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"):
            // The first parameter names the key; modifiers (`;5`) are ignored.
            let first = parameters.prefix { $0 != UInt8(ascii: ";") }
            guard !first.isEmpty, first.count <= 3, first.allSatisfy({ (48...57).contains($0) }) else { return nil }
            switch first.reduce(0, { $0 * 10 + Int($1 - 48) }) {
            case 1, 7: return .home
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            default: return nil
            }
        default:
            return nil
        }
    }
}
