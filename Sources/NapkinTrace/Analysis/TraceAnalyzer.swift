/// Finds lifecycle bugs in a trace while folding it, event by event.
///
/// The analyzer keeps a ``TraceState`` and, when something leaves the live
/// tree, schedules a check one grace period of trace time later (default 1 s,
/// like RIBs' LeakDetector): is it deallocated? did its tasks stop? Checks run
/// as later events advance trace time (or ``advance(to:)`` does, for a live
/// view), and at ``finish()``. Memory follows the number of live nodes.
///
/// The definitions of the findings are in `docs/findings.md`. To keep one
/// cause from being reported several times, a leaked router is reported, not
/// the interactor and children it holds; an interactor kept alive by its own
/// orphaned task is reported as the task.
public struct TraceAnalyzer: Sendable {
    /// Analysis settings.
    public struct Options: Sendable, Hashable {
        /// How long (trace time, ns) something may take to deallocate or stop
        /// after it should have.
        public var grace: UInt64
        /// Treat anything still alive at the end of the trace as a finding
        /// (for a run that tears everything down).
        public var expectTeardown: Bool

        /// Creates options; the grace period defaults to 1 s.
        public init(grace: UInt64 = 1_000_000_000, expectTeardown: Bool = false) {
            self.grace = grace
            self.expectTeardown = expectTeardown
        }
    }

    private enum Check: Sendable {
        /// A router that was detached: it should be deallocated.
        case routerGone(NodeID, since: UInt64)
        /// An interactor whose router was deallocated: it should follow.
        case interactorGone(NodeID, router: NodeID, since: UInt64)
        /// A router attached to a parent that was deallocated: it should follow.
        case childGone(NodeID, parent: NodeID, parentType: String, since: UInt64)
        /// An interactor whose router left the tree: it should be inactive.
        case inactive(NodeID, since: UInt64)
        /// A task whose owner deactivated (or went away): it should have ended.
        case taskEnded(NodeID, since: UInt64, ownerDeallocated: Bool)
    }

    /// The settings in use.
    public let options: Options
    /// The state of the app at the last event consumed.
    public private(set) var state = TraceState()
    /// Findings so far, in the order they were established.
    public private(set) var findings: [Finding] = []
    /// Checks that could not be decided because the trace ended less than a
    /// grace period after they were scheduled.
    public private(set) var undecided = 0
    /// Sessions seen (a stream may hold several).
    public private(set) var sessionCount = 0

    private var checks: [(deadline: UInt64, check: Check)] = []
    private var checkHead = 0
    private var reported: Set<String> = []
    private var droppedRanges: [(UInt64, UInt64)] = []
    private var droppedTotal: UInt64 = 0
    private var finished = false

    /// Creates an analyzer.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Checks still waiting for their deadline.
    public var pendingChecks: Int { checks.count - checkHead }

    /// Folds `event` into the state and records what it reveals.
    public mutating func consume(_ event: TraceEvent) {
        if case .sessionStart = event.kind {
            if state.session != nil { finishSession() }
            sessionCount += 1
            state = TraceState()
            state.apply(event)
            return
        }
        runChecks(before: event.time)
        switch event.kind {
        case .detach, .deallocated:
            let before = preview(event)
            if let misuse = state.apply(event) { record(misuse: misuse, event: event, before: before) }
            follow(event, before: before)
        default:
            // Only detach and deinit need the state as it was before the event.
            if let misuse = state.apply(event) { record(misuse: misuse, event: event, before: Self.nothingBefore) }
            follow(event, before: Self.nothingBefore)
        }
    }

    /// Lets trace time pass without an event (a live view calls this as the
    /// wall clock advances), running the checks that fall due.
    public mutating func advance(to time: UInt64) {
        runChecks(before: time &+ 1)
        state.advanceTime(to: time)
    }

    /// Ends the analysis: runs the remaining due checks, reports tasks still
    /// running while their owner is inactive or gone, dropped events and
    /// (with `expectTeardown`) everything still alive. Returns all findings.
    @discardableResult
    public mutating func finish() -> [Finding] {
        guard !finished else { return findings }
        finished = true
        finishSession()
        return findings
    }

    // MARK: - Following events

    /// What the analyzer needs to know about the state before an event.
    private struct Before {
        var wasInLiveTree = false
        /// For a detach: the child really was attached to that parent.
        var wasChild = false
        var children: [NodeID] = []
        var type = ""
        var interactor: NodeID?
        var runningTasks: [NodeID] = []
    }

