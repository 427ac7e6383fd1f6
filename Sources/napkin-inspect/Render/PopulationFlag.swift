import NapkinTrace

/// The populations (``PopulationCounts``) that `live`'s header and
/// `report`'s chart flag: those over their budget (an `over-budget` finding,
/// or more alive now than `--max-alive` allows) and those growing over
/// rounds (a `growing-population` finding).
struct PopulationFlag: Sendable, Equatable {
    /// Which population.
    var key: PopulationCounts.Key
    /// How many are alive at the moment shown.
    var live: Int
    /// A `growing-population` finding names it.
    var growing = false
    /// Its budget, when it is over it (a finding, or more alive now).
    var budget: Int?
    /// Over its budget, without a budget known here (only the finding says so).
    var overBudget = false

    /// The longest population name a flag shows (a trace's names can be any length).
    static let maxName = 40

    /// `growing`, `over 3`, `growing, over 3`.
    var words: String {
        var words: [String] = []
        if growing { words.append("growing") }
        if let budget { words.append("over \(budget)") } else if overBudget { words.append("over budget") }
        return words.joined(separator: ", ")
    }

    /// The flags of `analyzer` at its last event: from its findings, then
    /// from its budgets (``TraceAnalyzer/Options/maxAlive``); over budget
    /// first, then by live count, most first. One pass over the findings and,
    /// with budgets, one over the populations.
    /// A provisional `growing-population` (``TraceAnalyzer/provisionalFindings``)
    /// flags its population as growing too: the live view's header and
    /// details say so as soon as the findings pane does.
    static func flags(_ analyzer: TraceAnalyzer) -> [PopulationFlag] {
        flags(findings: analyzer.findings + analyzer.provisionalFindings, populations: analyzer.populations, budgets: analyzer.options.maxAlive)
    }

    /// The flags of `findings` (growing, over budget) and of `budgets` (a
    /// population name to the most allowed alive) for `populations`.
    static func flags(findings: [Finding], populations: PopulationCounts, budgets: [String: Int]) -> [PopulationFlag] {
        var flags: [PopulationFlag] = []
        var index: [PopulationCounts.Key: Int] = [:]
        func flag(_ key: PopulationCounts.Key, _ change: (inout PopulationFlag) -> Void) {
            if let at = index[key] {
                change(&flags[at])
                return
            }
            index[key] = flags.count
            flags.append(PopulationFlag(key: key, live: populations[key]?.live ?? 0))
            change(&flags[flags.count - 1])
        }
        for finding in findings {
            let growing = finding.rule == .growingPopulation
            guard growing || finding.rule == .overBudget, let key = key(of: finding) else { continue }
            let budget = budgets[key.description]
            flag(key) { flag in
                if growing {
                    flag.growing = true
                } else {
                    flag.overBudget = true
                    flag.budget = budget
                }
            }
        }
        if !budgets.isEmpty {
            for population in populations.populations {
                guard let budget = budgets[population.key.description], population.live > budget else { continue }
                flag(population.key) { flag in
                    flag.overBudget = true
                    flag.budget = budget
                }
            }
        }
        return flags.sorted { ($0.overBudget ? 0 : 1, -$0.live, $0.key) < ($1.overBudget ? 0 : 1, -$1.live, $1.key) }
    }

    /// The population a finding of a population rule is about.
    static func key(of finding: Finding) -> PopulationCounts.Key? {
        switch finding.subject {
        case .router: PopulationCounts.Key(.router, type: finding.type)
        case .interactor: PopulationCounts.Key(.interactor, type: finding.type)
        case .task: PopulationCounts.Key(.task, type: finding.type, label: finding.label)
        case .trace: nil
        }
    }

    /// `OrderRouter ×7 growing`: the name (printable, at most ``maxName``
    /// characters), the live count, the words.
    var text: String {
        PrintableText.printable(key.description, limit: Self.maxName) + " \u{D7}\(NumberFormat.grouped(live)) " + words
    }

    /// `⚠ OrderRouter ×7 growing, MenuRouter ×3 over 2 +1 more`: at most
    /// `named` flags named, the rest counted (none named: `⚠ 3 populations
    /// flagged`); nil without flags.
    static func summary(_ flags: [PopulationFlag], named: Int = 2) -> String? {
        guard !flags.isEmpty else { return nil }
        guard named > 0 else { return "\u{26A0} " + NumberFormat.count(flags.count, "population") + " flagged" }
        let shown = flags.prefix(named).map(\.text).joined(separator: ", ")
        return "\u{26A0} " + shown + (flags.count > named ? " +\(flags.count - named) more" : "")
    }

    /// The ``summary(_:named:)`` of `flags` (not empty) naming as many as
    /// fit in `room` characters, at most two; the shortest when none fits.
    static func summary(_ flags: [PopulationFlag], fitting room: Int) -> String {
        var shortest = ""
        for named in [2, 1, 0] {
            guard let text = summary(flags, named: named) else { return "" }
            if text.count <= room { return text }
            shortest = text
        }
        return shortest
    }
}
