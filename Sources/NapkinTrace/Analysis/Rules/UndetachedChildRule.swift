/// `undetached-child`: when a router is deallocated while children are still
/// attached to it, each child should go with it; one that is still alive
/// (and not attached anywhere else) a grace period later is held by
/// something outside the tree. The finding's seq is the parent's `deinit`.
struct UndetachedChildRule: FindingRule {
    static let rule = Finding.Rule("undetached-child", .error, title: "un-detached child", summary: "a router still attached to a parent that was deallocated, and still alive")
    static let watches: Set<TraceEvent.Name> = [.deallocated]
    /// The attach that was never undone (then its creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.attached, .created]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        // The removed node's fields are read in place (see TraceState.lastRemoved).
        guard context.state.hasRemovedNode, context.state.lastRemoved.kind == .router,
              !context.state.lastRemoved.childList.isEmpty else { return }
        let parent = context.state.lastRemoved.id, children = context.state.lastRemoved.childList
        for child in children where context.state.contains(child) {
            context.schedule(GraceCheck(subject: child, since: event.seq, other: parent))
        }
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard context.state.contains(check.subject), let node = context.state[check.subject], node.parent == nil, !node.isInLiveTree,
              let orphaning = node.orphanedFrom, orphaning.parent == check.other else { return }
        context.report(node, as: .router, after: check,
                       "still attached to \(orphaning.parentType)#\(orphaning.parent), which was deallocated without detaching it, and still alive \(context.graceText) later: something outside the tree retains it")
    }
}

extension Finding.Rule {
    /// A router still attached to a parent that left the tree and was
    /// deallocated, and that did not deallocate with it.
    public static let undetachedChild = UndetachedChildRule.rule
}
