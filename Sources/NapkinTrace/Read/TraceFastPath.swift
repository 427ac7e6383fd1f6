/// The fast path of ``TraceLineParser``: lines exactly as ``TraceEncoder``
/// writes them (fixed key order, no whitespace, no escapes in names), which is
/// every line of a trace produced by NapkinTrace. Anything else returns nil
/// and goes through the general JSON parser, so correctness never depends on
/// this path; it only makes the common case cheap.
struct TraceFastPath {
    let p: UnsafePointer<UInt8>
    let n: Int
    var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        p = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        var count = bytes.count
        if count > 0 && p[count - 1] == 13 { count -= 1 }
        n = count
    }

    @inline(__always)
    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard n - i >= count else { return false }
        let t = text.utf8Start
        var k = 0
        while k < count {
            if p[i + k] != t[k] { return false }
            k += 1
        }
        i += count
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

    /// A string value with no escapes (the general parser handles escapes).
    @inline(__always)
    private mutating func plainString() -> String? {
        guard i < n, p[i] == 34 else { return nil }
        i += 1
        let start = i
        while i < n {
            let b = p[i]
            if b == 34 {
                let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
                i += 1
                return text
            }
            if b == 92 || b < 32 { return nil }
            i += 1
        }
        return nil
    }

    @inline(__always)
    private mutating func close() -> Bool {
        guard i < n, p[i] == 125 else { return false }
        i += 1
        return i == n
    }

    @inline(__always)
    private func nonZero(_ v: UInt64?) -> UInt64? {
        guard let v, v != 0 else { return nil }
        return v
    }

    mutating func parse() -> TraceEvent? {
        guard literal(#"{"seq":"#), let seq = number(), literal(#","t":"#), let t = number(),
              literal(#","ev":""#) else { return nil }
        // The kind: read up to the closing quote.
        let start = i
        while i < n && p[i] != 34 { i += 1 }
        guard i < n else { return nil }
        let length = i - start
        i += 1
        @inline(__always) func named(_ name: StaticString) -> Bool {
            guard name.utf8CodeUnitCount == length else { return false }
            let t = name.utf8Start
            var k = 0
            while k < length {
                if p[start + k] != t[k] { return false }
                k += 1
            }
            return true
        }
        let kind: TraceEvent.Kind
        if named("attach") || named("detach") {
            let attach = p[start] == 97
            guard literal(#","parent":"#), let parent = nonZero(number()), literal(#","child":"#),
                  let child = nonZero(number()), close() else { return nil }
            kind = attach ? .attach(parent: parent, child: child) : .detach(parent: parent, child: child)
        } else if named("activate") || named("deactivate") || named("load") || named("launch") || named("deinit") {
            let first = p[start], third = p[start + 2]
            guard literal(#","id":"#), let id = nonZero(number()), close() else { return nil }
            switch (length, first, third) {
            case (8, _, _): kind = .activate(interactor: id)
            case (10, _, _): kind = .deactivate(interactor: id)
            case (4, _, _): kind = .load(router: id)
            case (6, 108, _): kind = .launch(router: id)
            default: kind = .deallocated(id: id)
            }
        } else if named("task_start") {
            guard literal(#","task":"#), let task = nonZero(number()), literal(#","owner":"#),
                  let owner = nonZero(number()) else { return nil }
            var label: String?
            if literal(#","label":"#) {
                guard let text = plainString() else { return nil }
                label = text
            }
            guard close() else { return nil }
            kind = .taskStart(task: task, owner: owner, label: label)
        } else if named("task_cancel") {
            guard literal(#","task":"#), let task = nonZero(number()), close() else { return nil }
            kind = .taskCancel(task: task)
        } else if named("task_end") {
            guard literal(#","task":"#), let task = nonZero(number()), literal(#","outcome":""#) else { return nil }
            let outcome: TaskOutcome
            if literal(#"completed""#) { outcome = .completed } else if literal(#"cancelled""#) { outcome = .cancelled } else { return nil }
            guard close() else { return nil }
            kind = .taskEnd(task: task, outcome: outcome)
        } else if named("interactor") {
            guard literal(#","id":"#), let id = nonZero(number()), literal(#","type":"#),
                  let type = plainString(), close() else { return nil }
            kind = .interactorCreated(id: id, type: type)
        } else if named("router") {
            guard literal(#","id":"#), let id = nonZero(number()), literal(#","type":"#), let type = plainString(),
                  literal(#","interactor":"#), let interactor = number(), literal(#","itype":"#),
                  let itype = plainString(), close() else { return nil }
            kind = .routerCreated(id: id, type: type, interactor: interactor, interactorType: itype)
        } else if named("mark") {
            guard literal(#","text":"#), let text = plainString(), close() else { return nil }
            kind = .mark(text: text)
        } else {
            return nil
        }
        return TraceEvent(seq: seq, time: t, kind: kind)
    }
}
