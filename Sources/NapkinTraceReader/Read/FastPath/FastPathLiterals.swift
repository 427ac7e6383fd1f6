import NapkinTrace

/// The fast path's tables made from the wire format's enums, once:
/// ``names`` tells which ``TraceEvent/Name`` the bytes at the cursor can be
/// (a new kind is in it without a change here), ``appearances`` and
/// ``outcomes`` are the values of a view's `state` and a task's `outcome`.
/// (Keys and event names are matched against constants made from their one
/// spelling where they are matched: ``WireLiteral/key(_:)``,
/// ``WireLiteral/name(_:)``.)
///
/// `@unchecked Sendable`: only ``shared`` is ever made, and its tables are
/// immutable and never deallocated.
struct FastPathLiterals: @unchecked Sendable {
    /// The tables, made at first use.
    static let shared = FastPathLiterals()

    /// Every event name, the candidate for its bytes on the line.
    let names = WireNameSlots(TraceEvent.Name.allCases)
    /// Each view state's value with its closing quote (`shown"`).
    let appearances = WireChoices(ViewAppearance.allCases.map { ($0.rawValue, $0) })
    /// Each task outcome's value with its closing quote (`completed"`).
    let outcomes = WireChoices(TaskOutcome.allCases.map { ($0.rawValue, $0) })

    private init() {}
}

/// The values a string field can take (a view's `state`, a task's
/// `outcome`), each with its closing quote, tried in order.
///
/// `@unchecked Sendable`: the table is immutable after `init` and never
/// deallocated (only ``FastPathLiterals/shared`` holds one).
struct WireChoices<Value: Sendable>: @unchecked Sendable {
    /// The literals, with the value each spells.
    let entries: UnsafeBufferPointer<(WireLiteral, Value)>

    /// The choices `values` (their wire spellings, without quotes).
    init(_ values: [(String, Value)]) {
        let storage = UnsafeMutableBufferPointer<(WireLiteral, Value)>.allocate(capacity: values.count)
        _ = storage.initialize(from: values.map { (WireLiteral(spelling: $0.0 + "\""), $0.1) })
        entries = UnsafeBufferPointer(storage)
    }
}
