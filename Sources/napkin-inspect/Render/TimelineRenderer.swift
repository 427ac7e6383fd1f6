import NapkinTrace

/// Draws each router's lifecycle over time as text: a time axis, one row per
/// router (indented by its depth in the tree) with bands for attached and
/// active, attached and inactive, detached but alive, and a mark where it was
/// deallocated; a view lane under routers whose view layer reported their view
/// (``viewRow(_:scale:end:)``); a row of task marks under routers that ran
/// bound tasks; the marks the app wrote; a legend.
///
/// Colour only comes from ``Style``; every band also has its own character, so
/// the chart reads the same without colour.
struct TimelineRenderer {
    /// Colours, or none.
    var style: Style
    /// Total width in columns (at least 40 is used).
    var width: Int
    /// Only the rows this filter accepts (all when nil).
    var filter: NodeFilter?
    /// At most this many marks are listed under the chart.
    static let maxListedMarks = 40
    /// At most this many routers get a row; the rest are counted.
    static let maxRows = 1_000
    /// Names and captions longer than this are cut before they are fitted to the label column.
    static let maxLabel = 200

    /// The character of each band and of a mark.
    enum Glyph {
        static let active: Character = "\u{2588}"     // █
        static let inactive: Character = "\u{2592}"   // ▒
        static let detached: Character = "\u{2591}"   // ░
        static let deallocated: Character = "\u{00D7}" // ×
        static let mark: Character = "*"
    }

    /// The rendered lines (no trailing newlines).
    func lines(_ history: TraceHistory) -> [String] {
        let matching = history.nodes.filter { filter?.matches($0) ?? true }
        let rows = Array(matching.prefix(Self.maxRows))
        let end = history.endTime
        let start: UInt64 = filter == nil ? 0 : (rows.map(\.created).min() ?? 0)
        let stop = max(end, start == .max ? start : start + 1)
        let totalWidth = max(40, width)

        var out = [titleLine(history, matching: matching.count, start: start, stop: stop, width: totalWidth)]
        if rows.isEmpty {
            out.append(style.dim("(no routers in this trace)"))
            return out
        }
        let layout = Layout(self, history: history, rows: rows, start: start, stop: stop, width: totalWidth)
        out += axisLines(layout)
        let marks = history.marks.filter { $0.time >= start && $0.time <= stop }
        if !marks.isEmpty {
            var cells = [Character](repeating: " ", count: layout.scale.columns)
            for mark in marks { cells[layout.scale.column(mark.time)] = Glyph.mark }
            out.append(style.dim("marks".padded(to: layout.labelWidth)) + " " + style.blue(String(cells).trimmingTrailingSpaces()))
        }
        for (k, life) in rows.enumerated() {
            out += routerLines(life, at: k, layout, end: end)
        }
        if matching.count > rows.count {
            out.append(style.dim("\u{2026} \(NumberFormat.grouped(matching.count - rows.count)) more not shown; pick the routers to chart with --node NAME"))
        }
        if !marks.isEmpty { out += markList(marks, width: totalWidth) }
        out.append("")
        out += legend(width: totalWidth, views: layout.viewCaptions.contains { $0 != nil })
        return out
    }

    // MARK: - Layout

    /// Where everything goes: each row's label and captions, the label
    /// column's width, the time scale of the chart beside it.
    private struct Layout {
        /// Each row's label (indented by its depth without a filter).
        var labels: [String]
        /// Each row's task caption, if it ran tasks.
        var captions: [String?]
        /// Each row's view caption, if it has a view lane.
        var viewCaptions: [String?]
        /// The label column's width.
        var labelWidth: Int
        /// Trace time to columns.
        var scale: Scale
        /// Blanks as wide as the label column and the space after it.
        var gutter: String

