import NapkinTrace

/// `stats` as text: one labelled row per fact, the populations (with
/// `populations`), then the events by kind. Text from the trace (the path,
/// the app, the end reason, type names) is made printable.
enum StatsText {
    /// How many populations the text lists (the most alive at once first);
    /// `--format json` lists them all.
    static let maxListedPopulations = 20
    /// The widest population name column.
    static let maxNameWidth = 48

    /// The report for `s`, coloured as `style` says; with `populations`, the
    /// live and peak count of each type too (`stats` lists them; the HTML
    /// report's stats panel reads the rest of this text line by line, and has
    /// no place for them).
    static func render(_ s: TraceStats, style: Style, populations: Bool = false) -> String {
        func row(_ label: String, _ value: String) -> String { style.bold(label.padded(to: 13)) + value + "\n" }
        func n(_ value: some BinaryInteger) -> String { NumberFormat.grouped(value) }
        let o = s.overview, c = s.counts
        var out = ""
        let version = c.formatVersion.map { n($0) } ?? "?"
        out += row("Trace", "\(PrintableText.printable(o.path, limit: 300)) (\(NumberFormat.bytes(c.bytes)), \(n(o.events)) events, format v\(version))")
        if let session = o.session {
            out += row("App", "\(PrintableText.printable(session.app, limit: 200)) (pid \(session.pid))" + (c.startedAt.map { ", started \($0)" } ?? ""))
        }
        out += row("Duration", "\(TimeFormat.duration(o.durationNs)) (\(n(NumberFormat.clampedInt(c.eventsPerSecond))) events/s)")
        var complete: String
        if o.endedCleanly {
            complete = style.green("yes") + ": ended cleanly (\(c.endReason.map { PrintableText.printable($0, limit: 200) } ?? "end"))"
        } else {
            complete = style.yellow("no") + ": no end record (the app crashed, was killed, or is still running)"
        }
        if c.lastLineCutShort { complete += "; the last line is cut short" }
        out += row("Complete", complete)
        out += row("Dropped", o.droppedEvents == 0 ? "0 events" : style.yellow("\(n(o.droppedEvents)) events (the trace is incomplete)"))
        out += row("Routers", "\(n(c.routersCreated)) created, \(n(c.routersDeallocated)) deallocated, \(n(c.routersAlive)) alive at the end")
        out += row("Interactors", "\(n(c.interactorsCreated)) created, \(n(c.interactorsDeallocated)) deallocated, \(n(c.interactorsAlive)) alive at the end")
        out += row("Tasks", "\(n(c.tasksStarted)) started, \(n(c.tasksEnded)) ended (\(n(c.tasksCancelled)) cancelled), \(n(c.tasksRunning)) running at the end")
        out += row("Tree depth", "\(n(c.maxDepth)) (deepest attach)")
        out += row("Marks", n(c.marks))
        let unknownRecords = c.unknownKinds.values.reduce(0) { $0.addingReportingOverflow($1).partialValue }
        if c.traceProblems.isEmpty {
            out += row("Integrity", "intact")
        } else {
            out += row("Integrity", style.red("damaged") + ": " + PrintableText.printable(c.traceProblems[0], limit: 300)
                       + (c.traceProblems.count > 1 ? " (and \(c.traceProblems.count - 1) more)" : ""))
        }
        out += row("Reader", "\(n(c.invalidLines)) invalid lines, \(n(unknownRecords)) records of unknown kinds, \(n(c.unknownFields)) unknown fields")
        if populations { out += populationRows(c, row: row) }
        out += style.bold("Events by kind:") + "\n"
        let total = max(1, o.events)
        for kind in TraceEvent.Name.allCases.map(\.rawValue) {
            guard let count = c.eventsByKind[kind] else { continue }
            let percent = String(format1: Double(count) * 100 / Double(total))
            out += "  \(kind.padded(to: 12)) \(n(count).padded(to: 11)) \(percent)%\n"
        }
        return out
    }

    /// `Populations  3 types: ...`, then one line per population, the most
    /// alive at once first (at most ``maxListedPopulations``), then how many
    /// more there are.
    private static func populationRows(_ c: TraceStats.Counts, row: (String, String) -> String) -> String {
        func n(_ value: some BinaryInteger) -> String { NumberFormat.grouped(value) }
        guard !c.populations.isEmpty || c.untrackedLiveInstances > 0 else {
            return row("Populations", "none (no router, interactor or bound task)")
        }
        var out = row("Populations", NumberFormat.count(c.populations.count, "type") + " of routers, interactors and bound tasks: alive at the end, most at once")
        let listed = c.populations.prefix(maxListedPopulations)
        let names = listed.map { PrintableText.printable($0.name, limit: maxNameWidth - 2) }
        let width = min(maxNameWidth, names.map(\.count).max() ?? 0)
        for (population, name) in zip(listed, names) {
            let isTask = population.kind == PopulationCounts.Key.Kind.task.rawValue
            let (alive, created) = isTask ? ("running", "started") : ("alive", "created")
            out += "  \(name.padded(to: width))  \(population.kind.padded(to: 10))  \(n(population.live)) \(alive) (\(n(population.created)) \(created)),"
                + " peak \(n(population.peak)) at \(TimeFormat.point(population.peakTimeNs)) (#\(population.peakSeq))\n"
        }
        if c.populations.count > listed.count {
            out += "  and \(n(c.populations.count - listed.count)) more (--format json lists them all)\n"
        }
        if c.untrackedLiveInstances > 0 {
            out += "  and \(n(c.untrackedLiveInstances)) alive of types beyond the first \(n(PopulationCounts.maxPopulations)) (not followed)\n"
        }
        return out
    }
}
