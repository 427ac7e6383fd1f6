/// `event-after-deinit`: an event names a router or interactor that the
/// trace already deallocated (a broken emitter, or an edited or merged
/// trace). Reported once per event.
struct EventAfterDeinitRule: FindingRule {
    static let rule = Finding.Rule("event-after-deinit", .warning, title: "event after deinit", summary: "an event about a router or interactor after its deinit", help: help)
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

// MARK: - Help

extension EventAfterDeinitRule {
    /// What `event-after-deinit` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            An event (`activate`, `deactivate`, `hook_end`, `load`,
            `launch`, `attach`, `detach`, `deinit`, or a `task_start` for an owner) names a router
            or interactor whose `deinit` was already recorded (precisely: an id that is
            not alive and not higher than the highest router or interactor id created so
            far). The subject is the trace; since the analyzer forgets a node at its
            deinit, the finding names it only by id (type `#3`). Events naming an id
            higher than any created so far (a trace whose beginning is missing) are not
            reported. A `view` record after its router's deinit is not reported either: a
            view can outlive its router (see [`view-shown-after-detach`](#view-shown-after-detach)).
            """#,
        cause: #"""
            Napkin never writes this for a correct program. It comes
            from a trace assembled by hand or merged from several files, a custom emitter,
            or unsafe code (`unowned(unsafe)`, `Unmanaged`) touching a dead object.
            """#,
        fix: #"""
            Check where the trace came from; if napkin wrote it as is, please
            report it as a napkin bug, with the trace.
            """#)
}
