extension Finding.Rule {
    /// A router attached while it was already attached.
    public static let doubleAttach = Finding.Rule(
        "double-attach", .warning, title: "double attach",
        summary: "a router attached while already attached")
}

/// `double-attach`: an `attach` of a router that is already attached, to the
/// same parent (the app ignored it) or to another one (the newest link wins
/// in the model).
struct DoubleAttachRule: FindingRule {
    static let rule = Finding.Rule.doubleAttach
    static let watches: Set<TraceEvent.Name> = [.attach]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard let misuse = effect.misuse, misuse.kind == .doubleAttach else { return }
        let (name, other) = context.names(misuse)
        context.reportMisuse(misuse, event, message: "\(name) was attached while already attached to \(other ?? "its parent")")
    }
}

extension AnalysisContext {
    /// `Type#id` of a misuse's node and of the other node, if they are alive.
    func names(_ misuse: TraceState.Misuse) -> (node: String, other: String?) {
        (state[misuse.node]?.name ?? "#\(misuse.node)", misuse.other.flatMap { state[$0]?.name })
    }

    /// Reports a misuse of the lifecycle by a router, once per event.
    mutating func reportMisuse(_ misuse: TraceState.Misuse, _ event: TraceEvent, message: String) {
        let rule = FindingRules.all[currentRule].rule
        report(Finding(rule: rule, subject: .router, type: state[misuse.node]?.type ?? "?", id: misuse.node,
                       seqs: [event.seq], time: event.time, message: message),
               key: event.seq)
    }
}
