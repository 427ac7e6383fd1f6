/// `orphaned-task`: when an interactor deactivates (or is deallocated), the
/// framework cancels its bound tasks; a task still running a grace period
/// later ignores cancellation. At the end of the trace, a task still running
/// while its owner is inactive or gone is reported too, unless the trace
/// ended within the grace period of its cancellation (undecided).
///
/// Main-actor progress decides the checks: a task's last steps often run on
/// the main actor (updating a presenter), so while it is blocked a cancelled
/// task cannot finish, and that is not the task's fault.
struct OrphanedTaskRule: FindingRule {
    static let rule = Finding.Rule("orphaned-task", .error, title: "orphaned task", summary: "a bound task that keeps running after its interactor deactivated or went away")
    static let watches: Set<TraceEvent.Name> = [.deactivate, .deallocated]

    /// `flag` of a check: the owner was deallocated (rather than deactivated).
    private static let ownerDeallocated = true
    /// Tasks whose check the trace ended too early to decide.
    private var tooRecent: Set<NodeID> = []

    init() {}

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .deactivate(let id):
            for task in context.state.table.with(id, { Array($0.taskList) }) ?? [] {
                context.schedule(GraceCheck(subject: task, since: event.seq))
            }
        case .deallocated:
            guard let owner = context.state.removedNode, owner.kind == .interactor else { return }
            for task in owner.taskList where context.state.isRunning(task: task) {
                context.schedule(GraceCheck(subject: task, since: event.seq, flag: Self.ownerDeallocated))
            }
        default:
            break
        }
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard let task = context.state.task(check.subject) else { return }
        if context.state.table.with(task.owner, { $0.isActive }) == true { return } // re-activated meanwhile
        var seqs = [task.startSeq, check.since]
        if let cancel = task.cancelRequested, cancel != check.since { seqs.append(cancel) }
        let deallocated = check.flag == Self.ownerDeallocated
        let how = deallocated ? "was deallocated" : "deactivated and cancelled it"
        let since = task.ownerGone && !deallocated ? " (the owner is gone since)" : ""
        context.report(Finding(rule: Self.rule, subject: .task, type: task.ownerType, id: task.owner, label: task.label,
                               seqs: seqs.sorted(), time: check.deadline,
                               message: "task \(task.displayName) (#\(task.id)) still runs \(context.graceText) after its owner \(how)\(since): it ignores cancellation (check Task.isCancelled in its loop)"),
                       key: task.id)
    }

    mutating func undecided(_ check: GraceCheck) {
        tooRecent.insert(check.subject)
    }

    func finish(_ context: inout AnalysisContext) {
        let end = context.state.time
        // Tasks whose owner deactivated less than a grace period before the
        // end are undecided (counted already), not orphaned.
        for task in context.state.runningTasks() where !tooRecent.contains(task.id) {
            let owner = context.state[task.owner]
            guard owner?.isActive != true else { continue }
            context.report(Finding(rule: Self.rule, subject: .task, type: task.ownerType, id: task.owner,
                                   label: task.label, seqs: [task.startSeq], time: end,
                                   message: "task \(task.displayName) (#\(task.id)) was still running at the end of the trace while its owner was \(owner == nil ? "deallocated" : "inactive")"),
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
