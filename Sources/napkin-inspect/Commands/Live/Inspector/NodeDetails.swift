import NapkinTrace

/// The details panel of one node at the moment shown: what it is, where it
/// stands, when it got there (and from which line of the app's code, when the
/// trace says), its interactor and bound tasks, its view, what a retainer
/// search found holding it (and its interactor), the events about it
/// that the history still keeps, and its findings, each with what the rule
/// means and how to fix it (the text of docs/findings.md, as `check --format
/// sarif` gives it). Its population: how many of its type are alive, the
/// most at once, its budget, and the count over time as a sparkline.
///
/// Its cost follows the node: its fields, its tasks, at most
/// ``NodeLog/maxEntries`` events, at most ``LiveSession/populationSamples``
/// counts and the findings about it.
struct NodeDetails {
    /// Colours, or none.
    let style: Style
    /// The screen's width.
    let width: Int

    /// Findings listed in full, at most (the rest are counted).
    static let maxFindings = 20

    // MARK: - The panel

    /// The panel's lines for `pin` in `analyzer`'s state, with the events of
    /// `log` and the live count of its type over time, `population`.
    func lines(_ pin: InspectorState.Pin, analyzer: TraceAnalyzer, log: NodeLog?, population: PopulationSeries.Points? = nil) -> [String] {
        let state = analyzer.state
        var lines: [String] = []
        guard let node = state[pin.id] else {
            lines.append(style.bold(printable(pin.name)) + style.dim("  (Esc or Enter closes)"))
            lines.append("  " + style.yellow("not alive at this moment") + " (not yet created, or deallocated)")
            lines += history(log, state: state)
            lines += findings(about: [pin.id], analyzer)
            return lines
        }
        lines.append(style.bold(printable(node.name)) + "  " + node.kind.rawValue + style.dim("  (Esc or Enter closes)"))
        let status = NodeStatus(of: node, in: state)
        let locations = node.kind == .router ? state.codeLocations(of: node) : nil
        lines.append(field("state", stateText(node, status: status, state: state)))
        lines.append(field("created", moment(node.createdSeq, node.createdTime) + at(locations?.created)))
        if node.kind == .router {
            if let attached = node.attachedAt {
                let how = node.isLaunched && node.parent == nil ? "launched" : "attached"
                lines.append(field(how, moment(attached.seq, attached.time) + at(locations?.attached)))
            }
            if let left = node.leftTreeAt {
                lines.append(field("left tree", moment(left.seq, left.time) + at(locations?.detached)))
            } else if let detached = locations?.detached {
                lines.append(field("detached", at(detached).trimmingLeadingSpaces()))
            }
            if let orphan = node.orphanedFrom {
                lines.append(field("orphaned", "parent \(printable(orphan.parentType))#\(orphan.parent) deallocated at seq \(orphan.seq)"))
            }
            lines.append(field("loaded", node.isLoaded ? "yes" : "no"))
            if let view = node.view {
                let since = node.viewChangedAt.map { " since " + moment($0.seq, $0.time) } ?? ""
                lines.append(field("view", view.rawValue + since))
            }
            if node.childCount > 0 { lines.append(field("children", "\(NumberFormat.grouped(node.childCount)) attached")) }
        }
        let interactorID = status.interactorID
        let interactor = interactorID.flatMap { state[$0] }
        if node.kind == .router {
            if let interactor {
                let since = interactor.stateChangedAt.map { " since " + moment($0.seq, $0.time) } ?? ""
                lines.append(field("interactor", printable(interactor.name) + ", " + (interactor.isActive ? "active" : "inactive") + since))
            } else {
                lines.append(field("interactor", interactorID.map { "#\($0), deallocated" } ?? "none"))
            }
        } else {
            let since = node.stateChangedAt.map { " since " + moment($0.seq, $0.time) } ?? ""
            lines.append(field("router", node.router.map { id in state[id].map { printable($0.name) } ?? "#\(id)" } ?? "none (gone)"))
            lines.append(field("active", (node.isActive ? "yes" : "no") + since))
        }
        if let running = (interactor ?? (node.kind == .interactor ? node : nil))?.runningHook {
            lines.append(field("hook", running.hook.rawValue + " running since " + moment(running.since.seq, running.since.time)))
        }
        lines += tasks(interactor ?? (node.kind == .interactor ? node : nil), state: state, log: log)
        lines += retainers(of: [node.id] + (interactorID.map { [$0] } ?? []), state: state)
        lines += history(log, state: state)
        lines += findings(about: [node.id] + (interactorID.map { [$0] } ?? []), analyzer)
        // Last: the node's own state, its history and findings come first on a short screen.
        lines += self.population(of: node, analyzer: analyzer, series: population)
        return lines
    }

    // MARK: - Parts

    /// `active, attached to Parent#4 (in the live tree)`.
    private func stateText(_ node: TraceNode, status: NodeStatus, state: TraceState) -> String {
        var text = status.state.rawValue
        switch status.state {
        case .active: text = style.green(text)
        case .detached: text = style.yellow(text)
        case .inactive: break
        }
        guard node.kind == .router else { return text }
        if let parent = node.parent {
            text += ", attached to " + (state[parent].map { printable($0.name) } ?? "#\(parent)")
        } else if node.isLaunched {
            text += ", a root"
        }
        text += node.isInLiveTree ? " (in the live tree)" : " (outside the live tree)"
        return text
    }