    private static let nothingBefore = Before()

    private func preview(_ event: TraceEvent) -> Before {
        var before = Before()
        switch event.kind {
        case .detach(let parent, let child):
            before.wasInLiveTree = state.table.with(child, { $0.isInLiveTree }) ?? false
            before.wasChild = state.table.with(child, { $0.parent == parent }) ?? false
        case .deallocated(let id):
            state.table.with(id) { node in
                before.wasInLiveTree = node.isInLiveTree
                before.children = node.children
                before.type = node.type
                before.interactor = node.interactor
                before.runningTasks = node.runningTasks
            }
        default:
            break
        }
        return before
    }

    private mutating func follow(_ event: TraceEvent, before: Before) {
        let due = event.time &+ options.grace
        switch event.kind {
        case .attach(let parent, let child):
            checkDuplicate(parent: parent, child: child, seq: event.seq)
        case .detach(_, let child):
            // A router detached from a parent that had already left the tree is on its
            // own from now on (its parent's check no longer covers it): check it too.
            guard before.wasInLiveTree || before.wasChild, state.table.contains(child) else { return }
            schedule(due, .routerGone(child, since: event.seq))
            guard before.wasInLiveTree else { return }
            for interactor in state.subtreeInteractors(child) {
                schedule(due, .inactive(interactor, since: event.seq))
            }
        case .deallocated(let id):
            // A router: its interactor and the children it still held should follow it.
            if let interactor = before.interactor, state.table.contains(interactor) {
                schedule(due, .interactorGone(interactor, router: id, since: event.seq))
                if before.wasInLiveTree { schedule(due, .inactive(interactor, since: event.seq)) }
            }
            for child in before.children where state.table.contains(child) {
                schedule(due, .childGone(child, parent: id, parentType: before.type, since: event.seq))
                if before.wasInLiveTree {
                    for interactor in state.subtreeInteractors(child) {
                        schedule(due, .inactive(interactor, since: event.seq))
                    }
                }
            }
            // An interactor: its running tasks have been cancelled.
            for task in before.runningTasks where state.taskTable.contains(task) {
                schedule(due, .taskEnded(task, since: event.seq, ownerDeallocated: true))
            }
        case .deactivate(let id):
            for task in state.table.with(id, { $0.runningTasks }) ?? [] {
                schedule(due, .taskEnded(task, since: event.seq, ownerDeallocated: false))
            }
        case .taskStart(let task, let owner, let label):
            guard state.taskTable.with(task, { $0.startedWhileInactive }) == true, let started = state.taskTable[task], let node = state.table[owner] else { return }
            report(Finding(rule: .taskStartedInactive, subject: .task, type: node.type, id: owner, label: label,
                           seqs: [event.seq], time: event.time,
                           message: "task \(started.displayName) started while \(node.name) was inactive; it runs until the next deactivation (start it in didBecomeActive)"),
                   key: "\(task)")
        case .dropped(let count, let first, let last):
            droppedTotal &+= count
            droppedRanges.append((first, last))
        default:
            break
        }
    }

    private mutating func checkDuplicate(parent: NodeID, child: NodeID, seq: UInt64) {
        guard state.table.with(parent, { $0.children.count > 1 }) == true, let parentNode = state.table[parent], let childNode = state.table[child] else { return }
        for sibling in parentNode.children where sibling != child {
            guard let older = state.table[sibling], older.type == childNode.type else { continue }
            report(Finding(rule: .duplicateChild, subject: .router, type: older.type, id: older.id,
                           seqs: [older.attachedAt?.seq ?? older.createdSeq, seq], time: state.time,
                           message: "\(parentNode.name) attached a second \(older.type) (#\(child)) while this one is still attached; it was probably never detached (a forgotten detachChild on back navigation?)"),
                   key: "\(older.id)")
        }
    }