        /// The layout of `rows` (of `history`) from `start` to `stop` in `width` columns.
        init(_ renderer: TimelineRenderer, history: TraceHistory, rows: [TraceHistory.NodeLife], start: UInt64, stop: UInt64, width: Int) {
            // Depth of each router in the tree (by the parent it first attached to).
            var depth: [NodeID: Int] = [:]
            for life in history.nodes {
                if let parent = life.attached.first?.parent, let d = depth[parent] { depth[life.id] = min(d + 1, 12) } else { depth[life.id] = 0 }
            }
            labels = rows.map { life in
                String(repeating: "  ", count: renderer.filter == nil ? depth[life.id] ?? 0 : 0)
                    + PrintableText.printable(life.name, limit: TimelineRenderer.maxLabel) + (life.kind == .interactor ? " (interactor)" : "")
            }
            let indents = labels.map { $0.prefix { $0 == " " }.count }
            captions = zip(rows, indents).map { renderer.taskCaption($0, indent: $1) }
            viewCaptions = zip(rows, indents).map { TimelineRenderer.hasViewLane($0) ? TimelineRenderer.viewCaption(indent: $1) : nil }
            let widest = zip(zip(labels, captions), viewCaptions).map { max($0.0.count, $0.1?.count ?? 0, $1?.count ?? 0) }.max() ?? 0
            labelWidth = min(max(12, widest), max(12, width * 2 / 5))
            let columns = max(10, width - labelWidth - 1)
            scale = Scale(start: start, stop: stop, columns: columns)
            gutter = String(repeating: " ", count: labelWidth + 1)
        }
    }

    /// The title: the process, then how many routers over how long (or
    /// how many match the filter, and when); cut to `width` without style.
    private func titleLine(_ history: TraceHistory, matching: Int, start: UInt64, stop: UInt64, width: Int) -> String {
        let routerCount = history.nodes.count
        let title = history.session.map { PrintableText.printable($0.heading, limit: width) } ?? "trace"
        let filterName = filter.map { PrintableText.printable($0.name, limit: 60) } ?? ""
        let what = filter.map { _ in "\(matching) of \(routerCount) matching '\(filterName)', \(Self.span(start)) to \(Self.span(stop))" }
            ?? "\(routerCount) \(routerCount == 1 ? "router" : "routers") over \(Self.span(stop))"
        let plainTitle = title + ": " + what
        if plainTitle.count > width {
            return String(plainTitle.prefix(width - 1)) + "\u{2026}"
        }
        return style.bold(title) + style.dim(": " + what)
    }

    /// The axis: tick labels, then a ruler.
    private func axisLines(_ layout: Layout) -> [String] {
        let scale = layout.scale
        let columns = scale.columns
        let ticks = scale.ticks(minimumSpacing: min(12, max(7, columns / 3)))
        var tickLine = [Character](repeating: " ", count: columns + 12)
        var ruler = [Character](repeating: "\u{2500}", count: columns)
        var free = 0
        for tick in ticks {
            let column = scale.column(tick.time)
            ruler[column] = "\u{252C}"
            let text = Array(tick.text)
            // A label starts at its tick; the last one may end there instead.
            let at = column + text.count <= columns ? column : column + 1 - text.count
            guard at >= free else { continue }
            for (k, ch) in text.enumerated() { tickLine[at + k] = ch }
            free = at + text.count + 1
        }
        return [layout.gutter + style.dim(String(tickLine).trimmingTrailingSpaces()), layout.gutter + style.dim(String(ruler))]
    }

    /// Row `k`, `life`: its band, then its view lane and its task row when it has them.
    private func routerLines(_ life: TraceHistory.NodeLife, at k: Int, _ layout: Layout, end: UInt64) -> [String] {
        let scale = layout.scale
        var lines = [fit(layout.labels[k], layout.labelWidth, bold: true) + " " + band(life, scale: scale, end: end).trimmingTrailingSpaces()]
        if let caption = layout.viewCaptions[k] {
            lines.append(style.dim(fit(caption, layout.labelWidth, bold: false)) + " " + viewRow(life, scale: scale, end: end).trimmingTrailingSpaces())
        }
        if let caption = layout.captions[k] {
            lines.append(style.dim(fit(caption, layout.labelWidth, bold: false)) + " " + taskRow(life, scale: scale, end: end).trimmingTrailingSpaces())
        }
        return lines
    }