    /// The interactor's bound tasks: those running now, then those the history saw end.
    private func tasks(_ interactor: TraceNode?, state: TraceState, log: NodeLog?) -> [String] {
        var lines: [String] = []
        let running = interactor?.runningTasks ?? []
        for id in running.prefix(50) {
            guard let task = state.task(id) else { continue }
            var text = printable(task.displayName) + " #\(id) " + style.green("running") + " since " + moment(task.startSeq, task.startTime)
            if let cancel = task.cancelRequested { text += ", " + style.yellow("asked to cancel at seq \(cancel)") }
            if task.startedWhileInactive { text += ", started while inactive" }
            text += at(state.codeLocation(of: task))
            lines.append("  " + text)
        }
        if running.count > 50 { lines.append(style.dim("  … \(NumberFormat.grouped(running.count - 50)) more running")) }
        if let log {
            var labels: [NodeID: String] = [:]
            var ended: [(id: NodeID, seq: UInt64, time: UInt64, outcome: TaskOutcome)] = []
            for (_, event) in log.entries {
                switch event.kind {
                case .taskStart(let task, _, let label): labels[task] = label
                case .taskEnd(let task, let outcome): ended.append((task, event.seq, event.time, outcome))
                default: break
                }
            }
            for task in ended.suffix(20) {
                let name = labels[task.id].map { "'\(printable($0))'" } ?? "task"
                lines.append("  " + name + " #\(task.id) " + style.dim("ended (\(task.outcome.rawValue)) at " + moment(task.seq, task.time)))
            }
        }
        return lines.isEmpty ? [] : [style.bold("Bound tasks")] + lines
    }

    /// What the latest retainer search (a `retained` record) found holding
    /// each of `ids` that has one: its paths and tally.
    private func retainers(of ids: [NodeID], state: TraceState) -> [String] {
        var lines: [String] = []
        for id in ids {
            guard let retainers = state.retainers(of: id) else { continue }
            let name = state[id].map { printable($0.name) } ?? "#\(id)"
            lines.append(style.bold("Retained by") + style.dim(" (what a retainer search in the app found holding \(name))"))
            lines += RetainerText.lines(retainers, style: style).map { "  " + $0 }
        }
        return lines
    }

    /// The population of `id`'s type in `state` (routers or interactors of its type).
    static func populationKey(of id: NodeID, in state: TraceState) -> PopulationCounts.Key? {
        guard let node = state[id] else { return nil }
        return switch node.kind {
        case .router: PopulationCounts.Key(.router, type: node.type)
        case .interactor: PopulationCounts.Key(.interactor, type: node.type)
        }
    }

    /// How many of the node's type are alive, the most at once, its budget
    /// and flags, and the count over time (`series`, up to the moment shown).
    private func population(of node: TraceNode, analyzer: TraceAnalyzer, series: PopulationSeries.Points?) -> [String] {
        guard let key = Self.populationKey(of: node.id, in: analyzer.state), let population = analyzer.populations[key] else { return [] }
        let noun = node.kind == .router ? "routers" : "interactors"
        var lines = [style.bold("Population") + style.dim(" (\(noun) of type \(printable(node.type)) alive at once)")]
        lines.append(field("alive", "\(NumberFormat.grouped(population.live)) now, the most \(NumberFormat.grouped(population.peak)) at "
                           + moment(population.peakSeq, population.peakTime) + ", \(NumberFormat.grouped(population.created)) created"))
        let flag = PopulationFlag.flags(analyzer).first { $0.key == key }
        if let budget = analyzer.options.maxAlive[key.description] {
            lines.append(field("budget", "\(NumberFormat.grouped(budget))" + (population.live > budget || flag?.overBudget == true ? ", " + style.red("over") : "")))
        }
        if flag?.growing == true { lines.append(field("trend", style.red("growing") + " over the rounds (growing-population, below)")) }
        if let series, series.counts.count > 1 {
            let room = max(8, width - 40)
            let counts = series.counts.suffix(room)
            lines.append(field("per " + TimeFormat.duration(series.width), Self.sparkline(counts) + "  "
                               + style.dim((counts.count > 8 ? "\u{2026} " : "") + counts.suffix(8).map { NumberFormat.grouped($0) }.joined(separator: " "))))
        }
        return lines
    }

    /// `▁▂▄█`: one bar per count, the highest the most.
    static func sparkline(_ counts: some Collection<Int>) -> String {
        let bars = Array("\u{2581}\u{2582}\u{2583}\u{2584}\u{2585}\u{2586}\u{2587}\u{2588}")
        let most = counts.max() ?? 0
        return String(counts.map { count in
            most <= 0 ? bars[0] : bars[min(bars.count - 1, max(0, count) * (bars.count - 1) / most)]
        })
    }

