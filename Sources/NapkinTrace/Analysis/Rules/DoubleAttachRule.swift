/// `double-attach`: an `attach` of a router that is already attached, to the
/// same parent (the app ignored it) or to another one (the newest link wins
/// in the model).
struct DoubleAttachRule: MisuseRule {
    static let rule = Finding.Rule("double-attach", .warning, title: "double attach", summary: "a router attached while already attached")
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
