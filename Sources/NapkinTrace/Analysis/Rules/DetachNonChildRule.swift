/// `detach-non-child`: a `detach` of a router that is not attached to that
/// parent (detached twice, or never attached there). The app ignores it.
struct DetachNonChildRule: MisuseRule {
    static let rule = Finding.Rule("detach-non-child", .warning, title: "detach of a non-child", summary: "a detach of a router that is not the parent's child", help: help)
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

// MARK: - Help

extension DetachNonChildRule {
    /// What `detach-non-child` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A `detach` whose router is not attached to that parent
            (already detached, attached elsewhere, or never attached). Napkin ignores the
            call but records it. The seqs are that `detach`.
            """#,
        cause: #"""
            A double back tap or a dismissal handled twice (once by a
            gesture, once by a button), or a router detached from the wrong parent.
            """#,
        fix: #"""
            Clear the reference before detaching, so a second call does nothing
            (`routeBackFromMenu` above), and detach from the parent that attached it.
            """#)
}
