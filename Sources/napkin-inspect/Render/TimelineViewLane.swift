import NapkinTrace

/// The view lane of the text timeline: under a router whose view layer
/// reported its view, a row that says when the view was shown (`=`), covered
/// (`.`: off screen, still in place) and each time it was removed (`<`:
/// popped, dismissed). Routers without view reports get no lane, so a trace
/// without view events charts as it always did.
///
/// Shown spans never overlap, nor do covered ones, so a lane costs the
/// columns of the chart plus one per span, whatever the spans.
extension TimelineRenderer {
    /// The characters of the view lane.
    enum ViewGlyph {
        static let shown: Character = "="
        static let covered: Character = "."
        static let removed: Character = "<"
    }

    /// Whether `life` gets a view lane: its view layer reported its view at least once.
    static func hasViewLane(_ life: TraceHistory.NodeLife) -> Bool {
        !life.shown.isEmpty || !life.viewRemoved.isEmpty
    }

    /// The lane's label: `view`, indented under the router's name.
    static func viewCaption(indent: Int) -> String {
        String(repeating: " ", count: indent + 2) + "view"
    }

    /// The spans during which `life`'s view was covered: from the end of a
    /// shown span that no removal ended, to the next shown span, the next
    /// removal, the router's deinit or the end of the trace.
    static func coveredSpans(_ life: TraceHistory.NodeLife, end: UInt64) -> [(start: UInt64, stop: UInt64)] {
        var spans: [(start: UInt64, stop: UInt64)] = []
        var removal = 0
        for (k, span) in life.shown.enumerated() {
            guard let from = span.end else { continue }
            while removal < life.viewRemoved.count && life.viewRemoved[removal].seq < (span.endSeq ?? 0) { removal += 1 }
            if removal < life.viewRemoved.count && life.viewRemoved[removal].seq == span.endSeq { continue }
            var stop = min(life.deallocated ?? end, end)
            if k + 1 < life.shown.count { stop = min(stop, life.shown[k + 1].start) }
            if removal < life.viewRemoved.count { stop = min(stop, life.viewRemoved[removal].time) }
            if stop > from { spans.append((from, stop)) }
        }
        return spans
    }

    /// The lane of `life`: `=` shown, `.` covered, `<` removed (a removal wins its column).
    func viewRow(_ life: TraceHistory.NodeLife, scale: Scale, end: UInt64) -> String {
        var cells = [Character](repeating: " ", count: scale.columns)
        let rank: [Character: Int] = [" ": 0, ViewGlyph.covered: 1, ViewGlyph.shown: 2, ViewGlyph.removed: 3]
        func paint(_ from: UInt64, _ to: UInt64, _ glyph: Character) {
            guard to >= scale.start, from <= scale.stop else { return }
            let a = scale.column(max(from, scale.start)), b = scale.column(min(max(to, from), scale.stop))
            for column in a...b where rank[glyph, default: 0] > rank[cells[column], default: 0] { cells[column] = glyph }
        }
        for span in Self.coveredSpans(life, end: end) { paint(span.start, span.stop, ViewGlyph.covered) }
        for span in life.shown { paint(span.start, span.end ?? end, ViewGlyph.shown) }
        for removal in life.viewRemoved { paint(removal.time, removal.time, ViewGlyph.removed) }

        return style.runs(cells) { cell, run in
            switch cell {
            case ViewGlyph.shown: style.blue(run)
            case ViewGlyph.covered: style.dim(run)
            case ViewGlyph.removed: style.yellow(run)
            default: run
            }
        }
    }

    /// The legend's items for the view lane: (plain text for measuring, styled text for printing).
    var viewLegendItems: [(String, String)] {
        [
            ("view: \(ViewGlyph.shown) shown", "view: " + style.blue(String(ViewGlyph.shown)) + " shown"),
            ("\(ViewGlyph.covered) covered", style.dim(String(ViewGlyph.covered)) + " covered"),
            ("\(ViewGlyph.removed) gone (popped, dismissed)", style.yellow(String(ViewGlyph.removed)) + " gone (popped, dismissed)"),
        ]
    }
}