    /// The events about the node that the history keeps, oldest first.
    private func history(_ log: NodeLog?, state: TraceState) -> [String] {
        guard let log else { return [] }
        var lines = [style.bold("History") + style.dim(" (events about it, with its interactor and tasks)")]
        if !log.sawCreation || log.dropped > 0 {
            lines.append(style.dim("  … earlier events are no longer kept (the history keeps the last \(NumberFormat.grouped(LiveHistory.maxEvents)) events of a session)"))
        }
        if log.entries.isEmpty { lines.append(style.dim("  (none kept)")) }
        for (_, event) in log.entries {
            let seq = "seq \(event.seq)".padded(to: 10), time = (" t=" + TimeFormat.point(event.time)).padded(to: 13)
            let what = describe(event, state: state)
            let location = event.location.map { PrintableText.printable($0.description, limit: 300) }
            // Plain widths (the style adds only escapes): the code's line goes on a line of its own when both do not fit.
            if let location, 2 + seq.count + time.count + 1 + what.count + 5 + location.count > width {
                lines.append("  " + style.dim(seq + time) + " " + what)
                lines.append("      " + style.dim("at ") + location)
            } else {
                lines.append("  " + style.dim(seq + time) + " " + what + at(event.location))
            }
        }
        return lines
    }

    /// What `event` did, in words, naming the other nodes it names as `state` knows them.
    private func describe(_ event: TraceEvent, state: TraceState) -> String {
        func name(_ id: NodeID) -> String { state[id].map { printable($0.name) } ?? "#\(id)" }
        switch event.kind {
        case .routerCreated(_, let type, let interactor, _):
            return "router \(printable(type)) created" + (interactor == 0 ? "" : ", interactor #\(interactor)")
        case .interactorCreated(let id, let type): return "interactor \(printable(type))#\(id) created"
        case .attach(let parent, _): return "attached to " + name(parent)
        case .detach(let parent, _): return "detached from " + name(parent)
        case .launch: return "launched as a root"
        case .load: return "loaded"
        case .view(_, let appearance): return "view " + appearance.rawValue
        case .activate: return "interactor activated"
        case .deactivate: return "interactor deactivated"
        case .hookEnd: return "interactor's hook returned"
        case .taskStart(let task, _, let label): return "task " + (label.map { "'\(printable($0))' " } ?? "") + "#\(task) started"
        case .taskCancel(let task): return "task #\(task) asked to cancel"
        case .taskEnd(let task, let outcome): return "task #\(task) ended (\(outcome.rawValue))"
        case .deallocated(let id): return name(id) == "#\(id)" ? "#\(id) deallocated" : "\(name(id)) deallocated"
        case .retained(let id, let retainers): return "retainer search about \(name(id)): " + RetainerText.tally(retainers)
        case .sessionStart, .mark, .dropped, .sessionEnd: return event.kind.name.rawValue
        }
    }

    /// The findings about `ids`, each with its rule's meaning and fix.
    private func findings(about ids: [NodeID], _ analyzer: TraceAnalyzer) -> [String] {
        let about = analyzer.findings.filter { $0.subject != .trace && ids.contains($0.id) }
        guard !about.isEmpty else { return [style.bold("Findings") + style.dim(" none at this moment")] }
        var lines = [style.bold("Findings") + " (\(about.count))"]
        for finding in about.prefix(Self.maxFindings) {
            lines.append("")
            lines += ProseLayout.wrap(FindingLine.styled(finding, style: .plain), width: width - 2, hanging: "    ").map { "  " + $0 }
            if let location = FindingLine.locationLine(finding, style: style, sources: nil) { lines.append("  " + location) }
            if let test = FindingLine.testLine(finding, style: style) { lines.append("  " + test) }
            lines += RetainerText.indentedLines(finding, style: style).map { "  " + $0 }
            let help = finding.rule.help
            lines.append("    " + style.bold("What it means."))
            lines += ProseLayout.lines(help.meaning, width: width, indent: "    ")
            lines.append("    " + style.bold("Fix."))
            lines += ProseLayout.lines(help.fix, width: width, indent: "    ")
            lines.append(style.dim("    More: \(finding.rule.documentation)"))
        }
        if about.count > Self.maxFindings { lines.append(style.dim("  … \(about.count - Self.maxFindings) more")) }
        return lines
    }

    // MARK: - Helpers

    /// `  label       value`.
    private func field(_ label: String, _ value: String) -> String {
        "  " + style.dim(label.padded(to: 11)) + " " + value
    }

    /// `seq 12, t=1.234s`.
    private func moment(_ seq: UInt64, _ time: UInt64) -> String {
        "seq \(seq), t=\(TimeFormat.point(time))"
    }

    /// `  at Module/File.swift:12` (a function recorded on a device:
    /// `  at Module/Type.function(label:)`, its description), or nothing.
    private func at(_ location: CodeLocation?) -> String {
        location.map { "  " + style.dim("at ") + PrintableText.printable($0.description, limit: 300) } ?? ""
    }

    /// Text from the trace, made printable and bounded.
    private func printable(_ text: String) -> String {
        PrintableText.printable(text, limit: TreeRenderer.maxName + 80)
    }
}

/// Text helpers of the details panel.
private extension String {
    /// The string without leading spaces.
    func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
