import Foundation
import NapkinTrace

/// Options several commands share, and how they are read.
enum CommonOptions {
    /// `--grace DURATION`: how long the analysis waits before it reports.
    static let grace = ValueOption.duration(
        "grace", help: "How long a detached router may take to deallocate or a cancelled task to stop (default 1s).")
    /// The grace period without `--grace`: 1 s, like RIBs' LeakDetector.
    static let defaultGrace: UInt64 = 1_000_000_000
    /// `--view-grace DURATION`: how long a router's view may stay on screen after the router left the tree.
    static let viewGrace = ValueOption.duration(
        "view-grace", help: "How long a router's view may stay on screen after the router left the tree (default 5s, like RIBs' expectViewControllerDisappear).")
    /// `--rounds PREFIX`: where the rounds of a repeated flow start (`growing-population`).
    static let rounds = ValueOption.rounds(
        "rounds", help: "A round of a repeated flow starts at each mark whose text starts with PREFIX; a type with more alive after every round is a growing-population finding (default: each run of a repeated test).")
    /// `--max-alive NAME=N`, repeatable: budgets of live instances (`over-budget`).
    static let maxAlive = ValueOption.budget(
        "max-alive", help: "At most N instances of NAME alive at once, else an over-budget finding: a router or interactor type, or Owner 'label' for bound tasks; give it once per type.")
    /// `--grace`, `--view-grace`, `--rounds` and `--max-alive`, as every command that analyses a trace lists them.
    static let analysisOptions: [any DeclaredOption] = [grace, viewGrace, rounds, maxAlive]
    /// `--at SEQ|TIME`: the moment of the trace to show (`tree`, `mermaid --view tree`).
    static let at = ValueOption.moment(
        "at", help: "The moment to show: just after event SEQ (e.g. 120) or a time since the start (e.g. 1.5s); the end by default.")
    /// `--color WHEN`.
    static let color = ValueOption<ColorChoice>.choice(
        "color", valueName: "WHEN", help: "Colour: auto (default: only on a terminal, never with NO_COLOR), always, never.")
    /// `--no-color`, the same as `--color never`.
    static let noColor = Flag("no-color", help: "Same as --color never.")
    /// `--color` and `--no-color`, as commands that print in colour list them.
    static let colorOptions: [any DeclaredOption] = [color, noColor]
    /// `--expect-teardown` (`check`, `report`): report what is still alive at the end.
    static let expectTeardown = Flag(
        "expect-teardown", help: "Report everything still alive at the end of the trace (for runs that tear down).")
    /// `--source-root DIR` (`check`, `report`, `diff`): where the code findings point at is.
    static let sourceRoot = ValueOption.text(
        "source-root", valueName: "DIR",
        help: "Where to find the source files findings point at (default: the current directory); paths are shown relative to it.")
}

extension ParsedArguments {
    /// `--grace`, in nanoseconds (1 s when not given).
    func grace() throws(UsageError) -> UInt64 {
        try value(CommonOptions.grace) ?? CommonOptions.defaultGrace
    }

    /// `--view-grace`, in nanoseconds (5 s when not given).
    func viewGrace() throws(UsageError) -> UInt64 {
        try value(CommonOptions.viewGrace) ?? TraceAnalyzer.Options.defaultViewGrace
    }

    /// `--rounds`: where the rounds of a repeated flow start (each run of a repeated test when not given).
    func rounds() throws(UsageError) -> TraceAnalyzer.Rounds {
        try value(CommonOptions.rounds) ?? .repeatedTests
    }

    /// `--max-alive`: the budgets, by population name (none when not given);
    /// a name given twice is a usage error.
    func maxAlive() throws(UsageError) -> [String: Int] {
        var budgets: [String: Int] = [:]
        for budget in try values(CommonOptions.maxAlive) {
            if let earlier = budgets[budget.name] {
                throw UsageError("'--max-alive' gives '\(budget.name)' two budgets (\(earlier) and \(budget.limit)); give each type one")
            }
            budgets[budget.name] = budget.limit
        }
        return budgets
    }

    /// The analysis `--grace`, `--view-grace`, `--rounds` and `--max-alive`
    /// ask for; `expectTeardown` for a command that has `--expect-teardown`.
    func analysisOptions(expectTeardown: Bool = false) throws(UsageError) -> TraceAnalyzer.Options {
        TraceAnalyzer.Options(grace: try grace(), expectTeardown: expectTeardown, viewGrace: try viewGrace(),
                              rounds: try rounds(), maxAlive: try maxAlive())
    }

    /// The output style `--color` and `--no-color` ask for, given the environment (`NO_COLOR`, `TERM`).
    func style(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) -> Style {
        let choice = isSet(CommonOptions.noColor) ? .never : try self.choice(CommonOptions.color)
        return Style.resolve(choice, environment: environment)
    }
}