    /// The marks under the chart: time and text, at most ``maxListedMarks``.
    private func markList(_ marks: [TraceMark], width: Int) -> [String] {
        var lines = ["", style.bold("Marks:")]
        let timeWidth = marks.prefix(Self.maxListedMarks).map { TimeFormat.point($0.time).count }.max() ?? 0
        for mark in marks.prefix(Self.maxListedMarks) {
            let markText = PrintableText.printable(mark.text, limit: width)
            let text = markText.count > width - timeWidth - 4 ? String(markText.prefix(max(1, width - timeWidth - 5))) + "\u{2026}" : markText
            lines.append("  " + style.dim(TimeFormat.point(mark.time).padded(to: timeWidth)) + "  " + text)
        }
        if marks.count > Self.maxListedMarks {
            lines.append(style.dim("  \u{2026} \(marks.count - Self.maxListedMarks) more marks"))
        }
        return lines
    }

    // MARK: - Rows

    /// The label of a router's task row (`  3 tasks: poll, refresh`), or nil
    /// without tasks; at most a few distinct names, each printable.
    private func taskCaption(_ life: TraceHistory.NodeLife, indent: Int) -> String? {
        guard !life.tasks.isEmpty else { return nil }
        var names: [String] = []
        var seen = Set<String>()
        for task in life.tasks {
            let name = task.label.map { PrintableText.printable($0, limit: 40) } ?? "task"
            if seen.insert(name).inserted { names.append(name) }
            if names.count > 4 { break }
        }
        if names.count > 4 { names[4] = "\u{2026}" }
        let count = life.tasks.count
        return String(repeating: " ", count: indent + 2) + (count == 1 ? "task" : "\(NumberFormat.grouped(count)) tasks") + ": " + names.joined(separator: ", ")
    }

    /// Band levels: 0 nothing, 1 detached but alive, 2 attached inactive, 3 attached active, 4 deallocated.
    private func band(_ life: TraceHistory.NodeLife, scale: Scale, end: UInt64) -> String {
        var level = [UInt8](repeating: 0, count: scale.columns)
        func paint(_ from: UInt64, _ to: UInt64?, _ value: UInt8) {
            let to = to ?? end
            guard to >= scale.start, from <= scale.stop else { return }
            let a = scale.column(max(from, scale.start)), b = scale.column(min(max(to, from), scale.stop))
            for column in a...b where level[column] < value { level[column] = value }
        }
        paint(life.created, life.deallocated ?? end, 1)
        if life.kind == .interactor {
            for span in life.active { paint(span.start, span.end, 3) }
        } else {
            let attachedSpans = life.attached.map(\.span)
            for span in attachedSpans { paint(span.start, span.end, 2) }
            for attached in attachedSpans {
                for active in life.active {
                    let from = max(attached.start, active.start)
                    let to = min(attached.end ?? end, active.end ?? end)
                    if from <= to { paint(from, to, 3) }
                }
            }
        }
        if let gone = life.deallocated, gone >= scale.start, gone <= scale.stop { level[scale.column(gone)] = 4 }

        var text = ""
        var k = 0
        while k < level.count {
            var j = k
            while j < level.count && level[j] == level[k] { j += 1 }
            let n = j - k
            switch level[k] {
            case 1: text += style.yellow(String(repeating: Glyph.detached, count: n))
            case 2: text += style.cyan(String(repeating: Glyph.inactive, count: n))
            case 3: text += style.green(String(repeating: Glyph.active, count: n))
            case 4: text += style.red(String(repeating: Glyph.deallocated, count: n))
            default: text += String(repeating: " ", count: n)
            }
            k = j
        }
        return text
    }

