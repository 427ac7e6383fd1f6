import NapkinTrace

/// Tells which event name the bytes on a line can be, from their first
/// word (the bytes before its first quote, or all eight): a perfect hash of
/// every ``TraceEvent/Name``'s first eight bytes, so a new kind is in it at
/// once. Matching the name's literal (``WireLiteral/name(_:)``) confirms it.
/// Of names with the same first eight bytes only the first is found
/// (`FastPathLiteralsTests` names the other).
///
/// `@unchecked Sendable`: immutable after `init`, never deallocated (only
/// ``FastPathLiterals/shared`` holds one).
struct WireNameSlots: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<TraceEvent.Name?>
    private let multiplier: UInt64
    private let shift: UInt64

    /// The table of `names`.
    init(_ names: [TraceEvent.Name]) {
        var keys: [UInt64: TraceEvent.Name] = [:]
        for name in names where keys[Self.key(name)] == nil { keys[Self.key(name)] = name }
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        for bits in 5...16 where 1 << bits >= 2 * keys.count {
            for _ in 0..<1_000 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let multiplier = random | 1, shift = UInt64(64 - bits)
                guard Set(keys.keys.map { Self.slot($0, multiplier, shift) }).count == keys.count else { continue }
                slots = .allocate(capacity: 1 << bits)
                slots.initialize(repeating: nil, count: 1 << bits)
                for (key, name) in keys { slots[Self.slot(key, multiplier, shift)] = name }
                self.multiplier = multiplier
                self.shift = shift
                return
            }
        }
        preconditionFailure("no perfect hash for the event names \(names.map(\.rawValue))")
    }

    /// The key of `name`: its first eight bytes, zero beyond it.
    static func key(_ name: TraceEvent.Name) -> UInt64 {
        name.rawValue.utf8.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    @inline(__always)
    private static func slot(_ key: UInt64, _ multiplier: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* multiplier) &>> shift)
    }

    /// The name whose key is `key`, if any (a name with other bytes may
    /// have the same slot: the caller confirms it).
    @inline(__always)
    func candidate(_ key: UInt64) -> TraceEvent.Name? {
        slots[Self.slot(key, multiplier, shift)]
    }
}
