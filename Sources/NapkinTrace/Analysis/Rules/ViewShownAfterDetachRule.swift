/// `view-shown-after-detach`: a router left the live tree (it, or an
/// ancestor, was detached, or its parent was deallocated) while its view was
/// shown, and its view is still shown one *view* grace period later (default
/// 5 s): the opposite direction of `view-gone-still-attached`, RIBs'
/// `LeakDetector.expectViewControllerDisappear`. Usually a routing method
/// that detaches the child but never dismisses its view, or a parent without
/// a view whose children's views nobody took down.
///
/// A view shown again while its router is outside the tree (a view reused
/// without re-attaching its router) starts a check too. A covered view does
/// not count as shown.
///
/// The view can outlive its router (the parent detached the child and
/// dropped it, and nobody dismissed the view): a router deallocated outside
/// the tree with its view shown is remembered until its view reports that
/// it went, or the check decides.
struct ViewShownAfterDetachRule: FindingRule {
    static let rule = Finding.Rule("view-shown-after-detach", .error, title: "view shown after detach", summary: "a router that left the tree while its view stayed on screen for the view grace period (5s)")
    static let watches: Set<TraceEvent.Name> = [.detach, .deallocated, .view]

    /// Routers deallocated outside the tree while their view was shown, by
    /// id: their type name (bounded by the checks waiting for them).
    private var goneWhileShown = NodeTable<String>()

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .detach(_, let child):
            guard effect.childWasInLiveTree else { return }
            for router in context.state.subtreeRoutersShowingViews(child) {
                context.schedule(GraceCheck(subject: router, since: event.seq), after: .viewGrace)
            }
        case .deallocated:
            guard let router = context.state.removedNode, router.kind == .router else { return }
            if !router.isInLiveTree {
                // Its check (asked for when it left the tree) decides from this.
                if router.view == .shown && router.attachedAt != nil { goneWhileShown[router.id] = router.type }
                return
            }
            for child in router.childList {
                for router in context.state.subtreeRoutersShowingViews(child) {
                    context.schedule(GraceCheck(subject: router, since: event.seq), after: .viewGrace)
                }
            }
        case .view(let router, .covered), .view(let router, .removed):
            if goneWhileShown.count > 0 { goneWhileShown[router] = nil }
        case .view(let router, .shown):
            // Shown while outside the tree, after having been in it.
            guard context.state.table.with(router, { !$0.isInLiveTree && $0.attachedAt != nil }) == true else { return }
            context.schedule(GraceCheck(subject: router, since: event.seq), after: .viewGrace)
        default:
            break
        }
    }

    mutating func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        if goneWhileShown.count > 0, let type = goneWhileShown.removeValue(forKey: check.subject) {
            context.report(Finding(rule: Self.rule, subject: .router, type: type, id: check.subject,
                                   seqs: [check.since], time: check.deadline,
                                   message: "it left the tree and was deallocated, but its view is still shown \(context.viewGraceText) later: dismiss the view when you detach the router"),
                           key: check.subject)
            return
        }
        guard isOpen(check, in: context.state), let node = context.state[check.subject] else { return }
        // Back in the tree and out again, or hidden and shown again, since the check was asked for: wait from then.
        let moved = max(node.viewChangedAt?.time ?? 0, node.leftTreeAt?.time ?? 0)
        if moved > check.scheduledAt {
            var again = check
            again.since = max(node.viewChangedAt?.seq ?? 0, node.leftTreeAt?.seq ?? 0, check.since)
            context.schedule(again, at: moved, after: .viewGrace)
            return
        }
        context.report(Finding(rule: Self.rule, subject: .router, type: node.type, id: node.id,
                               seqs: [check.since], time: check.deadline,
                               message: "it left the tree, but its view is still shown \(context.viewGraceText) later: dismiss the view when you detach the router (or re-attach the router when you show its view again)"),
                       key: node.id)
    }

    /// Open while the router is outside the live tree with its view shown,
    /// alive or gone.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        goneWhileShown.contains(check.subject)
            || state.table.with(check.subject, { !$0.isInLiveTree && $0.view == .shown }) == true
    }

    /// The trace ended first: forget the router, if it is gone.
    mutating func undecided(_ check: GraceCheck) {
        if goneWhileShown.count > 0 { goneWhileShown[check.subject] = nil }
    }
}

extension Finding.Rule {
    /// A router that left the tree while its view stayed on screen for the
    /// view grace period (RIBs' `expectViewControllerDisappear`).
    public static let viewShownAfterDetach = ViewShownAfterDetachRule.rule
}
