import Foundation
import NapkinTrace

/// `napkin-inspect stats FILE`: counts, rates, event mix, completeness.
enum StatsCommand {
    struct Stats: Encodable {
        var path: String
        var bytes: Int
        var events: Int
        var app: String?
        var pid: Int?
        var formatVersion: Int?
        var startedAt: String?
        var durationNs: UInt64
        var eventsPerSecond: Double
        var endedCleanly: Bool
        var endReason: String?
        var lastLineCutShort: Bool
        var droppedEvents: UInt64
        var routersCreated = 0
        var routersDeallocated = 0
        var interactorsCreated = 0
        var interactorsDeallocated = 0
        var routersAlive = 0
        var interactorsAlive = 0
        var tasksStarted = 0
        var tasksEnded = 0
        var tasksCancelled = 0
        var tasksRunning = 0
        var maxDepth = 0
        var marks = 0
        var eventsByKind: [String: Int] = [:]
        var invalidLines: Int
        var unknownKinds: [String: Int]
        var unknownFields: Int
    }

    static func run(_ context: CommandContext) throws -> Int32 {
        var state = TraceState()
        var routerIDs = Set<NodeID>()
        var cancelled = 0
        var maxDepth = 0
        var endReason: String?
        var routersDeallocated = 0, interactorsDeallocated = 0
        let summary = try TraceInput(path: context.tracePath).read { event in
            switch event.kind {
            case .routerCreated(let id, _, _, _): routerIDs.insert(id)
            case .deallocated(let id):
                if let node = state[id] {
                    if node.kind == .router { routersDeallocated += 1 } else { interactorsDeallocated += 1 }
                }
            case .taskEnd(_, let outcome): if outcome == .cancelled { cancelled += 1 }
            case .sessionEnd(let reason): endReason = reason
            default: break
            }
            state.apply(event)
            if case .attach(_, let child) = event.kind {
                var depth = 0
                var cursor = state[child]?.parent
                while let parent = cursor, depth < 10_000 {
                    depth += 1
                    cursor = state[parent]?.parent
                }
                maxDepth = max(maxDepth, depth)
            }
            return true
        }
        var counts: [String: Int] = [:]
        for name in TraceEvent.Name.allCases where state.eventCount(name) > 0 { counts[name.rawValue] = state.eventCount(name) }
        let routersAlive = state.routerCount
        var stats = Stats(
            path: context.tracePath, bytes: summary.bytes, events: summary.events,
            app: state.session?.app, pid: state.session?.pid, formatVersion: state.session?.version,
            startedAt: state.session.map { iso8601($0.wallClock) },
            durationNs: state.time,
            eventsPerSecond: state.time > 0 ? Double(summary.events) / (Double(state.time) / 1e9) : 0,
            endedCleanly: state.ended, endReason: endReason, lastLineCutShort: summary.endedMidLine,
            droppedEvents: state.droppedEvents,
            invalidLines: summary.invalidLines, unknownKinds: summary.unknownKinds, unknownFields: summary.unknownFields)
        stats.routersCreated = counts["router", default: 0]
        stats.interactorsCreated = counts["interactor", default: 0]
        stats.routersDeallocated = routersDeallocated
        stats.interactorsDeallocated = interactorsDeallocated
        stats.routersAlive = routersAlive
        stats.interactorsAlive = state.interactorCount
        stats.tasksStarted = state.tasksStarted
        stats.tasksEnded = state.tasksEnded
        stats.tasksCancelled = cancelled
        stats.tasksRunning = state.taskCount
        stats.maxDepth = maxDepth
        stats.marks = counts["mark", default: 0]
        stats.eventsByKind = counts

        if context.arguments.value("format") == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            Output.write(String(decoding: (try? encoder.encode(stats)) ?? Data(), as: UTF8.self) + "\n")
            return ExitStatus.success
        }
        Output.write(text(stats, style: context.style))
        return ExitStatus.success
    }

    static func text(_ s: Stats, style: Style) -> String {
        func row(_ label: String, _ value: String) -> String { style.bold(label.padded(to: 13)) + value + "\n" }
        func n(_ value: Int) -> String { grouped(value) }
        var out = ""
        out += row("Trace", "\(s.path) (\(bytes(s.bytes)), \(n(s.events)) events, format v\(s.formatVersion.map(String.init) ?? "?"))")
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

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format1: Double(count) / 1024) + " KiB" }
        return String(format1: Double(count) / 1048576) + " MiB"
    }

    static func iso8601(_ unixNanoseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(unixNanoseconds) / 1e9)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
