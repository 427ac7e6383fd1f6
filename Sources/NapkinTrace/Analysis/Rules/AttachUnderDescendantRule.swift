/// `attach-under-descendant`: an `attach` that would make the tree a cycle.
/// The framework does not prevent it; the model ignores the link so that the
/// tree stays a tree.
struct AttachUnderDescendantRule: MisuseRule {
    static let rule = Finding.Rule("attach-under-descendant", .warning, title: "attach under a descendant", summary: "a router attached under itself or one of its own descendants (a cycle)")
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
