/// `view-gone-still-attached`: a router's view was removed from its parent
/// (popped by the Back button or a swipe, dismissed, taken out of its
/// container) while the router was attached in the live tree, and one grace
/// period later the router is still attached there with its view still
/// removed: the back-navigation leak. Nobody told the parent router to
/// `detachChild`.
///
/// Only a view reported `removed` counts: `covered` (a screen pushed or
/// presented over it, another tab selected, hidden) never does. A view shown
/// again within the grace period, or a router detached (or whose parent left
/// the tree) within it, is not reported. A router whose view changed again,
/// that was attached elsewhere, or that left the tree and came back since the
/// removal is given a grace period from that moment.
///
/// One cause, one finding: when an ancestor that is attached to a parent
/// has its view removed too (a dismissed flow whose screens went with it),
/// only that ancestor is reported (its own check decides it); detaching it
/// takes the whole subtree away. The finding is about the router; its seqs
/// are its attach and the view's removal.
struct ViewGoneStillAttachedRule: FindingRule {
    static let rule = Finding.Rule("view-gone-still-attached", .error, title: "view gone, still attached", summary: "a router whose view was removed (popped, dismissed) but that is still attached a grace period later: a back-navigation leak", help: help)
    static let watches: Set<TraceEvent.Name> = [.view]
    /// The attach that was never undone (then its creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.attached, .created]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard case .view(let router, .removed) = event.kind,
              context.state.table.with(router, { $0.pointee.isInLiveTree && $0.pointee.parent != nil }) == true else { return }
        context.schedule(GraceCheck(subject: router, since: event.seq))
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard isOpen(check, in: context.state), let node = context.state[check.subject], let parent = node.parent else { return }
        // Shown and removed again, attached elsewhere, or out of the tree and
        // back since the check was asked for: wait a grace period from then.
        let moved = max(node.viewChangedAt?.time ?? 0, node.attachedAt?.time ?? 0, node.leftTreeAt?.time ?? 0)
        if moved > check.scheduledAt {
            var again = check
            // The view is removed (the check is open): its last report is that removal.
            again.since = max(node.viewChangedAt?.seq ?? 0, check.since)
            context.schedule(again, at: moved)
            return
        }
        if Self.hasAncestorWithViewRemoved(node, in: &context.state) { return }
        let parentName = context.state[parent]?.name ?? "#\(parent)"
        let active = context.state.isActive(router: node.id) ? " and active" : ""
        let attachSeq = node.attachedAt?.seq ?? node.createdSeq
        let seqs = attachSeq == check.since ? [check.since] : [min(attachSeq, check.since), max(attachSeq, check.since)]
        context.report(Finding(rule: Self.rule, subject: .router, type: node.type, id: node.id,
                               seqs: seqs, time: check.deadline,
                               message: "its view was removed (popped or dismissed), but it is still attached to \(parentName)\(active) \(context.graceText) later: nobody detached it (back navigation without detachChild?)"),
                       key: node.id)
    }

    /// Open while the router is alive, attached in the live tree, and its view removed.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        state.table.with(check.subject, { $0.pointee.isInLiveTree && $0.pointee.parent != nil && $0.pointee.view == .removed }) == true
    }

    /// Whether an ancestor of `node` that is attached to a parent has its
    /// view removed too: that ancestor is the one to report (its removal
    /// scheduled a check of its own). The walk up is counted as the state's work.
    private static func hasAncestorWithViewRemoved(_ node: TraceNode, in state: inout TraceState) -> Bool {
        var cursor = node.parent
        var steps: UInt64 = 0
        defer { state.workDone &+= steps }
        while let id = cursor, steps <= UInt64(state.nodeCount) {
            steps += 1
            guard let (removed, parent) = state.table.with(id, { ($0.pointee.view == .removed, $0.pointee.parent) }) else { return false }
            if removed && parent != nil { return true }
            cursor = parent
        }
        return false
    }
}

extension Finding.Rule {
    /// A router whose view was removed (popped, dismissed) and that is still
    /// attached a grace period later: the back-navigation leak.
    public static let viewGoneStillAttached = ViewGoneStillAttachedRule.rule
}

// MARK: - Help

extension ViewGoneStillAttachedRule {
    /// What `view-gone-still-attached` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A router's view was reported `removed` (popped by the Back
            button or a swipe, dismissed, taken out of its container) while the router
            was attached in the live tree, and one grace period later (1 s) the router is
            still attached there with its view still removed. The seqs are the router's
            `attach` and the `view` record of the removal.
            """#,
        cause: #"""
            The back-navigation leak. UIKit pops the screen by itself
            (the Back button, the interactive swipe, a sheet swiped down), so the routing
            method that would have called `detachChild` never runs: nothing told the
            parent that its child's screen is gone. The router stays attached, its
            interactor active (its tasks and observations running), and every round trip
            adds one.
            """#,
        fix: #"""
            Detach in the parent when the child reports that its screen went.
            In the child's view controller, `viewDidDisappear` with `isMovingFromParent`
            (popped) or `isBeingDismissed` (dismissed) tells its interactor (through the
            presenter's listener), which tells its own listener, the parent's interactor,
            which asks its router to detach:

            ```swift
            final class MenuViewController: UIViewController, MenuPresentable, ViewControllable {
                weak var listener: MenuPresentableListener?

                override func viewDidDisappear(_ animated: Bool) {
                    super.viewDidDisappear(animated)
                    if isMovingFromParent || isBeingDismissed {
                        Task { await listener?.didLeave() }       // popped by Back or a swipe, or dismissed
                    }
                }
            }

            extension MenuInteractor: MenuPresentableListener {
                func didLeave() async { await listener?.menuDidClose() }
            }

            extension RootInteractor: MenuListener {
                func menuDidClose() async { await router?.routeBackFromMenu() }   // detachChild, as in duplicate-child
            }
            ```
            """#)
}
