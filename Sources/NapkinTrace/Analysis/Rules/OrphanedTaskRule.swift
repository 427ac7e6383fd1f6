/// `orphaned-task`: when an interactor deactivates (or is deallocated), the
/// framework cancels its bound tasks; a task still running a grace period
/// later ignores cancellation. At the end of the trace, a task still running
/// while its owner is inactive or gone is reported too, unless the trace
/// ended within the grace period of its owner's deactivation (undecided).
///
/// napkin cancels an interactor's bound tasks when its `willResignActive`
/// returns. In a trace that records hook ends, the grace period therefore
/// starts at the `hook_end` of the deactivation (the finding still names the
/// `deactivate`), and tasks of an interactor whose `willResignActive` has
/// not returned were never cancelled: that is `stuck-hook`'s finding, not
/// this one's (neither when a check is decided nor at the end of the trace).
///
/// Main-actor progress decides the checks: a task's last steps often run on
/// the main actor (updating a presenter), so while it is blocked a cancelled
/// task cannot finish, and that is not the task's fault.
///
/// Cost: a deactivation is one check per owner, not one per running task,
/// and an owner has at most one check waiting: deactivations that come while
/// one waits are looked at when it is decided (a check for the last of them
/// follows). A decision looks only at tasks started since the owner's last
/// report, newest first. So an interactor with a thousand tasks deactivated
/// a million times costs about a million steps, not a billion.
struct OrphanedTaskRule: FindingRule {
    static let rule = Finding.Rule("orphaned-task", .error, title: "orphaned task", summary: "a bound task that keeps running after its interactor deactivated or went away", help: help)
    static let watches: Set<TraceEvent.Name> = [.deactivate, .hookEnd, .deallocated, .taskEnd]

    /// `flag` of a task's check: the owner was deallocated (rather than deactivated).
    private static let ownerDeallocated = true

    /// An owner whose deactivation waits for its check.
    private struct Waiting: Sendable {
        /// The deactivation the waiting check is about.
        var since: UInt64
        var sinceTime: UInt64
        /// The last deactivation seen since then (the next check's), if any.
        var latest: (seq: UInt64, time: UInt64)?
    }

