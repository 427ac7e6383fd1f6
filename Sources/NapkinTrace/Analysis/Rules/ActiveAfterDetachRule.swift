/// `active-after-detach`: when a router leaves the live tree (detached, or
/// deallocated while in it), its interactor and those of its subtree
/// deactivate; one still active a grace period later never finished
/// resigning (a `didBecomeActive` that never returns, say).
///
/// In a trace that records hook ends, a hook that has not returned is
/// reported as `stuck-hook` instead: an interactor whose `didBecomeActive`
/// still runs (its deactivation waits for it), and the interactors below a
/// detached router whose interactor's `willResignActive` still runs (the
/// detach deactivates the subtree root first and waits for it).
///
/// Deactivation is driven from the main actor (`detachChild` steps through
/// the subtree from there; after a deinit, a main-actor task does) and
/// `willResignActive` often updates a presenter on it, so main-actor
/// progress decides the checks: a blocked main actor delays them without
/// making them findings.
struct ActiveAfterDetachRule: FindingRule {
    static let rule = Finding.Rule("active-after-detach", .error, title: "active after detach", summary: "an interactor still active after its router left the tree", help: help)
    static let watches: Set<TraceEvent.Name> = [.detach, .deallocated]
    /// The detach that let it go (then its attach and creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.detached, .attached, .created]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .detach(_, let child):
            guard effect.childWasInLiveTree, context.state.contains(child) else { return }
            for interactor in context.state.subtreeInteractors(child) {
                context.schedule(GraceCheck(subject: interactor, since: event.seq))
            }
        case .deallocated:
            guard context.state.hasRemovedNode, context.state.lastRemoved.kind == .router,
                  context.state.lastRemoved.isInLiveTree else { return }
            let router = context.state.lastRemoved
            if let interactor = router.interactor, context.state.contains(interactor) {
                context.schedule(GraceCheck(subject: interactor, since: event.seq))
            }
            for child in router.childList where context.state.contains(child) {
                for interactor in context.state.subtreeInteractors(child) {
                    context.schedule(GraceCheck(subject: interactor, since: event.seq))
                }
            }
        default:
            break
        }
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard context.state.table.with(check.subject, { $0.pointee.isActive }) == true, let node = context.state[check.subject] else { return }
        // A hook that never returned holds the deactivation: `stuck-hook` reports it.
        if node.runningHook != nil || Self.resignationWaits(above: node, context.state) { return }
        if let router = node.router, let (live, left) = context.state.table.with(router, { ($0.pointee.isInLiveTree, $0.pointee.leftTreeAt) }) {
            if live { return }
            // Its router came back and left again since the check was asked for: wait from then.
            if let left, left.time > check.scheduledAt {
                var again = check
                again.since = max(left.seq, check.since)
                context.schedule(again, at: left.time)
                return
            }
        }
        context.report(node, as: .interactor, after: check, "its router left the tree, but the interactor is still active \(context.graceText) later (deactivation never finished?)")
    }

    /// Whether the interactor of a router above `node`'s, in the subtree that
    /// left the tree with it, is still running `willResignActive`: the detach
    /// deactivates the subtree root first and waits for it (only traces that
    /// record hook ends follow running hooks). Walks up at most the depth of
    /// the detached subtree, only when a finding is about to be reported.
    private static func resignationWaits(above node: TraceNode, _ state: TraceState) -> Bool {
        guard state.recordsHookEnds, let router = node.router else { return false }
        var cursor = state.table.with(router, { $0.pointee.parent }) ?? nil
        var steps = 0
        while let id = cursor, steps <= state.nodeCount,
              let (interactor, parent, live) = state.table.with(id, { ($0.pointee.interactor, $0.pointee.parent, $0.pointee.isInLiveTree) }) {
            if live { return false }
            if let interactor, state.table.with(interactor, { $0.pointee.runningHook?.hook == .willResignActive }) == true { return true }
            cursor = parent
            steps += 1
        }
        return false
    }

    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        state.table.with(check.subject, { $0.pointee.isActive }) == true
    }
}

extension Finding.Rule {
    /// An interactor still active a grace period after its router left the tree.
    public static let activeAfterDetach = ActiveAfterDetachRule.rule
}

// MARK: - Help

extension ActiveAfterDetachRule {
    /// What `active-after-detach` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            An interactor that is still active one grace period after
            its router left the live tree (the router or an ancestor was detached from
            the live tree, or the router or an ancestor was deallocated while in it),
            unless the router is back in the live tree by then. Its seqs are the event
            that took the router out of the tree. In napkin the `deactivate` record is written when deactivation *starts*,
            so this means deactivation did not even begin.
            """#,
        cause: #"""
            The interactor's actor is busy: `didBecomeActive` is still
            running (it awaits a slow network call, or never returns), so the
            deactivation napkin requested waits behind it. In a trace that records hook
            ends (napkin's own, from format revision 1) that case is reported as
            [`stuck-hook`](#stuck-hook) instead, and so is an interactor below a detached
            router whose `willResignActive` never returned; this rule then finds the
            rest. Less often, a custom `Routing` implementation (a mock, a hand-written
            router) that removes children without deactivating them.
            """#,
        fix: #"""
            Keep `didBecomeActive` short: start long work in a bound task
            instead of awaiting it in the hook.
            """#)
}
