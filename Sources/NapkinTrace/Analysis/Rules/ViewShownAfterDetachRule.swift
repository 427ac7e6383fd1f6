/// `view-shown-after-detach`: a router left the live tree (it, or an
/// ancestor, was detached, or its parent was deallocated) while its view was
/// shown, and its view is still shown one *view* grace period later (default
/// 5 s): the opposite direction of `view-gone-still-attached`, RIBs'
/// `LeakDetector.expectViewControllerDisappear`. Usually a routing method
/// that detaches the child but never dismisses its view, or a parent without
/// a view whose children's views nobody took down.
///
/// A view shown while its router is outside the tree, after the router had
/// been in it (a view reused without re-attaching its router), starts a
/// check too. A covered view does not count as shown. A router back in the
/// tree, or whose view went (covered or removed) and came back, or that
/// left the tree again, is given the view grace period from that moment.
///
/// The view can outlive its router (the parent detached the child and
/// dropped it, and nobody dismissed the view; or the dismissal ends after
/// the router's deinit): a router deallocated outside the tree with its view
/// shown is remembered, and checked one view grace period after it left the
/// tree with that view shown, unless a later `view` record says the view
/// went. That check is the only one that decides about a gone router, so
/// what the rule remembers is bounded by the checks waiting.
struct ViewShownAfterDetachRule: FindingRule {
    static let rule = Finding.Rule("view-shown-after-detach", .error, title: "view shown after detach", summary: "a router that left the tree while its view stayed on screen for the view grace period (default 5s)", help: help)
    static let watches: Set<TraceEvent.Name> = [.attach, .detach, .deallocated, .view]
    /// The detach that let it go (then its attach and creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.detached, .attached, .created]

    /// A router deallocated outside the tree while its view was shown.
    private struct GoneWhileShown: Sendable {
        /// Its type name (the model forgot it with the router).
        var type: String
        /// Its code locations, for the finding.
        var locations: [Finding.CodeReference]
    }

    /// Routers deallocated outside the tree while their view was shown, by
    /// id, until their view reports that it went or their check decides.
    private var goneWhileShown = NodeTable<GoneWhileShown>()

    /// `flag` of the check asked for at a router's deinit: the one that
    /// decides about the gone router (the others find it gone and stop).
    private static let goneCheck = true

    init() {}

    /// How many gone routers the rule remembers now (at most one per check
    /// waiting), for tests.
    var goneRoutersRemembered: Int { goneWhileShown.count }

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .attach(_, let child):
            // Only a misuse moves a router out of the tree with an attach: a
            // second parent outside the tree took it.
            guard effect.misuse?.kind == .doubleAttach,
                  context.state.table.with(child, { $0.pointee.leftTreeAt?.seq == event.seq }) == true else { return }
            checkViews(below: child, since: event.seq, &context)
        case .detach(_, let child):
            guard effect.childWasInLiveTree else { return }
            checkViews(below: child, since: event.seq, &context)
        case .deallocated:
            // Usually a router that left the tree with its view gone: decided from two fields read in place.
            guard context.state.hasRemovedNode, context.state.lastRemoved.kind == .router,
                  context.state.lastRemoved.isInLiveTree || context.state.lastRemoved.view == .shown else { return }
            let router = context.state.lastRemoved
            if router.isInLiveTree {
                // Its children left the tree with it.
                for child in router.childList { checkViews(below: child, since: event.seq, &context) }
                return
            }
            guard router.view == .shown, let left = router.leftTreeAt, let shown = router.viewChangedAt,
                  !context.hasReported(.viewShownAfterDetach, key: router.id) else { return }
            // Checked from when it was last both outside the tree and shown.
            let since = left.time >= shown.time ? left : shown
            goneWhileShown[router.id] = GoneWhileShown(type: router.type, locations: context.codeReferences(of: router, Self.codeFocus))
            context.schedule(GraceCheck(subject: router.id, since: since.seq, flag: Self.goneCheck), at: since.time, after: .viewGrace)
        case .view(let router, .covered), .view(let router, .removed):
            if goneWhileShown.count > 0 { goneWhileShown[router] = nil }
        case .view(let router, .shown):
            // Shown while outside the tree, after having been in it.
            guard context.state.table.with(router, { !$0.pointee.isInLiveTree && $0.pointee.leftTreeAt != nil }) == true else { return }
            context.schedule(GraceCheck(subject: router, since: event.seq), after: .viewGrace)
        default:
            break
        }
    }

    /// Asks for a check of `root` and each router attached below it whose view is shown.
    private func checkViews(below root: NodeID, since seq: UInt64, _ context: inout AnalysisContext) {
        for router in context.state.subtreeRoutersShowingViews(root) {
            context.schedule(GraceCheck(subject: router, since: seq), after: .viewGrace)
        }
    }

    mutating func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        guard let node = context.state[check.subject] else {
            // Gone: only the check asked for at its deinit decides.
            guard check.flag == Self.goneCheck, goneWhileShown.count > 0,
                  let gone = goneWhileShown.removeValue(forKey: check.subject) else { return }
            context.report(Finding(rule: Self.rule, subject: .router, type: gone.type, id: check.subject,
                                   seqs: [check.since], time: check.deadline,
                                   message: "it left the tree and was deallocated, but its view is still shown \(context.viewGraceText) later: dismiss the view when you detach the router",
                                   locations: gone.locations),
                           key: check.subject)
            return
        }
        guard !node.isInLiveTree, node.view == .shown else { return }
        // Back in the tree and out again, or gone and shown again, since the check was asked for: wait from then.
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

    /// Open while the router is outside the live tree with its view shown;
    /// for a gone router, the check asked for at its deinit while its view
    /// has not reported that it went.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        guard let open = state.table.with(check.subject, { !$0.pointee.isInLiveTree && $0.pointee.view == .shown }) else {
            return check.flag == Self.goneCheck && goneWhileShown.contains(check.subject)
        }
        return open
    }
}

extension Finding.Rule {
    /// A router that left the tree while its view stayed on screen for the
    /// view grace period (RIBs' `expectViewControllerDisappear`).
    public static let viewShownAfterDetach = ViewShownAfterDetachRule.rule
}

// MARK: - Help

extension ViewShownAfterDetachRule {
    /// What `view-shown-after-detach` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            The opposite direction: a router left the live tree (it
            or an ancestor was detached, or its parent was deallocated while in the tree)
            while its view was `shown`, and the view is still shown one *view grace
            period* later (default **5 s**: `check --view-grace`, the trait's `viewGrace:`,
            `TraceAnalyzer.Options(viewGrace:)`). The seqs
            are the event that took the router out of the tree. Also reported:

            - a view `shown` while its router is outside the tree after having been in
              it (a view reused without re-attaching its router), 5 s later; the seqs are
              that `view` record;
            - a router *deallocated* outside the tree with its view shown, when no later
              `view` record says the view went (`covered` or `removed`) within 5 s of the
              moment it left the tree with that view shown. A view can outlive its
              router: a `view` record after the router's `deinit` is valid, and a
              dismissal that ends after the deinit is fine.
            """#,
        cause: #"""
            A routing method that detaches the child and forgets to
            dismiss (or pop, or remove) its view, or a parent without a view of its own
            (a flow) detached while the screens of its children stay on screen: the user
            sees a screen whose logic is gone, and taps on it do nothing.
            """#,
        fix: #"""
            Take the view down in the same routing method that detaches:

            ```swift
            func routeAwayFromProfile() async {
                guard let profile else { return }
                self.profile = nil
                await detachChild(profile)
                viewController.dismiss(profile.viewControllable)   // the line that was missing
            }
            ```
            """#)
}