    private mutating func record(misuse: TraceState.Misuse, event: TraceEvent, before: Before) {
        let node = state[misuse.node]
        let name = node?.name ?? "#\(misuse.node)"
        let other = misuse.other.flatMap { state[$0]?.name }
        let rule: Finding.Rule
        let message: String
        switch misuse.kind {
        case .doubleAttach:
            rule = .doubleAttach
            message = "\(name) was attached while already attached to \(other ?? "its parent")"
        case .attachUnderDescendant:
            rule = .doubleAttach
            message = "\(name) was attached under \(other ?? "its descendant"), which is itself or one of its descendants (a cycle); the link is ignored"
        case .detachNonChild:
            rule = .detachNonChild
            message = "\(other ?? "that parent") detached \(name), which is not its child"
        case .eventAfterDeinit:
            report(Finding(rule: .eventAfterDeinit, subject: .trace, type: "#\(misuse.node)", id: misuse.node,
                           seqs: [event.seq], time: event.time,
                           message: "\(event.kind.wireName) refers to #\(misuse.node), which was already deallocated"),
                   key: "\(event.seq)")
            return
        case .unknownNode:
            return // a partial trace; the reader's diagnostics cover it
        }
        report(Finding(rule: rule, subject: .router, type: node?.type ?? "?", id: misuse.node,
                       seqs: [event.seq], time: event.time, message: message),
               key: "\(event.seq)")
    }

    // MARK: - Checks

    private mutating func schedule(_ deadline: UInt64, _ check: Check) {
        checks.append((deadline, check))
    }

    private mutating func runChecks(before time: UInt64) {
        while checkHead < checks.count, checks[checkHead].deadline < time {
            let (deadline, check) = checks[checkHead]
            checkHead += 1
            evaluate(check, at: deadline)
        }
        if checkHead > 1024 && checkHead * 2 > checks.count {
            checks.removeFirst(checkHead)
            checkHead = 0
        }
    }

    private mutating func evaluate(_ check: Check, at time: UInt64) {
        let grace = Self.seconds(options.grace)
        switch check {
        case .routerGone(let id, let since):
            guard let node = state[id], !node.isInLiveTree else { return }
            report(Finding(rule: .notDeallocated, subject: .router, type: node.type, id: id, seqs: [since], time: time,
                           message: "detached, but still alive \(grace) later: something retains it (a strong reference in an interactor, listener or service: a retain cycle?)"),
                   key: "\(id)")
        case .interactorGone(let id, let router, let since):
            guard let node = state[id] else { return }
            // A running task holds it; that task is reported as orphaned instead.
            if !node.runningTasks.isEmpty { return }
            // A deactivation that never finished holds it; reported as active-after-detach.
            if reported.contains("\(Finding.Rule.activeAfterDetach.rawValue):\(id)") { return }
            if node.router != nil { return } // re-owned by a new router
            report(Finding(rule: .notDeallocated, subject: .interactor, type: node.type, id: id, seqs: [since], time: time,
                           message: "its router #\(router) was deallocated, but the interactor is still alive \(grace) later: something retains it"),
                   key: "\(id)")
        case .childGone(let id, let parent, let parentType, let since):
            guard let node = state[id], node.parent == nil, !node.isInLiveTree else { return }
            report(Finding(rule: .undetachedChild, subject: .router, type: node.type, id: id, seqs: [since], time: time,
                           message: "still attached to \(parentType)#\(parent), which was deallocated without detaching it, and still alive \(grace) later: something outside the tree retains it"),
                   key: "\(id)")
        case .inactive(let id, let since):
            guard let node = state[id], node.isActive else { return }
            if let router = node.router, state[router]?.isInLiveTree == true { return }
            report(Finding(rule: .activeAfterDetach, subject: .interactor, type: node.type, id: id, seqs: [since], time: time,
                           message: "its router left the tree, but the interactor is still active \(grace) later (deactivation never finished?)"),
                   key: "\(id)")
        case .taskEnded(let id, let since, let ownerDeallocated):
            guard let task = state.taskTable[id] else { return }
            if let owner = state[task.owner], owner.isActive { return } // re-activated meanwhile
            let ownerType = task.ownerType
            var seqs = [task.startSeq, since]
            if let cancel = task.cancelRequested, cancel != since { seqs.append(cancel) }
            report(Finding(rule: .orphanedTask, subject: .task, type: ownerType, id: task.owner, label: task.label,
                           seqs: seqs.sorted(), time: time,
                           message: "task \(task.displayName) (#\(id)) still runs \(grace) after its owner \(ownerDeallocated ? "was deallocated" : "deactivated and cancelled it")\(task.ownerGone && !ownerDeallocated ? " (the owner is gone since)" : ""): it ignores cancellation (check Task.isCancelled in its loop)"),
                   key: "\(id)")
        }
    }

