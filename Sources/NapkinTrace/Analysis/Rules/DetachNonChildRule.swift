extension Finding.Rule {
    /// A detach of a router that was not a child of that parent.
    public static let detachNonChild = Finding.Rule(
        "detach-non-child", .warning, title: "detach of a non-child",
        summary: "a detach of a router that is not the parent's child")
}

/// `detach-non-child`: a `detach` of a router that is not attached to that
/// parent (detached twice, or never attached there). The app ignores it.
struct DetachNonChildRule: FindingRule {
    static let rule = Finding.Rule.detachNonChild
    static let watches: Set<TraceEvent.Name> = [.detach]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard let misuse = effect.misuse, misuse.kind == .detachNonChild else { return }
        let (name, other) = context.names(misuse)
        context.reportMisuse(misuse, event, message: "\(other ?? "that parent") detached \(name), which is not its child")
    }
}
