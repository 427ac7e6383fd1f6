/// `event-after-deinit`: an event names a router or interactor that the
/// trace already deallocated (a broken emitter, or an edited or merged
/// trace). Reported once per event.
struct EventAfterDeinitRule: FindingRule {
    static let rule = Finding.Rule("event-after-deinit", .warning, title: "event after deinit", summary: "an event about a router or interactor after its deinit")
    static let watches: Set<TraceEvent.Name> = [.attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .view, .taskStart, .deallocated]
    /// It reports the `eventAfterDeinit` misuse, and nothing else.
    static let observesOnlyMisuse = true

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard let misuse = effect.misuse, misuse.kind == .eventAfterDeinit else { return }
        context.report(Finding(rule: Self.rule, subject: .trace, type: "#\(misuse.node)", id: misuse.node,
                               seqs: [event.seq], time: event.time,
                               message: "\(event.kind.wireName) refers to #\(misuse.node), which was already deallocated"),
                       key: event.seq)
    }
}

extension Finding.Rule {
    /// An event about a router or interactor after its deinit.
    public static let eventAfterDeinit = EventAfterDeinitRule.rule
}