    private mutating func finishSession() {
        let end = state.time
        var tooRecent: Set<NodeID> = []
        while checkHead < checks.count {
            let (deadline, check) = checks[checkHead]
            checkHead += 1
            if deadline <= end {
                evaluate(check, at: deadline)
            } else if isOpen(check) {
                undecided += 1
                if case .taskEnded(let id, _, _) = check { tooRecent.insert(id) }
            }
        }
        checks.removeAll()
        checkHead = 0
        // Tasks whose owner deactivated less than a grace period before the
        // end are undecided (counted above), not orphaned.
        for (id, task) in state.taskTable.entries.sorted(by: { $0.key < $1.key }) where !tooRecent.contains(id) {
            let owner = state[task.owner]
            guard owner?.isActive != true else { continue }
            report(Finding(rule: .orphanedTask, subject: .task, type: task.ownerType, id: task.owner,
                           label: task.label, seqs: [task.startSeq], time: end,
                           message: "task \(task.displayName) (#\(id)) was still running at the end of the trace while its owner was \(owner == nil ? "deallocated" : "inactive")"),
                   key: "\(id)")
        }
        if droppedTotal > 0 {
            let ranges = droppedRanges.prefix(3).map { "\($0.0)-\($0.1)" }.joined(separator: ", ")
            report(Finding(rule: .eventsDropped, subject: .trace, type: "trace", id: 0, seqs: [], time: end,
                           message: "the app dropped \(droppedTotal) events (seq \(ranges)\(droppedRanges.count > 3 ? ", ..." : "")) because the trace could not be written fast enough; findings may be missing"),
                   key: "dropped\(sessionCount)")
        }
        if options.expectTeardown { reportAlive(at: end) }
        droppedTotal = 0
        droppedRanges = []
    }

    private func isOpen(_ check: Check) -> Bool {
        switch check {
        case .routerGone(let id, _), .interactorGone(let id, _, _), .childGone(let id, _, _, _): return state[id] != nil
        case .inactive(let id, _): return state[id]?.isActive == true
        case .taskEnded(let id, _, _): return state.taskTable[id] != nil
        }
    }

    private mutating func reportAlive(at end: UInt64) {
        let alive = state.table.entries.map(\.value).sorted { $0.id < $1.id }
        for node in alive {
            switch node.kind {
            case .router:
                // Report the top of each alive subtree, with its size.
                if let parent = node.parent, state[parent] != nil { continue }
                let size = state.subtree(node.id).count - 1
                let extra = size > 0 ? " with \(size) attached descendant\(size == 1 ? "" : "s")" : ""
                report(Finding(rule: .aliveAtEnd, subject: .router, type: node.type, id: node.id, seqs: [node.createdSeq], time: end,
                               message: "still alive\(extra) at the end of a run expected to tear everything down"),
                       key: "\(node.id)")
            case .interactor:
                if let router = node.router, state[router] != nil { continue }
                report(Finding(rule: .aliveAtEnd, subject: .interactor, type: node.type, id: node.id, seqs: [node.createdSeq], time: end,
                               message: "still alive at the end of a run expected to tear everything down"),
                       key: "\(node.id)")
            }
        }
    }

    private mutating func report(_ finding: Finding, key: String) {
        let fullKey = "\(finding.rule.rawValue):\(key)"
        guard reported.insert(fullKey).inserted else { return }
        findings.append(finding)
    }

    /// `1s`, `1.5s`, `250ms`: a grace period for messages.
    static func seconds(_ ns: UInt64) -> String {
        if ns < 1_000_000_000 {
            return ns % 1_000_000 == 0 ? "\(ns / 1_000_000)ms" : "\(Double(ns) / 1e6)ms"
        }
        if ns % 1_000_000_000 == 0 { return "\(ns / 1_000_000_000)s" }
        // Up to millisecond precision, without trailing zeros: 1.5s, 2.25s.
        var text = "\(ns / 1_000_000_000)."
        var fraction = (ns % 1_000_000_000) / 1_000_000
        var digits = 3
        while fraction % 10 == 0 && digits > 1 { fraction /= 10; digits -= 1 }
        let padded = String(fraction)
        text += String(repeating: "0", count: max(0, digits - padded.count)) + padded
        return text + "s"
    }
}
