import NapkinTrace

/// A short run of bytes the fast path expects at a given place of a line
/// (a key with its punctuation, a value with its closing quote), as
/// little-endian words, so that matching it takes one or two word compares.
///
/// Every literal is made from the wire format's one definition, never
/// spelled by hand: a key from its ``TraceField`` (``key(_:)``), an event
/// name from its ``TraceEvent/Name/spelling`` (``name(_:)``), both folded
/// into constants by the optimizer; a view state or task outcome from its
/// enum's raw value (``FastPathLiterals``, made once).
struct WireLiteral: Sendable, Equatable {
    /// The most bytes a literal holds (two words).
    static var maxCount: Int { 16 }

    /// The first eight bytes, little-endian (zero beyond ``count``).
    let first: UInt64
    /// The last eight bytes, little-endian, when ``count`` is above 8.
    let last: UInt64
    /// The low ``count`` bytes of a word (all of them from 8 on).
    let mask: UInt64
    /// How many bytes.
    let count: Int

    /// The literal of the bytes of `parts`, in order: at most ``maxCount``
    /// of them (more stop the program, naming them).
    ///
    /// Transparent (inlined before any optimization, however large the
    /// caller): with parts that are literals (a ``TraceField/name`` or a
    /// ``TraceEvent/Name/spelling`` chosen by a constant), the optimizer
    /// reads their bytes at compile time and the literal is four constants,
    /// as if spelled by hand.
    @_transparent
    init(_ parts: (StaticString, StaticString, StaticString)) {
        var low: UInt64 = 0, high: UInt64 = 0
        var count = 0
        Self.append(parts.0, &low, &high, &count)
        Self.append(parts.1, &low, &high, &count)
        Self.append(parts.2, &low, &high, &count)
        precondition(count <= Self.maxCount,
                     "the fast path's literal \(parts.0)\(parts.1)\(parts.2) is \(count) bytes; a WireLiteral holds at most \(Self.maxCount)")
        self.init(low: low, high: high, count: count)
    }

    /// Adds the bytes of `part` to the words, from byte `count` on (bytes
    /// past 16 are only counted).
    @_transparent
    private static func append(_ part: StaticString, _ low: inout UInt64, _ high: inout UInt64, _ count: inout Int) {
        let bytes = part.utf8Start
        for k in 0..<part.utf8CodeUnitCount {
            if count < 8 {
                low |= UInt64(bytes[k]) &<< UInt64(8 &* count)
            } else if count < 16 {
                high |= UInt64(bytes[k]) &<< UInt64(8 &* (count &- 8))
            }
            count &+= 1
        }
    }

    /// The literal spelling `text`, of at most ``maxCount`` bytes (more stop
    /// the program, naming it).
    init(spelling text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.count <= Self.maxCount,
                     "the fast path's literal \(text) is \(bytes.count) bytes; a WireLiteral holds at most \(Self.maxCount)")
        func word(_ part: ArraySlice<UInt8>) -> UInt64 {
            part.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
        }
        self.init(low: word(bytes.prefix(8)), high: word(bytes.dropFirst(8)), count: bytes.count)
    }

    /// The literal whose bytes 0..<8 are `low` and 8..<16 `high` (zero beyond `count`).
    @_transparent
    private init(low: UInt64, high: UInt64, count: Int) {
        first = low
        // The last eight bytes: the top of `low` and the bytes of `high`.
        last = count <= 8 ? 0 : count == 16 ? high : (low &>> UInt64(8 &* (count &- 8))) | (high &<< UInt64(8 &* (16 &- count)))
        mask = count >= 8 ? ~0 : (1 &<< UInt64(8 &* count)) &- 1
        self.count = count
    }

    /// `field`'s key as the encoder writes it after the previous field
    /// (`,"id":`); a string field's key takes the value's opening quote with
    /// it (`,"type":"`).
    @_transparent
    static func key(_ field: TraceField) -> WireLiteral {
        WireLiteral((",\"", field.name, field.valueType == .string ? "\":\"" : "\":"))
    }

    /// `name`'s value with its closing quote (`attach"`), as the encoder
    /// writes it after the `ev` key.
    @_transparent
    static func name(_ name: TraceEvent.Name) -> WireLiteral {
        WireLiteral((name.spelling, "\"", ""))
    }

    /// The start of every record: `{"seq":`.
    @_transparent
    static var recordStart: WireLiteral {
        WireLiteral(("{\"", TraceField.seq.name, "\":"))
    }
}
