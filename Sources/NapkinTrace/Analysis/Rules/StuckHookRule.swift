/// `stuck-hook`: an interactor's `didBecomeActive` or `willResignActive`
/// started (its `activate` or `deactivate` record) and had not returned (no
/// `hook_end` after it) one grace period later. Until a hook returns the
/// interactor is in transition: a `didBecomeActive` that never returns (a
/// `for await` loop written in the hook itself) keeps its router's detach
/// from deactivating it, so `willResignActive` never runs and its bound tasks
/// are never cancelled; a `willResignActive` that never returns keeps its
/// bound tasks from being cancelled. Either way the interactor stays alive
/// for as long as the hook runs, and the `attachChild` (or `detachChild`)
/// that awaits the hook does not return.
///
/// A hook still running at the end of the trace is reported if it started
/// at least a grace period before the end; one that started later is
/// undecided. Only sessions that record hook ends are checked
/// (``SessionInfo/recordsHookEnds``). Which other rules leave its cause
/// alone, and why main-actor progress decides it: docs/internals.md, "One
/// cause, one finding"; the finding itself: docs/findings.md.
struct StuckHookRule: FindingRule {
    static let rule = Finding.Rule("stuck-hook", .error, title: "stuck hook", summary: "an interactor whose didBecomeActive or willResignActive has not returned a grace period after it started", help: help)
    static let watches: Set<TraceEvent.Name> = [.activate, .deactivate]
    /// The attach that activated it (then the detach, and its creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.attached, .detached, .created]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard context.state.recordsHookEnds, effect.misuse == nil else { return }
        switch event.kind {
        case .activate(let id), .deactivate(let id):
            context.schedule(GraceCheck(subject: id, since: event.seq))
        default:
            break
        }
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard isOpen(check, in: context.state), let node = context.state[check.subject],
              let running = node.runningHook else { return }
        let router = node.router.flatMap { context.state[$0] }
        var seqs = [running.since.seq]
        var locations: [Finding.CodeReference] = []
        let tasks = node.runningTaskCount
        let taskText = tasks == 1 ? "its bound task was" : "its \(tasks) bound tasks were"
        let message: String
        switch running.hook {
        case .didBecomeActive:
            if let router, !router.isInLiveTree, let left = router.leftTreeAt, left.seq > running.since.seq {
                seqs.append(left.seq)
                message = "didBecomeActive has not returned \(context.graceText) after it started, so its router's detach "
                    + "(seq \(left.seq)) could not deactivate it: willResignActive never ran"
                    + (tasks > 0 ? " and \(taskText) not cancelled" : "")
                    + "; start long work with task {} so that the hook returns"
            } else {
                let loading = router.map { $0.isLoaded ? "" : ", and \($0.name) has not loaded (its attach waits for the hook)" } ?? ""
                message = "didBecomeActive has not returned \(context.graceText) after it started: until it does, "
                    + "a detach cannot deactivate the interactor (willResignActive would not run, its bound tasks would not be cancelled)"
                    + loading + "; start long work with task {} so that the hook returns"
            }
        case .willResignActive:
            if let router, !router.isInLiveTree, let left = router.leftTreeAt, left.seq < running.since.seq {
                seqs.insert(left.seq, at: 0)
            }
            if let router { locations = context.codeReferences(of: router, [.detached, .attached, .created]) }
            message = "willResignActive has not returned \(context.graceText) after it started: "
                + (tasks > 0 ? "\(taskText) not cancelled, and " : "")
                + "the detach that deactivates it waits for it; do not await long work there (hand it to a service) so that the hook returns"
        }
        context.report(Finding(rule: Self.rule, subject: .interactor, type: node.type, id: node.id,
                               seqs: seqs, time: check.deadline, message: message, locations: locations),
                       key: node.id)
    }

    /// Open while the hook the check is about still runs.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        state.table.with(check.subject, { $0.pointee.runningHook?.since.seq == check.since }) == true
    }
}

extension Finding.Rule {
    /// An interactor whose `didBecomeActive` or `willResignActive` had not
    /// returned a grace period after it started (traces that record hook ends).
    public static let stuckHook = StuckHookRule.rule
}

// MARK: - Help

extension StuckHookRule {
    /// What `stuck-hook` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            An interactor's `didBecomeActive` or `willResignActive`
            started (its `activate` or `deactivate` record) and had not returned (no
            `hook_end` record after it) one grace period later, or was still running at
            the end of the trace after running at least that long (a hook that started
            less than a grace period before the end is undecided). While a hook runs,
            napkin's lifecycle waits for it. After a `didBecomeActive` that does not
            return, a detach of its router cannot deactivate the interactor
            (`willResignActive` never runs, its bound tasks are never cancelled), and the
            `attachChild` (or `launch`) that activated it never returns, so its router
            never loads. After a `willResignActive` that does not return, its bound
            tasks are never cancelled and the `detachChild` that deactivates it waits,
            so the interactors below it stay active. Either way the interactor, and its
            router held by the waiting call, stay alive. The seqs are the hook's start
            and the detach that could not deactivate it (for `willResignActive`: the
            detach that started it), when there is one. Only traces that record hook
            ends are checked: napkin writes them from format revision 1 (`"rev":1` in
            the session record; `docs/trace-format.md` describes both). An older trace
            never gets this finding; there the same bug shows as
            [`active-after-detach`](#active-after-detach) (and a `not-deallocated` router).
            """#,
        cause: #"""
            Long work awaited in the hook itself: a `for await` loop
            over a stream of updates written right in `didBecomeActive` (it returns only
            when the stream ends, usually never), an `await` on a slow network call or on
            something that waits for the tree, or in `willResignActive` an `await` on a
            save or an acknowledgement that never comes.
            """#,
        fix: #"""
            Start long work with `task {}` (or `task(named:)`, which names it in
            the trace) so that the hook returns at once; napkin cancels the task when the
            interactor resigns. In `willResignActive`, hand long work to a service that
            outlives the napkin instead of awaiting it:

            ```swift
            func didBecomeActive() async {
                let updates = scores.updates()
                task(named: "scores") { [presenter] in      // not: for await score in updates { ... } in the hook
                    for await score in updates { await presenter.show(score) }
                }
            }
            ```
            """#)
}
