/// `not-deallocated`: a detached router should be deallocated within the
/// grace period, and a deallocated router's interactor should follow it.
///
/// Only the top of a leaked subtree is reported (its children and interactor
/// are leaked because it is); an interactor held by its own running task is
/// left to `orphaned-task`, one whose deactivation never finished to
/// `active-after-detach`, one held by a hook that never returned (and its
/// router, which the attach or detach awaiting that hook holds) to
/// `stuck-hook`.
struct NotDeallocatedRule: FindingRule {
    static let rule = Finding.Rule("not-deallocated", .error, title: "not deallocated", summary: "a router (or interactor) that left the tree and was not deallocated: a leak", help: help)
    static let watches: Set<TraceEvent.Name> = [.detach, .deallocated]
    /// The detach that let it go (then its attach and creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.detached, .attached, .created]

    /// `flag` of a check: true for an interactor whose router was deallocated.
    private static let interactorCheck = true

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .detach(_, let child):
            // A router detached from a parent that had already left the tree is on its
            // own from now on (its parent's check no longer covers it): check it too.
            guard effect.childWasInLiveTree || effect.childWasAttached, context.state.contains(child) else { return }
            context.schedule(GraceCheck(subject: child, since: event.seq))
        case .deallocated:
            guard context.state.hasRemovedNode, context.state.lastRemoved.kind == .router,
                  let interactor = context.state.lastRemoved.interactor, context.state.contains(interactor) else { return }
            let router = context.state.lastRemoved.id
            context.schedule(GraceCheck(subject: interactor, since: event.seq, other: router, flag: Self.interactorCheck))
        default:
            break
        }
    }

    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {
        // Usually the node is gone by now: that costs one lookup.
        guard context.state.contains(check.subject), let node = context.state[check.subject] else { return }
        if check.flag == Self.interactorCheck {
            // A running task holds it; that task is reported as orphaned instead.
            if !node.taskList.isEmpty { return }
            // A deactivation that never finished holds it; reported as active-after-detach.
            if context.hasReported(.activeAfterDetach, key: node.id) { return }
            // A hook that never returned holds it; reported as stuck-hook.
            if node.runningHook != nil { return }
            if node.router != nil { return } // re-owned by a new router
            context.report(node, as: .interactor, after: check,
                           "its router #\(check.other) was deallocated, but the interactor is still alive \(context.graceText) later: something retains it")
        } else {
            guard !node.isInLiveTree else { return }
            // Its interactor's hook never returned, and the attach (or detach)
            // awaiting that hook holds the router; reported as stuck-hook.
            if let interactor = node.interactor, context.state.table.with(interactor, { $0.pointee.runningHook != nil }) == true { return }
            // Re-attached and detached again since the check was asked for: wait from then.
            let moved = max(node.leftTreeAt?.time ?? 0, node.attachedAt?.time ?? 0)
            if moved > check.scheduledAt {
                var again = check
                again.since = node.leftTreeAt.map { max($0.seq, check.since) } ?? check.since
                context.schedule(again, at: moved)
                return
            }
            context.report(node, as: .router, after: check,
                           "detached, but still alive \(context.graceText) later: something retains it (a strong reference in an interactor, listener or service: a retain cycle?)")
        }
    }
}

extension Finding.Rule {
    /// A router or interactor that left the tree and was not deallocated
    /// within the grace period: something retains it (a retain cycle?).
    public static let notDeallocated = NotDeallocatedRule.rule
}

// MARK: - Help

extension NotDeallocatedRule {
    /// What `not-deallocated` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            One of two things, both one grace period after the event
            that should have ended an object's life:

            - *a router*: it was detached (a `detach` of the router itself, from a
              parent in the live tree or from a parent that had already left it) and is
              still alive and not back in the live tree. Its seqs are the `detach`.
            - *an interactor*: its router was deallocated and the interactor is still
              alive, not owned by a new router, and has no running bound task. Its seqs
              are the router's `deinit`.
            """#,
        cause: #"""
            A retain cycle: the interactor holds its router strongly
            (`var router: HomeRouting?` instead of `weak var`), an interactor holds its
            *listener* (the parent interactor) strongly, a closure stored in a
            long-lived object captures `self` strongly, or a service keeps the router or
            interactor (an interactor registered as a delegate with a strong reference).
            The first case leaks the router; the others often leak only the interactor.
            """#,
        fix: #"""
            Make back-references weak, and capture weakly in stored closures:

            ```swift
            final actor HomeInteractor: Interactable {
                nonisolated let lifecycle = InteractorLifecycle()
                weak var router: HomeRouting?        // was: var router: HomeRouting?
                weak var listener: HomeListener?     // listeners are always weak

                func didBecomeActive() async {
                    service.onChange = { [weak self] value in
                        Task { await self?.update(value) }
                    }
                }
            }
            ```
            """#)
}
