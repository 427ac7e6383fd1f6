/// The grace-period checks waiting for their deadline: a min-heap by deadline (ties in scheduling order), with at most one check
/// per rule and subject.
///
/// Asking again for a check that is already waiting does not add an entry:
/// the request is dropped (``GraceRequest/keepWaiting``) or recorded, and
/// when the older deadline comes the check is put back with the newer one
/// (``GraceRequest/replaceWaiting``). So the queue holds at most one entry
/// per rule and live subject, however often a subject is re-checked (a task
/// running across a thousand deactivations).
struct GraceQueue: Sendable {
    private struct Entry: Sendable {
        var deadline: UInt64
        var order: UInt64
        var rule: Int
        var subject: NodeID

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    private var heap: [Entry] = []
    /// The latest request per rule, by subject.
    private var latest: [NodeTable<GraceCheck>] = []
    private var order: UInt64 = 0

    /// How many checks wait.
    var count: Int { heap.count }

    mutating func schedule(_ check: GraceCheck, _ request: GraceRequest) {
        while latest.count <= check.rule { latest.append(NodeTable()) }
        let waiting = latest[check.rule].contains(check.subject)
        if waiting && request == .keepWaiting { return }
        latest[check.rule][check.subject] = check
        if !waiting { push(Entry(deadline: check.deadline, order: next(), rule: check.rule, subject: check.subject)) }
    }

    /// The check with the earliest deadline, if that deadline is before `time`
    /// (`.max` takes any).
    mutating func popFirst(dueBefore time: UInt64) -> GraceCheck? {
        while let head = heap.first, head.deadline < time || time == .max {
            pop()
            guard let check = latest[head.rule][head.subject] else { continue }
            if check.deadline > head.deadline {
                // Asked again since: wait for the newer deadline.
                push(Entry(deadline: check.deadline, order: next(), rule: head.rule, subject: head.subject))
                continue
            }
            latest[head.rule][head.subject] = nil
            return check
        }
        return nil
    }

    private mutating func next() -> UInt64 {
        order &+= 1
        return order
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count && heap[left].precedes(heap[first]) { first = left }
            if right < heap.count && heap[right].precedes(heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
