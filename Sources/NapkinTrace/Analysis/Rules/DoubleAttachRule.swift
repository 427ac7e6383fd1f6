/// `double-attach`: an `attach` of a router that is already attached, to the
/// same parent (the app ignored it) or to another one (the newest link wins
/// in the model).
struct DoubleAttachRule: MisuseRule {
    static let rule = Finding.Rule("double-attach", .warning, title: "double attach", summary: "a router attached while already attached", help: help)
    static let watches: Set<TraceEvent.Name> = [.attach]
    static let misuse = TraceState.Misuse.Kind.doubleAttach

    func message(node: String, other: String?, _ misuse: TraceState.Misuse) -> String {
        "\(node) was attached while already attached to \(other ?? "its parent")"
    }
}

extension Finding.Rule {
    /// A router attached while it was already attached.
    public static let doubleAttach = DoubleAttachRule.rule
}

// MARK: - Help

extension DoubleAttachRule {
    /// What `double-attach` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            An `attach` of a router that is already attached: to the
            same parent (napkin ignores the call, but records it), or to another parent
            without having been detached (the trace follows the newest link). The seqs
            are the second `attach`. (An `attach` under the router itself or one of its
            own descendants is [`attach-under-descendant`](#attach-under-descendant).)
            """#,
        cause: #"""
            A route called twice (a double tap, two events racing)
            without a guard; or a router moved to a new parent without `detachChild`
            from the old one.
            """#,
        fix: #"""
            Guard the route (see the `routeToMenu` example above), and detach
            from the old parent before attaching elsewhere.
            """#)
}