    /// Task marks: `[` start, `]` end, `!` cancel requested, `-` running,
    /// `~` running after the cancellation request, `>` still running at the end.
    private func taskRow(_ life: TraceHistory.NodeLife, scale: Scale, end: UInt64) -> String {
        let rank: [Character: Int] = [" ": 0, "-": 1, "~": 2, ">": 3, "]": 4, "[": 5, "|": 5, "!": 6]
        var cells = [Character](repeating: " ", count: scale.columns)
        func put(_ column: Int, _ ch: Character) {
            if rank[ch]! > rank[cells[column]]! { cells[column] = ch }
        }
        for task in life.tasks {
            let stopTime = task.end ?? end
            guard stopTime >= scale.start, task.start <= scale.stop else { continue }
            let a = scale.column(max(task.start, scale.start)), b = scale.column(min(stopTime, scale.stop))
            let c = task.cancel.map { scale.column(min(max($0, scale.start), scale.stop)) }
            if b > a + 1 {
                for column in (a + 1)..<b { put(column, c.map { column > $0 } == true ? "~" : "-") }
            }
            if task.start >= scale.start { put(a, a == b && task.end != nil ? "|" : "[") }
            if task.end != nil { if a != b { put(b, "]") } } else { put(b, ">") }
            if let c { put(c, "!") }
        }
        return style.runs(cells) { cell, run in
            switch cell {
            case "-": style.dim(run)
            case "~", ">": style.red(run)
            case "!": style.yellow(run)
            default: run
            }
        }
    }

    /// The legend, wrapped to `width`: bands and marks, tasks, and with
    /// `views` the view lane (each group starts a line).
    private func legend(width: Int, views: Bool) -> [String] {
        // (plain text for measuring, styled text for printing)
        var items: [(String, String)] = [
            ("\(Glyph.active) attached, active", style.green(String(Glyph.active)) + " attached, active"),
            ("\(Glyph.inactive) attached, inactive", style.cyan(String(Glyph.inactive)) + " attached, inactive"),
            ("\(Glyph.detached) detached, alive", style.yellow(String(Glyph.detached)) + " detached, alive"),
            ("\(Glyph.deallocated) deallocated", style.red(String(Glyph.deallocated)) + " deallocated"),
            ("\(Glyph.mark) mark", style.blue(String(Glyph.mark)) + " mark"),
            ("tasks: [ start", "tasks: [ start"),
            ("] end", "] end"),
            ("! cancel requested", style.yellow("!") + " cancel requested"),
            ("- running", style.dim("-") + " running"),
            ("~ running after cancel", style.red("~") + " running after cancel"),
            ("> still running", style.red(">") + " still running"),
        ]
        let groupStarts: Set<Int> = [5, items.count]
        if views { items += viewLegendItems }
        var lines: [String] = []
        var line = style.dim("Legend:")
        var used = 7
        for (k, item) in items.enumerated() {
            let newLine = groupStarts.contains(k)
            if newLine || used + 2 + item.0.count > width {
                lines.append(line)
                line = "       "
                used = 7
            }
            line += "  " + item.1
            used += 2 + item.0.count
        }
        lines.append(line)
        return lines
    }

    // MARK: - Helpers

    /// A moment of the trace for the title: `0`, `850ms`, `3.2s`.
    static func span(_ ns: UInt64) -> String {
        ns == 0 ? "0" : TimeFormat.duration(ns)
    }

    /// Pads or cuts `text` to exactly `width` columns.
    private func fit(_ text: String, _ width: Int, bold: Bool) -> String {
        let cut = text.count > width ? String(text.prefix(width - 1)) + "\u{2026}" : text
        let leading = cut.prefix { $0 == " " }
        let body = String(cut.dropFirst(leading.count))
        return String(leading) + (bold ? style.bold(body) : body) + String(repeating: " ", count: max(0, width - cut.count))
    }
}
