/// `undetached-child`: when a router is deallocated while children are still
/// attached to it, each child should go with it; one that is still alive
/// (and not attached anywhere else) a grace period later is held by
/// something outside the tree. The finding's seq is the parent's `deinit`.
struct UndetachedChildRule: FindingRule {
    static let rule = Finding.Rule("undetached-child", .error, title: "un-detached child", summary: "a router still attached to a parent that was deallocated, and still alive", help: help)
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

// MARK: - Help

extension UndetachedChildRule {
    /// What `undetached-child` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A router was still attached to its parent when the parent
            was deallocated (the parent never called `detachChild` for it), and one grace
            period after the parent's deinit the child is still alive and has not been
            attached anywhere else. Its seqs are the parent's `deinit`.
            """#,
        cause: #"""
            A service, cache or coordinator keeps a strong reference
            to a child router (to "reuse" it, or to call it back), and the parent is torn
            down without detaching its children first. The child keeps its subtree, its
            interactor and any observation it holds alive, invisible in the tree.
            """#,
        fix: #"""
            Do not store routers in services; store the data and rebuild the
            napkin. If something must call back into a napkin, give it a weak reference
            to a listener protocol. And detach children in the parent when it goes away:

            ```swift
            final class LoggedInRouter: Router<LoggedInInteractor> {
                private var pitBoard: Routing?

                func routeAwayFromPitBoard() async {
                    guard let pitBoard else { return }
                    self.pitBoard = nil
                    await detachChild(pitBoard)
                }
            }

            final class PitBoardService {
                weak var listener: PitBoardListener?     // not: var router: PitBoardRouter
            }
            ```
            """#)
}
