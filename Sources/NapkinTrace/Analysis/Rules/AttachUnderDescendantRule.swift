/// `attach-under-descendant`: an `attach` that would make the tree a cycle.
/// The framework does not prevent it; the model ignores the link so that the
/// tree stays a tree.
struct AttachUnderDescendantRule: MisuseRule {
    static let rule = Finding.Rule("attach-under-descendant", .warning, title: "attach under a descendant", summary: "a router attached under itself or one of its own descendants (a cycle)", help: help)
    static let watches: Set<TraceEvent.Name> = [.attach]
    static let misuse = TraceState.Misuse.Kind.attachUnderDescendant

    func message(node: String, other: String?, _ misuse: TraceState.Misuse) -> String {
        let under = misuse.other == misuse.node ? "itself" : "\(other ?? "#\(misuse.other ?? 0)"), one of its own descendants"
        return "\(node) was attached under \(under) (a cycle); the link is ignored"
    }
}

extension Finding.Rule {
    /// A router attached under itself or one of its own descendants.
    public static let attachUnderDescendant = AttachUnderDescendantRule.rule
}

// MARK: - Help

extension AttachUnderDescendantRule {
    /// What `attach-under-descendant` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            An `attach` of a router under itself, or under one of
            its own descendants. That would make the tree a cycle: the router would be
            its own ancestor, and detaching anything in the loop could never take it out
            of the tree. The model keeps the tree a tree and ignores the link ("...
            (a cycle); the link is ignored"). The seqs are that `attach`.
            """#,
        cause: #"""
            A router reused across screens: a child router cached by
            its parent and handed to one of its own children to attach ("show profile
            from inside profile"), or a deep link that attaches an existing router where
            it already sits higher up.
            """#,
        fix: #"""
            Build a new router for every place it appears (builders are cheap),
            and never attach a router that is already in the tree; to move one, detach
            it first.
            """#)
}
