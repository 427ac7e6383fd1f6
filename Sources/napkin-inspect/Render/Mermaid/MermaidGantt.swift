import NapkinTrace

extension MermaidRenderer {
    /// At most this many routers (sections) in a Gantt chart.
    static let maxSections = 200
    /// At most this many bars in one Gantt section.
    static let maxBarsPerSection = 40
    /// At most this many marks in a Gantt chart.
    static let maxMarks = 40
    /// Task labels longer than this are shortened (a section has up to ``maxBarsPerSection`` of them).
    static let maxTaskLabel = 40

    /// A `gantt` chart with one section per router (and per lone interactor), one
    /// row per bar (mermaid's compact mode would put a short bar's text over the next one):
    /// `attached` bars, `detached (alive)` bars while it is alive but not attached,
    /// `active` bars for its interactor, `view shown` bars and a `view gone`
    /// milestone per removal (popped, dismissed) when its view layer reported
    /// its view, one bar per bound task (red from the cancellation request
    /// while it keeps running), and a `deinit` milestone.
    /// Marks are milestones in a section of their own. Times are milliseconds
    /// since the start of the session (`dateFormat x`).
    static func gantt(_ history: TraceHistory, filter: NodeFilter? = nil) -> String {
        let end = history.endTime
        let selected = history.nodes.filter { filter?.matches($0) ?? true }
        var body: [String] = []
        var size = 0
        var sections = 0
        var longest = 8
        let minGap = max(2_000_000, end / 200)

        for life in selected {
            guard sections < maxSections, size < maxCharacters else { break }
            // A section is drawn whole, and only if it fits.
            let text = ["  section \(name(life.type, life.id))"] + GanttSection(life, end: end, minGap: minGap).bars
            let added = Self.size(of: text)
            guard size + added <= maxCharacters else { break }
            body += text
            size += added
            sections += 1
            longest = max(longest, min(maxLabel, life.type.count) + 2 + String(life.id).count)
        }
        if filter == nil && !history.marks.isEmpty {
            body += ganttMarks(history.marks, end: end, size: &size)
        }
        let title = ganttTitle(history, filter: filter, shown: sections, of: selected.count)
        if selected.isEmpty { body.append("  section no routers"); body.append("    nothing traced :milestone, e0, 0, 0ms") }
        return (ganttHeader(title: title, end: end, longest: longest) + body).joined(separator: "\n") + "\n"
    }

    /// Marks: a milestone each, in a section of their own (one row per task,
    /// so texts never overlap), while `size` stays within ``maxCharacters``.
    private static func ganttMarks(_ marks: [TraceMark], end: UInt64, size: inout Int) -> [String] {
        var lines = ["  section marks"]
        for (k, mark) in marks.enumerated() {
            guard k < maxMarks, size < maxCharacters else {
                lines.append("    #8230; \(marks.count - k) more marks :milestone, k\(k), \(ms(end)), 0ms")
                break
            }
            let line = "    \(statement(mark.text, limit: 60)) :milestone, k\(k), \(ms(mark.time)), 0ms"
            lines.append(line)
            size += line.utf8.count + 1
        }
        return lines
    }

    /// The chart's title: the app, the filter, and how many sections did not fit.
    private static func ganttTitle(_ history: TraceHistory, filter: NodeFilter?, shown: Int, of selected: Int) -> String {
        var title = history.session.map { String($0.app.prefix(60)) + " (pid \($0.pid))" } ?? "trace"
        title += ": lifecycles"
        if let filter { title += " of '\(filter.name.prefix(60))'" }
        if selected > shown { title += ", \u{2026} \(selected - shown) more not shown" }
        return title
    }

    /// The chart's front matter and settings: room on the left for the
    /// `longest` section name, the title, times in milliseconds.
    private static func ganttHeader(title: String, end: UInt64, longest: Int) -> [String] {
        let padding = min(420, max(120, longest * 7 + 24))
        return [
            "---",
            "config:",
            "  gantt:",
            "    leftPadding: \(padding)",
            "---",
            "gantt",
            "  title \(escape(title, limit: 160))",
            "  dateFormat x",
            "  axisFormat \(axisFormat(end))",
            "  todayMarker off",
        ]
    }

    // MARK: - A section

    /// The rows of one router's (or lone interactor's) section: at most
    /// ``maxBarsPerSection`` bars and milestones, then a row counting the
    /// rest, the `deinit` milestone, or a `created` milestone when nothing else is there.
    private struct GanttSection {
        /// The router or interactor.
        let life: TraceHistory.NodeLife
        /// The end of the trace: where open bars end.
        let end: UInt64
        /// The rows, in order.
        private(set) var bars: [String] = []
        /// Bars and milestones asked for, drawn or not.
        private var count = 0