    /// Owners with a check waiting, by interactor id (bounded by live interactors).
    private var waiting = NodeTable<Waiting>()
    /// Per owner: every task started before this sequence number that was
    /// still running at a decision has been reported.
    private var reportedThrough = NodeTable<UInt64>()
    /// Owners and tasks whose check the trace ended too early to decide.
    private var tooRecent: Set<NodeID> = []

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .deactivate(let owner):
            // With hook ends, the tasks are cancelled (and checked) once willResignActive returns.
            guard !context.state.recordsHookEnds else { return }
            deactivated(owner, since: event.seq, at: event.time, &context)
        case .hookEnd(let owner):
            guard effect.endedResignation != 0 else { return }
            deactivated(owner, since: effect.endedResignation, at: event.time, &context)
        case .deallocated:
            guard context.state.hasRemovedNode, context.state.lastRemoved.kind == .interactor else { return }
            let owner = context.state.lastRemoved.id
            // (Most interactors end with no entry at all: skip the hashing then.)
            if reportedThrough.count > 0 { reportedThrough.removeValue(forKey: owner) }
            // A deactivation still waiting keeps its moment: its tasks are
            // checked from then, as tasks of an owner that is gone since.
            let earlier = waiting.count == 0 ? nil : waiting.removeValue(forKey: owner)
            guard !context.state.lastRemoved.taskList.isEmpty else { return }
            for task in context.state.lastRemoved.taskList where context.state.isRunning(task: task) {
                if let earlier {
                    context.schedule(GraceCheck(subject: task, since: earlier.since, other: owner), at: earlier.sinceTime)
                } else {
                    context.schedule(GraceCheck(subject: task, since: event.seq, other: owner, flag: Self.ownerDeallocated))
                }
            }
        case .taskEnd:
            // The owner's last task ended: nothing left to wait for (a check
            // still queued finds no entry and is dropped).
            let owner = effect.endedTaskOwner
            guard owner != 0, waiting.count > 0, waiting.contains(owner),
                  context.state.table.with(owner, { $0.pointee.taskList.isEmpty }) != false else { return }
            waiting.removeValue(forKey: owner)
        default:
            break
        }
    }

    /// `owner` deactivated (its `deactivate` is `since`) and napkin cancelled
    /// its tasks at `time`: check them one grace period later.
    private mutating func deactivated(_ owner: NodeID, since: UInt64, at time: UInt64, _ context: inout AnalysisContext) {
        guard context.state.table.with(owner, { !$0.pointee.taskList.isEmpty }) == true else { return }
        if !waiting.update(owner, { $0.latest = (since, time) }) {
            waiting[owner] = Waiting(since: since, sinceTime: time)
            context.schedule(GraceCheck(subject: owner, since: since), at: time)
        }
    }

    mutating func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        if check.other != 0 {
            decideTask(check, &context)
            return
        }
        // An owner's deactivation.
        let owner = check.subject
        guard let entry = waiting[owner], entry.since == check.since else { return }
        guard let node = context.state[owner] else {
            waiting[owner] = nil // gone: its tasks got checks of their own
            return
        }
        if !node.isActive {
            let through = reportedThrough[owner] ?? 0
            node.taskList.forEachNewestFirst { id in
                guard let task = context.state.task(id) else { return true }
                if task.startSeq <= through { return false }
                if task.startSeq < check.since {
                    report(task, since: check.since, deadline: check.deadline, deallocated: false, &context)
                }
                return true
            }
            // Every task older than the deactivation that still ran is reported now.
            reportedThrough[owner] = max(through, check.since)
        }
        if let latest = entry.latest {
            waiting[owner] = Waiting(since: latest.seq, sinceTime: latest.time)
            context.schedule(GraceCheck(subject: owner, since: latest.seq), at: latest.time)
        } else {
            waiting[owner] = nil
        }
    }

    /// A task whose owner was deallocated.
    private func decideTask(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard let task = context.state.task(check.subject) else { return }
        report(task, since: check.since, deadline: check.deadline, deallocated: check.flag == Self.ownerDeallocated, &context)
    }

    private func report(_ task: TraceTask, since: UInt64, deadline: UInt64, deallocated: Bool, _ context: inout AnalysisContext) {
        var seqs = [task.startSeq, since]
        if let cancel = task.cancelRequested, cancel != since { seqs.append(cancel) }
        let how = deallocated ? "was deallocated" : "deactivated and cancelled it"
        let gone = task.ownerGone && !deallocated ? " (the owner is gone since)" : ""
        context.report(Finding(rule: Self.rule, subject: .task, type: task.ownerType, id: task.owner, label: task.label,
                               seqs: seqs.sorted(), time: deadline,
                               message: "task \(task.displayName) (#\(task.id)) still runs \(context.graceText) after its owner \(how)\(gone): it ignores cancellation (check Task.isCancelled in its loop)",
                               locations: Self.started(task, context.state)),
                       key: task.id)
    }

    /// Where `task` was started, as a finding names it.
    private static func started(_ task: TraceTask, _ state: TraceState) -> [Finding.CodeReference] {
        state.codeLocation(of: task).map { [Finding.CodeReference(.started, $0)] } ?? []
    }

    /// Open while the subject is there: the owner (with running tasks), or the task.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        if check.other != 0 { return state.isRunning(task: check.subject) }
        return state[check.subject].map { $0.runningTaskCount > 0 } ?? false
    }

    mutating func undecided(_ check: GraceCheck) {
        tooRecent.insert(check.subject)
    }

    func finish(_ context: inout AnalysisContext) {
        let end = context.state.time
        // Tasks whose owner deactivated (or went away) less than a grace
        // period before the end are undecided (counted already), not orphaned.
        for task in context.state.runningTasks() where !tooRecent.contains(task.id) && !tooRecent.contains(task.owner) {
            let owner = context.state[task.owner]
            // Active, or resigning in a willResignActive that never returned (stuck-hook): not cancelled.
            guard owner?.isActive != true, owner?.runningHook == nil else { continue }
            context.report(Finding(rule: Self.rule, subject: .task, type: task.ownerType, id: task.owner,
                                   label: task.label, seqs: [task.startSeq], time: end,
                                   message: "task \(task.displayName) (#\(task.id)) was still running at the end of the trace while its owner was \(owner == nil ? "deallocated" : "inactive")",
                                   locations: Self.started(task, context.state)),
                           key: task.id)
        }
    }
}

extension Finding.Rule {
    /// A bound task still running a grace period after its owner deactivated
    /// or went away, or at the end of the trace while its owner is inactive
    /// or gone: it ignores cancellation.
    public static let orphanedTask = OrphanedTaskRule.rule
}

// MARK: - Help

extension OrphanedTaskRule {
    /// What `orphaned-task` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A task bound to an interactor's active scope
            (`task(named:)`, `task { }`) is still running:

            - one grace period after its owner interactor *deactivated* (napkin cancels
              bound tasks right after `willResignActive`; in a trace that records hook
              ends, the grace period starts when `willResignActive` returned, and tasks
              whose owner's `willResignActive` never returned were never cancelled: that
              is [`stuck-hook`](#stuck-hook)), and the owner has not become active again
              meanwhile; or
            - one grace period after its owner was *deallocated*; or
            - at the end of the trace, while its owner is inactive or gone, when no
              earlier check covered it (typically a task started while the owner was
              inactive, which is never activated).
            """#,
        cause: #"""
            A loop that never checks for cancellation: `while true`
            around a `Task.sleep` whose error is swallowed by `try?`, a `for await` over
            a sequence that does not end on cancellation, a long synchronous computation,
            or waiting on a continuation nobody resumes. When the task captures `self`,
            it also keeps the interactor alive (that is reported here too, not as
            `not-deallocated`).
            """#,
        fix: #"""
            Check for cancellation in every loop, and let cancellation errors end
            the task:

            ```swift
            func didBecomeActive() async {
                task(named: "pit-poller") { [service] in
                    while !Task.isCancelled {
                        let board = await service.fetchBoard()
                        await self.show(board)
                        do { try await Task.sleep(for: .seconds(2)) } catch { return }   // not: try?
                    }
                }
            }
            ```
            """#)
}
