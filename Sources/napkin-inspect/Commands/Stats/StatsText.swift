import NapkinTrace

/// `stats` as text: one labelled row per fact, then the events by kind.
enum StatsText {
    /// The report for `s`, coloured as `style` says.
    static func render(_ s: TraceStats, style: Style) -> String {
        func row(_ label: String, _ value: String) -> String { style.bold(label.padded(to: 13)) + value + "\n" }
        func n(_ value: Int) -> String { NumberFormat.grouped(value) }
        var out = ""
        out += row("Trace", "\(s.path) (\(NumberFormat.bytes(s.bytes)), \(n(s.events)) events, format v\(s.formatVersion.map(String.init) ?? "?"))")
        if let app = s.app { out += row("App", "\(app) (pid \(s.pid ?? 0))" + (s.startedAt.map { ", started \($0)" } ?? "")) }
        out += row("Duration", "\(TimeFormat.duration(s.durationNs)) (\(n(Int(s.eventsPerSecond))) events/s)")
        var complete: String
        if s.endedCleanly {
            complete = style.green("yes") + ": ended cleanly (\(s.endReason ?? "end"))"
        } else {
            complete = style.yellow("no") + ": no end record (the app crashed, was killed, or is still running)"
        }
        if s.lastLineCutShort { complete += "; the last line is cut short" }
        out += row("Complete", complete)
        out += row("Dropped", s.droppedEvents == 0 ? "0 events" : style.yellow("\(s.droppedEvents) events (the trace is incomplete)"))
        out += row("Routers", "\(n(s.routersCreated)) created, \(n(s.routersDeallocated)) deallocated, \(n(s.routersAlive)) alive at the end")
        out += row("Interactors", "\(n(s.interactorsCreated)) created, \(n(s.interactorsDeallocated)) deallocated, \(n(s.interactorsAlive)) alive at the end")
        out += row("Tasks", "\(n(s.tasksStarted)) started, \(n(s.tasksEnded)) ended (\(n(s.tasksCancelled)) cancelled), \(n(s.tasksRunning)) running at the end")
        out += row("Tree depth", "\(s.maxDepth) (deepest attach)")
        out += row("Marks", n(s.marks))
        out += row("Reader", "\(n(s.invalidLines)) invalid lines, \(n(s.unknownKinds.values.reduce(0, +))) records of unknown kinds, \(n(s.unknownFields)) unknown fields")
        out += style.bold("Events by kind:") + "\n"
        let total = max(1, s.events)
        for kind in TraceEvent.Name.allCases.map(\.rawValue) {
            guard let count = s.eventsByKind[kind] else { continue }
            let percent = String(format1: Double(count) * 100 / Double(total))
            out += "  \(kind.padded(to: 12)) \(n(count).padded(to: 11)) \(percent)%\n"
        }
        return out
    }
}
