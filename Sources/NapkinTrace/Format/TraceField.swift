/// The field names of format v1: the one place each is spelled.
///
/// The encoder writes them, the fast path expects them in the encoder's
/// order, and the general parser recognises them in any order through
/// ``lookup(_:)``. `docs/trace-format.md` documents each one.
///
/// `@usableFromInline` here and on ``name``, ``valueType`` and
/// `TraceEvent.Name.spelling`: the fast path's literals, in
/// NapkinTraceReader, fold into constants only if these bodies cross the
/// module boundary; without it the reader ran 2.5 times slower
/// (`napkin-bench reader`, side by side with the build before the split).
@usableFromInline
package enum TraceField: CaseIterable, Sendable {
    case seq, t, ev
    case v, app, pid, wall, rev, part, lost, replay
    case id, type, interactor, itype
    case parent, child
    case task, owner, label, outcome
    case text, count, first, last, reason
    case state, src
    case found, refs
    case fn

    /// The field's name on the wire.
    @_transparent @usableFromInline package var name: StaticString {
        switch self {
        case .seq: "seq"
        case .t: "t"
        case .ev: "ev"
        case .v: "v"
        case .app: "app"
        case .pid: "pid"
        case .wall: "wall"
        case .rev: "rev"
        case .part: "part"
        case .lost: "lost"
        case .replay: "replay"
        case .id: "id"
        case .type: "type"
        case .interactor: "interactor"
        case .itype: "itype"
        case .parent: "parent"
        case .child: "child"
        case .task: "task"
        case .owner: "owner"
        case .label: "label"
        case .outcome: "outcome"
        case .text: "text"
        case .count: "count"
        case .first: "first"
        case .last: "last"
        case .reason: "reason"
        case .state: "state"
        case .src: "src"
        case .found: "found"
        case .refs: "refs"
        case .fn: "fn"
        }
    }

    /// This field's bit in a set of fields: 1 shifted by its position in
    /// ``allCases`` (at most 64 fields; `TraceEventNameTests` checks that
    /// each has its own bit).
    @inlinable package var bit: UInt64 {
        1 &<< UInt64(unsafeBitCast(self, to: UInt8.self))
    }

    /// The JSON type a field's value has.
    @usableFromInline package enum ValueType { case unsigned, signed, string }

    /// The type of this field's value.
    @_transparent @usableFromInline package var valueType: ValueType {
        switch self {
        case .seq, .t, .v, .pid, .rev, .part, .lost, .replay, .id, .interactor, .parent, .child, .task, .owner, .count, .first, .last, .found, .refs: .unsigned
        case .wall: .signed
        case .ev, .app, .type, .itype, .label, .outcome, .text, .reason, .state, .src, .fn: .string
        }
    }

    /// The field whose name is `bytes`, if any.
    @inline(__always)
    package static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceField? {
        table.value(for: bytes)
    }

    private static let table = WireNameTable(allCases.map { ($0.name.description, $0) })
}

extension TraceEvent.Name {
    /// The event name whose wire spelling is `bytes`, if any.
    @inline(__always)
    package static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceEvent.Name? {
        table.value(for: bytes)
    }

    private static let table = WireNameTable(allCases.map { ($0.rawValue, $0) })
}

extension ViewAppearance {
    /// The appearance whose wire spelling is `bytes`, if any.
    @inline(__always)
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> ViewAppearance? {
        table.value(for: bytes)
    }

    private static let table = WireNameTable(allCases.map { ($0.rawValue, $0) })
}

extension TaskOutcome {
    /// The outcome whose wire spelling is `bytes`, if any.
    @inline(__always)
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> TaskOutcome? {
        table.value(for: bytes)
    }

    private static let table = WireNameTable(allCases.map { ($0.rawValue, $0) })
}

/// Finds a value by its wire name without building a string: an open-addressed
/// hash of (length, first byte, last byte), then one byte comparison.
///
/// `@unchecked Sendable`: the table is immutable after `init`, and it is never
/// deallocated (only static constants hold one), so its pointers stay valid
/// and are only read.
struct WireNameTable<Value: Sendable>: @unchecked Sendable {
    private static var slotCount: Int { 256 }
    /// Index into the entries + 1 (0: empty slot).
    private let slots: UnsafeMutablePointer<UInt8>
    private let names: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>
    private let values: UnsafeMutablePointer<Value>

    init(_ entries: [(String, Value)]) {
        precondition(entries.count < 255, "a wire name table holds fewer than 255 names")
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0, count: Self.slotCount)
        let bytes = entries.flatMap { Array($0.0.utf8) }
        names = .allocate(capacity: max(1, bytes.count))
        names.initialize(from: bytes, count: bytes.count)
        starts = .allocate(capacity: entries.count + 1)
        values = .allocate(capacity: max(1, entries.count))
        var offset = 0
        for (k, (name, value)) in entries.enumerated() {
            starts[k] = offset
            (values + k).initialize(to: value)
            let utf8 = Array(name.utf8)
            offset += utf8.count
            var slot = utf8.withUnsafeBufferPointer { Self.hash($0) }
            while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
            slots[slot] = UInt8(k + 1)
        }
        starts[entries.count] = offset
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let last = bytes.last else { return 0 }
        return (bytes.count &* 131 &+ Int(bytes[0]) &* 31 &+ Int(last)) & (slotCount - 1)
    }

    @inline(__always)
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        var slot = Self.hash(bytes)
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            let k = entry - 1
            let start = starts[k]
            if starts[k + 1] - start == bytes.count {
                var i = 0
                while i < bytes.count && names[start + i] == bytes[i] { i += 1 }
                if i == bytes.count { return values[k] }
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
    }
}
