/// `task-started-inactive`: a bound task belongs to its interactor's active
/// scope; one started before activation (work started in `init`) or after
/// deactivation runs until the next deactivation, unseen.
struct TaskStartedInactiveRule: FindingRule {
    static let rule = Finding.Rule("task-started-inactive", .warning, title: "task started while inactive", summary: "a bound task started while its interactor was inactive", help: help)
    static let watches: Set<TraceEvent.Name> = [.taskStart]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard case .taskStart(let id, let owner, let label) = event.kind, let task = context.state.task(id),
              task.startedWhileInactive, let node = context.state[owner] else { return }
        context.report(Finding(rule: Self.rule, subject: .task, type: node.type, id: owner, label: label,
                               seqs: [event.seq], time: event.time,
                               message: "task \(task.displayName) started while \(node.name) was inactive; it runs until the next deactivation (start it in didBecomeActive)",
                               locations: event.location.map { [Finding.CodeReference(.started, $0)] } ?? []),
                       key: id)
    }
}

extension Finding.Rule {
    /// A task started while its owner was inactive.
    public static let taskStartedInactive = TaskStartedInactiveRule.rule
}

// MARK: - Help

extension TaskStartedInactiveRule {
    /// What `task-started-inactive` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A `task_start` whose owner interactor was not active at
            that moment (never activated yet, or already deactivated). Reported at once,
            with the `task_start` seq. Napkin runs such a task, and cancels it at the
            *next* deactivation, so it may run for the whole time the napkin is detached
            or before it is ever attached.
            """#,
        cause: #"""
            Work started in the interactor's `init`, in the builder,
            or from a callback that arrives after `willResignActive` (a stored closure, a
            notification observer that was not removed).
            """#,
        fix: #"""
            Start work in `didBecomeActive`; it is cancelled when the napkin
            resigns:

            ```swift
            final actor MenuInteractor: Interactable {
                nonisolated let lifecycle = InteractorLifecycle()

                func didBecomeActive() async {
                    task(named: "prefetch") { [menu] in await menu.prefetch() }   // not in init
                }
            }
            ```
            """#)
}
