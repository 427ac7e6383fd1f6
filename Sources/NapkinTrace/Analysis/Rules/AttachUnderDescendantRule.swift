extension Finding.Rule {
    /// A router attached under itself or one of its own descendants.
    public static let attachUnderDescendant = Finding.Rule(
        "attach-under-descendant", .warning, title: "attach under a descendant",
        summary: "a router attached under itself or one of its own descendants (a cycle)")
}

/// `attach-under-descendant`: an `attach` that would make the tree a cycle.
/// The framework does not prevent it; the model ignores the link so that the
/// tree stays a tree.
struct AttachUnderDescendantRule: FindingRule {
    static let rule = Finding.Rule.attachUnderDescendant
    static let watches: Set<TraceEvent.Name> = [.attach]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard let misuse = effect.misuse, misuse.kind == .attachUnderDescendant else { return }
        let (name, other) = context.names(misuse)
        let under = misuse.other == misuse.node ? "itself" : "\(other ?? "#\(misuse.other ?? 0)"), one of its own descendants"
        context.reportMisuse(misuse, event, message: "\(name) was attached under \(under) (a cycle); the link is ignored")
    }
}
