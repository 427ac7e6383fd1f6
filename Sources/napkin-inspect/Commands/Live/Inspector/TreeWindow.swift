import NapkinTrace

/// The part of the tree the inspector shows: `room` rows from the scroll
/// position, the selected one highlighted (reverse video with colours, a
/// `>` in a gutter without), and where the rows are in the whole tree.
///
/// Making it settles the inspector's cursor and scroll against the tree of
/// this frame (``make(_:style:matches:room:inspector:)``): the selection
/// follows its node as the tree changes, unless a key moved it; it never
/// rests on a heading, and the scroll keeps it on screen. A frame walks the
/// rows above the window without drawing them, and draws only the window.
struct TreeWindow {
    /// The rows to draw, `room` at most.
    var lines: [String]
    /// Where the window is when the tree does not fit (`rows 25–48 of 1,234`); nil when it fits.
    var position: String?

    /// The window of `analyzer`'s tree for `inspector`, `room` rows high;
    /// `matches` is the filter's, when one is on. Updates the inspector's
    /// cursor, scroll, selection and page size.
    static func make(_ analyzer: TraceAnalyzer, style: Style, matches: FilterMatches?, room: Int,
                     inspector: inout InspectorState) -> TreeWindow {
        let state = analyzer.state
        let room = max(1, room)
        inspector.pageSize = room
        let keep: ((NodeID) -> Bool)? = matches.map { matches in { matches.kept.contains($0) } }
        let renderer = TreeRenderer(style: style, findings: analyzer.findings)

        // Pass 1: the rows up to the cursor and the window, as ids (nil for a heading).
        let far = inspector.cursor == .max ? Int.max : max(inspector.scroll + room, inspector.cursor + 1)
        let target = far == .max ? Int.max : far + 1
        var ids: [NodeID?] = []
        var walk = TreeRowWalk(state, keep: keep, wanted: target, renderer: renderer)
        while let item = walk.next(drawing: false) { ids.append(item.node?.id) }
        let reachedEnd = ids.count < target
        settle(&inspector, ids: ids, state: state, room: room, reachedEnd: reachedEnd)

        // Pass 2: the window.
        var items: [TreeRowWalk.Item] = []
        walk = TreeRowWalk(state, keep: keep, wanted: inspector.scroll + room, renderer: renderer)
        for _ in 0..<inspector.scroll where walk.next(drawing: false) != nil {}
        while let item = walk.next(drawing: true) { items.append(item) }

        let marks = TreeRenderer.marks(analyzer.findings)
        let names = items.map { $0.node.map(TreeRenderer.name) ?? "" }
        var widths: [Int] = []
        for (item, name) in zip(items, names) {
            if case .node(let entry, _) = item { widths.append(entry.prefix.count + name.count) }
        }
        let width = TreeRenderer.nameColumn(widths)
        let plain = TreeRenderer(style: .plain, findings: analyzer.findings)
        var lines: [String] = []
        for (offset, (item, name)) in zip(items, names).enumerated() {
            let isSelected = inspector.scroll + offset == inspector.cursor && item.node != nil
            var text: String
            switch item {
            case .heading(let heading):
                text = style.bold(heading)
            case .node(let entry, let note):
                text = (isSelected && style.enabled ? plain : renderer)
                    .row(entry, name: name, width: width, note: note, marks: marks, state: state).text
            }
            if !style.enabled {
                text = (isSelected ? "> " : "  ") + text
            } else if isSelected {
                text = "\u{1B}[7m" + text + "\u{1B}[0m"
            }
            lines.append(text)
        }
        if lines.isEmpty {
            lines.append(style.dim(matches == nil ? "(no routers alive)" : "(no router or interactor matches the filter)"))
        }

        var position: String?
        if inspector.scroll > 0 || !reachedEnd || ids.count > inspector.scroll + room {
            let last = inspector.scroll + items.count
            let of = reachedEnd ? NumberFormat.grouped(ids.count) : "more"
            position = "rows \(NumberFormat.grouped(inspector.scroll + 1))\u{2013}\(NumberFormat.grouped(last)) of \(of)"
        }
        return TreeWindow(lines: lines, position: position)
    }

    /// Settles the cursor on a node row among `ids` (the rows walked), the
    /// selection on its node, and the scroll around it.
    private static func settle(_ inspector: inout InspectorState, ids: [NodeID?], state: TraceState, room: Int, reachedEnd: Bool) {
        defer { inspector.cursorMoved = false }
        if !inspector.cursorMoved, let pinned = inspector.selected?.id, let row = ids.firstIndex(of: pinned) {
            inspector.cursor = row
        }
        guard !ids.isEmpty else {
            inspector.cursor = 0
            inspector.scroll = 0
            inspector.selected = nil
            return
        }
        var cursor = min(inspector.cursor, ids.count - 1)
        if ids[cursor] == nil {
            // A heading: step over it the way the cursor was going, else the other way.
            let ahead = stride(from: cursor, to: inspector.direction < 0 ? -1 : ids.count, by: inspector.direction < 0 ? -1 : 1)
                .first { ids[$0] != nil }
            let behind = stride(from: cursor, to: inspector.direction < 0 ? ids.count : -1, by: inspector.direction < 0 ? 1 : -1)
                .first { ids[$0] != nil }
            cursor = ahead ?? behind ?? cursor
        }
        inspector.cursor = cursor
        inspector.selected = ids[cursor].flatMap { id in state[id].map { InspectorState.Pin(id: id, name: $0.name) } }
        var scroll = min(inspector.scroll, cursor)
        if cursor >= scroll + room { scroll = cursor - room + 1 }
        if reachedEnd { scroll = min(scroll, max(0, ids.count - room)) }
        inspector.scroll = max(0, scroll)
    }
}
