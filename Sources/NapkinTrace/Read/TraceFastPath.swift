/// The fast path of ``TraceLineParser``: lines exactly as ``TraceEncoder``
/// writes them (its key order, no whitespace, no escapes), which is every
/// line of a trace produced by NapkinTrace. Anything else returns nil and
/// goes through the general parser, so correctness never depends on this
/// path; it only makes the common case cheap.
struct TraceFastPath {
    private let p: UnsafePointer<UInt8>
    private let n: Int
    private var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        p = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        var count = bytes.count
        if count > 0 && p[count - 1] == 13 { count -= 1 }
        n = count
    }

    mutating func parse() -> TraceEvent? {
        guard byte(UInt8(ascii: "{")), key(.seq, first: true), let seq = number(),
              key(.t), let t = number(), key(.ev), let name = eventName() else { return nil }
        let kind: TraceEvent.Kind
        switch name {
        case .attach, .detach:
            guard key(.parent), let parent = id(), key(.child), let child = id() else { return nil }
            kind = name == .attach ? .attach(parent: parent, child: child) : .detach(parent: parent, child: child)
        case .activate, .deactivate, .hookEnd, .load, .launch, .deallocated:
            guard key(.id), let id = id() else { return nil }
            switch name {
            case .activate: kind = .activate(interactor: id)
            case .deactivate: kind = .deactivate(interactor: id)
            case .hookEnd: kind = .hookEnd(interactor: id)
            case .load: kind = .load(router: id)
            case .launch: kind = .launch(router: id)
            default: kind = .deallocated(id: id)
            }
        case .view:
            guard key(.id), let id = id(), key(.state), let appearance = wireName(ViewAppearance.lookup) else { return nil }
            kind = .view(router: id, appearance: appearance)
        case .taskStart:
            guard key(.task), let task = id(), key(.owner), let owner = id() else { return nil }
            var label: String?
            if i < n && p[i] == UInt8(ascii: ",") {
                guard key(.label), let text = plainString() else { return nil }
                label = text
            }
            kind = .taskStart(task: task, owner: owner, label: label)
        case .taskCancel:
            guard key(.task), let task = id() else { return nil }
            kind = .taskCancel(task: task)
        case .taskEnd:
            guard key(.task), let task = id(), key(.outcome), let outcome = wireName(TaskOutcome.lookup) else { return nil }
            kind = .taskEnd(task: task, outcome: outcome)
        case .interactor:
            guard key(.id), let id = id(), key(.type), let type = plainString() else { return nil }
            kind = .interactorCreated(id: id, type: type)
        case .router:
            guard key(.id), let id = id(), key(.type), let type = plainString(),
                  key(.interactor), let interactor = number(), key(.itype), let itype = plainString() else { return nil }
            kind = .routerCreated(id: id, type: type, interactor: interactor, interactorType: itype)
        case .mark:
            guard key(.text), let text = plainString() else { return nil }
            kind = .mark(text: text)
        case .session, .dropped, .end:
            return nil // once per session: the general parser is fast enough
        }
        var location: CodeLocation?
        if i < n && p[i] == UInt8(ascii: ",") {
            guard key(.src), let text = plainString(), let parsed = CodeLocation(parsing: text) else { return nil }
            location = parsed
        }
        guard byte(UInt8(ascii: "}")), i == n else { return nil }
        return TraceEvent(seq: seq, time: t, kind: kind, location: location)
    }

    // MARK: - Pieces

    @inline(__always)
    private mutating func byte(_ b: UInt8) -> Bool {
        guard i < n, p[i] == b else { return false }
        i += 1
        return true
    }

    /// `"name":`, preceded by `,` unless it is the first field.
    @inline(__always)
    private mutating func key(_ field: TraceField, first: Bool = false) -> Bool {
        let name = field.name
        let count = name.utf8CodeUnitCount
        let start = first ? i : i + 1
        guard start + count + 3 <= n, first || p[i] == UInt8(ascii: ","), p[start] == UInt8(ascii: "\"") else { return false }
        let t = name.utf8Start
        var k = 0
        while k < count {
            if p[start + 1 + k] != t[k] { return false }
            k += 1
        }
        guard p[start + 1 + count] == UInt8(ascii: "\""), p[start + 2 + count] == UInt8(ascii: ":") else { return false }
        i = start + count + 3
        return true
    }

    @inline(__always)
    private mutating func number() -> UInt64? {
        var value: UInt64 = 0
        let start = i
        while i < n {
            let d = p[i] &- 48
            if d > 9 { break }
            // At most 19 digits never overflow; longer numbers take the general path.
            value = value &* 10 &+ UInt64(d)
            i += 1
        }
        let digits = i - start
        guard digits > 0 && digits <= 19 else { return nil }
        return value
    }

    /// A node id: a number that is not 0.
    @inline(__always)
    private mutating func id() -> UInt64? {
        guard let value = number(), value != 0 else { return nil }
        return value
    }

    /// The `ev` value, a name of format v1.
    @inline(__always)
    private mutating func eventName() -> TraceEvent.Name? {
        guard i < n, p[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var end = start
        while end < n && p[end] != UInt8(ascii: "\"") {
            if p[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        guard end < n else { return nil }
        i = end + 1
        return TraceEvent.Name.lookup(UnsafeBufferPointer(start: p + start, count: end - start))
    }

    /// A quoted name without escapes that `lookup` knows (a task outcome, a
    /// view appearance).
    @inline(__always)
    private mutating func wireName<Value>(_ lookup: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        guard i < n, p[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var end = start
        while end < n && p[end] != UInt8(ascii: "\"") { end += 1 }
        guard end < n, let value = lookup(UnsafeBufferPointer(start: p + start, count: end - start)) else { return nil }
        i = end + 1
        return value
    }

    /// A string value with no escapes (the general parser handles escapes).
    @inline(__always)
    private mutating func plainString() -> String? {
        guard i < n, p[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        let start = i
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
                i += 1
                return text
            }
            if b == UInt8(ascii: "\\") || b < 32 { return nil }
            i += 1
        }
        return nil
    }
}
