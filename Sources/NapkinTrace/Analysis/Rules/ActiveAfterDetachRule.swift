/// `active-after-detach`: when a router leaves the live tree (detached, or
/// deallocated while in it), its interactor and those of its subtree
/// deactivate; one still active a grace period later never finished
/// resigning (a `didBecomeActive` that never returns, say).
///
/// Deactivation is driven from the main actor (`detachChild` steps through
/// the subtree from there; after a deinit, a main-actor task does) and
/// `willResignActive` often updates a presenter on it, so main-actor
/// progress decides the checks: a blocked main actor delays them without
/// making them findings.
struct ActiveAfterDetachRule: FindingRule {
    static let rule = Finding.Rule("active-after-detach", .error, title: "active after detach", summary: "an interactor still active after its router left the tree")
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

    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        state.table.with(check.subject, { $0.pointee.isActive }) == true
    }
}

extension Finding.Rule {
    /// An interactor still active a grace period after its router left the tree.
    public static let activeAfterDetach = ActiveAfterDetachRule.rule
}
