/// `detach-non-child`: a `detach` of a router that is not attached to that
/// parent (detached twice, or never attached there). The app ignores it.
struct DetachNonChildRule: MisuseRule {
    static let rule = Finding.Rule("detach-non-child", .warning, title: "detach of a non-child", summary: "a detach of a router that is not the parent's child")
    static let watches: Set<TraceEvent.Name> = [.detach]
    static let misuse = TraceState.Misuse.Kind.detachNonChild

    func message(node: String, other: String?, _ misuse: TraceState.Misuse) -> String {
        let parent = other ?? "that parent"
        return "\(parent) detached \(node), which is not its child"
    }
}

extension Finding.Rule {
    /// A detach of a router that was not a child of that parent.
    public static let detachNonChild = DetachNonChildRule.rule
}
