/// `over-budget`: more live instances of a type at once than its budget
/// (`check --max-alive TYPE=N`, the trait's and the detector's `maxAlive:`).
/// Reported at the creation (or task start) that went over, once per type
/// and session, naming the instances alive then and the lines that created
/// them. Budgets name a population as ``PopulationCounts/Key`` describes it:
/// a router or interactor type, or `Owner 'label'` for bound tasks.
struct OverBudgetRule: FindingRule {
    static let rule = Finding.Rule("over-budget", .error, title: "over budget", summary: "more instances of a type alive at once than the budget set for it", help: help)
    static let watches: Set<TraceEvent.Name> = [.router, .interactor, .taskStart]
    /// Where the instances were created.
    static let codeFocus: [Finding.CodeReference.Role] = [.created]

    /// The budgets not yet exceeded, by population name.
    private var open: [String: Int]?

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        if open == nil { open = context.options.maxAlive }
        guard open?.isEmpty == false else { return }
        switch event.kind {
        case .routerCreated(_, let type, let interactor, let interactorType):
            check(PopulationCounts.Key(.router, type: type), event, &context)
            if interactor != 0 { check(PopulationCounts.Key(.interactor, type: interactorType), event, &context) }
        case .interactorCreated(_, let type):
            check(PopulationCounts.Key(.interactor, type: type), event, &context)
        case .taskStart(let task, _, let label):
            guard let owner = context.state.task(task)?.ownerType else { return }
            check(PopulationCounts.Key(.task, type: owner, label: label), event, &context)
        case .sessionStart, .attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .view,
             .taskCancel, .taskEnd, .deallocated, .retained, .mark, .dropped, .sessionEnd:
            break
        }
    }

    private mutating func check(_ key: PopulationCounts.Key, _ event: TraceEvent, _ context: inout AnalysisContext) {
        let name = key.description
        guard let budget = open?[name], let population = context.populations[key], population.live > budget else { return }
        open?[name] = nil
        let survey = PopulationSurvey(of: key, in: context.state)
        let subject: Finding.SubjectKind = switch key.kind {
        case .router: .router
        case .interactor: .interactor
        case .task: .task
        }
        context.report(Finding(rule: Self.rule, subject: subject, type: key.type, id: survey.subjectID(key.kind, in: context.state),
                               label: key.label,
                               seqs: [event.seq], time: event.time,
                               message: "\(population.live) alive at once (\(survey.idsText)), over the budget of \(budget)\(survey.linesText(key.kind))",
                               locations: survey.references(key.kind)),
                       key: FNV1a64.hash(name))
    }
}

extension Finding.Rule {
    /// More instances of a type alive at once than its budget allows.
    public static let overBudget = OverBudgetRule.rule
}

// MARK: - Help

extension OverBudgetRule {
    /// What `over-budget` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            You declared how many instances of a type may be alive
            at once (`check --max-alive LoggedInRouter=1`, the trait's and the
            detector's `maxAlive:`), and at some moment there were more. Reported at the
            creation that went over, once per type, with the instances alive then and the
            lines that created them.
            """#,
        cause: #"""
            A second copy of something meant to be single: a flow
            built twice (a double tap, a route that does not check what it holds), an
            old copy still alive when its replacement is built (a leak, or a release
            that comes later than the new build), a pool or cache without a limit.
            """#,
        fix: #"""
            Look at the creation lines: one of them makes the extra copy.
            Guard the route that builds it, release the old copy before building the new
            one, or give the cache a capacity. If more really may be alive (a
            replacement built before the old one is gone), raise the budget to what the
            flow needs:

            ```swift
            func routeToLoggedIn() async {
                guard loggedIn == nil else { return }      // one at a time
                let router = loggedInBuilder.build(withListener: interactor)
                loggedIn = router
                await attachChild(router)
            }
            ```
            """#)
}
