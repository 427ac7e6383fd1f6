/// `alive-at-end`: for a run meant to tear everything down
/// (``TraceAnalyzer/Options/expectTeardown``), the top of each subtree still
/// alive at the end of the trace, and every interactor whose router is gone.
struct AliveAtEndRule: FindingRule {
    static let rule = Finding.Rule("alive-at-end", .error, title: "alive at end", summary: "in a run expected to tear everything down: something still alive at the end", help: help)
    static let watches: Set<TraceEvent.Name> = []
    /// Where it was created (then attached).
    static let codeFocus: [Finding.CodeReference.Role] = [.created, .attached]

    func finish(_ context: inout AnalysisContext) {
        guard context.options.expectTeardown else { return }
        let end = context.state.time
        for node in context.state.aliveNodes() {
            switch node.kind {
            case .router:
                // Report the top of each alive subtree, with its size.
                if let parent = node.parent, context.state.contains(parent) { continue }
                let size = context.state.subtree(node.id).count - 1
                let extra = size > 0 ? " with \(size) attached descendant\(size == 1 ? "" : "s")" : ""
                context.report(Finding(rule: Self.rule, subject: .router, type: node.type, id: node.id, seqs: [node.createdSeq], time: end,
                                       message: "still alive\(extra) at the end of a run expected to tear everything down"),
                               key: node.id)
            case .interactor:
                if let router = node.router, context.state.contains(router) { continue }
                context.report(Finding(rule: Self.rule, subject: .interactor, type: node.type, id: node.id, seqs: [node.createdSeq], time: end,
                                       message: "still alive at the end of a run expected to tear everything down"),
                               key: node.id)
            }
        }
    }
}

extension Finding.Rule {
    /// With `expectTeardown`: something still alive at the end of the trace.
    public static let aliveAtEnd = AliveAtEndRule.rule
}

// MARK: - Help

extension AliveAtEndRule {
    /// What `alive-at-end` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            Only for a run expected to tear everything down
            (`check --expect-teardown`; in a test, `.napkinLeakCheck(expectTeardown: true)`
            or `recorder.analyze(expectTeardown: true)`): at the end of the trace a
            router or interactor is still alive. One finding
            per alive subtree: the topmost alive router (with the number of attached
            descendants it still holds), and each alive interactor whose router is gone.
            The seqs are its creation record. No grace period applies: the end of the
            trace is the deadline.
            """#,
        cause: #"""
            The test (or the app) still holds the root router; or
            anything reported as `not-deallocated` or `undetached-child` in the same run.
            """#,
        fix: #"""
            Release the root at the end of the test and wait for the deinits;
            then fix the leaks the other findings point at.
            """#)
}
