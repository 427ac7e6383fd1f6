/// A rule that reports one kind of lifecycle misuse the model notices while
/// folding (``TraceState/Misuse``): a router finding, once per event.
protocol MisuseRule: FindingRule {
    /// The misuse this rule reports.
    static var misuse: TraceState.Misuse.Kind { get }

    /// The finding's message, given the misused router's name (`Type#id`) and
    /// the other router's, when it is alive.
    func message(node: String, other: String?, _ misuse: TraceState.Misuse) -> String
}

extension MisuseRule {
    /// A misuse rule reports the misuse an event reveals, and nothing else.
    static var observesOnlyMisuse: Bool { true }

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard let misuse = effect.misuse, misuse.kind == Self.misuse else { return }
        let state = context.state
        let text = message(node: state[misuse.node]?.name ?? "#\(misuse.node)",
                           other: misuse.other.flatMap { state[$0]?.name }, misuse)
        // The misused call first, then where the router was created.
        var locations = event.location.map { [Finding.CodeReference(.call, $0)] } ?? []
        if let node = state[misuse.node] { locations += context.codeReferences(of: node, [.created]) }
        context.report(Finding(rule: Self.rule, subject: .router, type: state[misuse.node]?.type ?? "?", id: misuse.node,
                               seqs: [event.seq], time: event.time, message: text, locations: locations),
                       key: event.seq)
    }
}
