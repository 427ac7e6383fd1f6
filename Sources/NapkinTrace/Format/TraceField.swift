/// The field names of format v1: the one place each is spelled.
///
/// The encoder writes them, the fast path expects them in the encoder's
/// order, and the general parser recognises them in any order through
/// ``lookup(_:)``. `docs/trace-format.md` documents each one.
enum TraceField: CaseIterable, Sendable {
    case seq, t, ev
    case v, app, pid, wall
    case id, type, interactor, itype
    case parent, child
    case task, owner, label, outcome
    case text, count, first, last, reason

    /// The field's name on the wire.
    var name: StaticString {
        switch self {
        case .seq: "seq"
        case .t: "t"
        case .ev: "ev"
        case .v: "v"
        case .app: "app"
        case .pid: "pid"
        case .wall: "wall"
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
        }
    }

    /// The JSON type a field's value has.
    enum ValueType { case unsigned, signed, string }

    /// The type of this field's value.
    var valueType: ValueType {
        switch self {
        case .seq, .t, .v, .pid, .id, .interactor, .parent, .child, .task, .owner, .count, .first, .last: .unsigned
        case .wall: .signed
        case .ev, .app, .type, .itype, .label, .outcome, .text, .reason: .string
        }
    }

    /// The field whose name is `bytes`, if any.
    @inline(__always)
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceField? {
        table.value(for: bytes)
    }

    private static let table = WireNameTable(allCases.map { ($0.name.description, $0) })
}

extension TraceEvent.Name {
    /// The event name whose wire spelling is `bytes`, if any.
    @inline(__always)
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceEvent.Name? {
        table.value(for: bytes)
    }

    private static let table = WireNameTable(allCases.map { ($0.rawValue, $0) })
}

/// Finds a value by its wire name without building a string: candidates are
/// grouped by length, so a lookup compares the bytes of at most a few names.
struct WireNameTable<Value: Sendable>: Sendable {
    private let byLength: [[(bytes: [UInt8], value: Value)]]

    init(_ entries: [(String, Value)]) {
        let longest = entries.map(\.0.utf8.count).max() ?? 0
        var table = [[(bytes: [UInt8], value: Value)]](repeating: [], count: longest + 1)
        for (name, value) in entries { table[name.utf8.count].append((Array(name.utf8), value)) }
        byLength = table
    }

    @inline(__always)
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard bytes.count < byLength.count else { return nil }
        for candidate in byLength[bytes.count] {
            let equal = candidate.bytes.withUnsafeBufferPointer { name in
                var k = 0
                while k < name.count && name[k] == bytes[k] { k += 1 }
                return k == name.count
            }
            if equal { return candidate.value }
        }
        return nil
    }
}
