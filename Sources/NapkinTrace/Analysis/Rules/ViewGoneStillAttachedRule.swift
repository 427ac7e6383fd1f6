/// `view-gone-still-attached`: a router's view was removed from its parent
/// (popped by the Back button or a swipe, dismissed, taken out of its
/// container) while the router was attached in the live tree, and one grace
/// period later the router is still attached there, its interactor active:
/// the back-navigation leak. Nobody told the parent router to `detachChild`.
///
/// Only a view reported `removed` counts: `covered` (a screen pushed or
/// presented over it, another tab selected, hidden) never does. A view shown
/// again within the grace period, or a router detached (or whose parent left
/// the tree) within it, is not reported. The finding is about the router;
/// its seqs are its attach and the view's removal.
struct ViewGoneStillAttachedRule: FindingRule {
    static let rule = Finding.Rule("view-gone-still-attached", .error, title: "view gone, still attached", summary: "a router whose view was removed (popped, dismissed) but that is still attached a grace period later: a back-navigation leak")
    static let watches: Set<TraceEvent.Name> = [.view]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard case .view(let router, .removed) = event.kind,
              let parent = context.state.table.with(router, { $0.isInLiveTree ? $0.parent : nil }) ?? nil else { return }
        context.schedule(GraceCheck(subject: router, since: event.seq, other: parent))
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard isOpen(check, in: context.state), let node = context.state[check.subject], let parent = node.parent else { return }
        // Shown and removed again, or re-attached, since the check was asked for: wait from then.
        let moved = max(node.viewChangedAt?.time ?? 0, node.attachedAt?.time ?? 0)
        if moved > check.scheduledAt {
            var again = check
            again.since = max(node.viewChangedAt?.seq ?? 0, check.since)
            context.schedule(again, at: moved)
            return
        }
        let parentName = context.state[parent]?.name ?? "#\(parent)"
        let attachSeq = node.attachedAt?.seq ?? node.createdSeq
        context.report(Finding(rule: Self.rule, subject: .router, type: node.type, id: node.id,
                               seqs: attachSeq < check.since ? [attachSeq, check.since] : [check.since], time: check.deadline,
                               message: "its view was removed (popped or dismissed), but it is still attached to \(parentName) and active \(context.graceText) later: nobody detached it (back navigation without detachChild?)"),
                       key: node.id)
    }

    /// Open while the router is alive, attached in the live tree, and its view removed.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        state.table.with(check.subject, { $0.isInLiveTree && $0.parent != nil && $0.view == .removed }) == true
    }
}

extension Finding.Rule {
    /// A router whose view was removed (popped, dismissed) and that is still
    /// attached a grace period later: the back-navigation leak.
    public static let viewGoneStillAttached = ViewGoneStillAttachedRule.rule
}