        /// The section of `life`; spans detached for less than `minGap` are left out.
        init(_ life: TraceHistory.NodeLife, end: UInt64, minGap: UInt64) {
            self.life = life
            self.end = end
            let gone = life.deallocated ?? end
            addAttachments(gone: gone, minGap: minGap)
            for (k, span) in life.active.enumerated() {
                bar("active", tags: "active", id: "n\(life.id)b\(k)", from: span.start, to: span.end)
            }
            for (k, span) in life.shown.enumerated() {
                bar("view shown", tags: nil, id: "n\(life.id)s\(k)", from: span.start, to: span.end)
            }
            for (k, removal) in life.viewRemoved.enumerated() {
                milestone("    view gone :milestone, n\(life.id)r\(k), \(ms(removal.time)), 0ms")
            }
            addTasks()
            if count > maxBarsPerSection {
                bars.append("    #8230; \(count - maxBarsPerSection) more :n\(life.id)m, \(ms(gone)), \(ms(gone) + 1)")
            }
            if let deallocated = life.deallocated {
                bars.append("    deinit :milestone, n\(life.id)d, \(ms(deallocated)), 0ms")
            }
            if bars.isEmpty { bars.append("    created :milestone, n\(life.id)n, \(ms(life.created)), 0ms") }
        }

        /// Attached spans, and the time alive but not attached after them
        /// (short gaps, like the moment between a detach and the deinit, are left out).
        private mutating func addAttachments(gone: UInt64, minGap: UInt64) {
            var cursor: UInt64?
            for (k, attachment) in life.attached.enumerated() {
                let span = attachment.span
                if let from = cursor, span.start > from, span.start - from >= minGap {
                    bar("detached (alive)", tags: "done", id: "n\(life.id)x\(k)", from: from, to: span.start)
                }
                bar(attachment.parent == nil ? "launched" : "attached", tags: nil, id: "n\(life.id)a\(k)", from: span.start, to: span.end)
                cursor = span.end ?? end
            }
            guard life.kind == .router else { return }
            let from = cursor ?? life.created
            if gone > from && (life.deallocated == nil || gone - from >= minGap) {
                bar(cursor == nil ? "never attached (alive)" : "detached (alive)", tags: life.deallocated == nil ? "crit" : "done",
                    id: "n\(life.id)x\(life.attached.count)", from: from, to: gone)
            }
        }

        /// One bar per bound task, red from the cancellation request while it keeps running.
        private mutating func addTasks() {
            for (k, task) in life.tasks.enumerated() {
                guard count < maxBarsPerSection else { count += 1; continue }
                // Starts with our own word, so the label can never be read as a keyword.
                let label = "task" + (task.label.map { " '" + escape($0, limit: maxTaskLabel) + "'" } ?? "")
                if let cancel = task.cancel {
                    bar(label, tags: "done", id: "n\(life.id)t\(k)", from: task.start, to: cancel)
                    if (task.end ?? end) > cancel && ms(task.end ?? end) > ms(cancel) {
                        bar(label + " after cancel", tags: "crit", id: "n\(life.id)c\(k)", from: cancel, to: task.end)
                    }
                } else {
                    bar(label, tags: task.end == nil ? "crit" : "done", id: "n\(life.id)t\(k)", from: task.start, to: task.end)
                }
            }
        }

        /// A bar from `start` to `stop` (the end of the trace when open), at least one millisecond long.
        private mutating func bar(_ text: String, tags: String?, id: String, from start: UInt64, to stop: UInt64?) {
            guard count < maxBarsPerSection else { count += 1; return }
            count += 1
            let a = ms(start)
            var b = ms(stop ?? end)
            if b <= a { b = a + 1 }  // visible, however short
            bars.append("    \(text) :\(tags.map { "\($0), " } ?? "")\(id), \(a), \(b)")
        }

        /// A milestone row, counted with the bars.
        private mutating func milestone(_ row: String) {
            guard count < maxBarsPerSection else { count += 1; return }
            count += 1
            bars.append(row)
        }
    }

    // MARK: - Helpers

    /// Nanoseconds to whole milliseconds.
    private static func ms(_ ns: UInt64) -> UInt64 { ns / 1_000_000 }

    /// A d3 time format for the axis that reads well for a trace of this length
    /// (dates are milliseconds since the session start, shown as seconds or minutes).
    static func axisFormat(_ end: UInt64) -> String {
        if end < 10_000_000_000 { return "%-S.%L s" }
        if end < 60_000_000_000 { return "%-S s" }
        return "%-M:%S"
    }
}
