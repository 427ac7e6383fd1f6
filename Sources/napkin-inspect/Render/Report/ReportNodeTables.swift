import NapkinTrace

/// The node lives of one trace as the report's data holds them: the type
/// names and task labels (interned), the tables of ``ReportSchema``
/// (``ReportSchema/Node`` and the tables whose rows belong to a node:
/// attachments, active spans, shown spans, view removals, tasks) and the marks.
///
/// Tables rather than one array per node: each column is named once, so the
/// data says what every number is without growing with the number of rows.
enum ReportNodeTables {
    /// Writes `types`, `labels`, `lines`, the node tables, `shownNodes`, `totalNodes`
    /// and `marks` of `history`, for its nodes at the indices `kept` (in order),
    /// code locations shown as `sources` shows them.
    static func write(_ history: TraceHistory, kept: [Int], sources: SourceRoot, into out: inout ReportJSON) {
        typealias Field = ReportSchema.Trace
        let lives = KeptLives(history: history, kept: kept)
        var types = Interned()
        var labels = Interned()
        var lines = Interned()
        let typeNumbers = kept.map { types.index(history.nodes[$0].type) }
        let rows = OwnedRows(lives, labels: &labels)
        func number(_ location: CodeLocation?) -> Int { location.map { lines.index(sources.display($0)) } ?? -1 }
        let createdLines = kept.map { number(history.nodes[$0].createdAt) }
        let attachLines = rows.attachments.map { row in
            let attachment = lives[row.node].attached[row.item]
            return (number(attachment.at), number(attachment.detachedAt))
        }

        out.key(Field.types)
        out.strings(types.names.map(PrintableText.printable))
        out.key(Field.labels)
        out.strings(labels.names.map(PrintableText.printable))
        out.key(Field.lines)
        out.strings(lines.names.map(PrintableText.printable))
        writeNodes(lives, typeNumbers: typeNumbers, createdLines: createdLines, into: &out)
        writeAttachments(rows.attachments, lives, lines: attachLines, into: &out)
        writeSpans(rows, lives, into: &out)
        writeTasks(rows, lives, into: &out)
        out.member(Field.shownNodes, kept.count)
        out.member(Field.totalNodes, history.nodes.count)
        writeMarks(history.marks, into: &out)
    }

    // MARK: - Tables

    /// Writes `nodes`: a row for each kept node, its type as its number in `types`.
    private static func writeNodes(_ lives: KeptLives, typeNumbers: [Int], createdLines: [Int], into out: inout ReportJSON) {
        out.key(ReportSchema.Trace.nodes)
        out.table(ReportSchema.Node.self, rows: lives.kept.indices) { out, column, row in
            let life = lives[row]
            switch column {
            case .id: out.number(life.id)
            case .type: out.number(typeNumbers[row])
            case .kind: out.number(life.kind == .router ? 0 : 1)
            case .created: out.number(life.created)
            case .createdSeq: out.number(life.createdSeq)
            case .deinit: out.number(orMinusOne: life.deallocated)
            case .interactor: out.number(life.interactor ?? 0)
            case .createdLine: out.number(createdLines[row])
            }
        }
    }

    /// Writes `attachments`: each span a kept node was attached (or launched).
    private static func writeAttachments(_ attachments: [Owned], _ lives: KeptLives, lines: [(Int, Int)], into out: inout ReportJSON) {
        out.key(ReportSchema.Trace.attachments)
        out.table(ReportSchema.Attachment.self, rows: attachments.indices) { out, column, index in
            let row = attachments[index]
            let attachment = lives[row.node].attached[row.item]
            let span = attachment.span
            switch column {
            case .node: out.number(row.node)
            case .parent: out.number(attachment.parent ?? 0)
            case .start: out.number(span.start)
            case .end: out.number(orMinusOne: span.end)
            case .startSeq: out.number(span.startSeq)
            case .endSeq: out.number(orMinusOne: span.endSeq)
            case .line: out.number(lines[index].0)
            case .endLine: out.number(lines[index].1)
            }
        }
    }

    /// Writes `active`, `shown` and `viewRemovals`: the kept nodes' active
    /// spans, shown spans and view removals.
    private static func writeSpans(_ rows: OwnedRows, _ lives: KeptLives, into out: inout ReportJSON) {
        typealias Field = ReportSchema.Trace
        out.key(Field.active)
        out.table(ReportSchema.Span.self, rows: rows.active) { out, column, row in
            let span = lives[row.node].active[row.item]
            switch column {
            case .node: out.number(row.node)
            case .start: out.number(span.start)
            case .end: out.number(orMinusOne: span.end)
            case .startSeq: out.number(span.startSeq)
            case .endSeq: out.number(orMinusOne: span.endSeq)
            }
        }
        out.key(Field.shown)
        out.table(ReportSchema.ShownSpan.self, rows: rows.shown) { out, column, row in
            let span = lives[row.node].shown[row.item]
            switch column {
            case .node: out.number(row.node)
            case .start: out.number(span.start)
            case .end: out.number(orMinusOne: span.end)
            }
        }
        out.key(Field.viewRemovals)
        out.table(ReportSchema.ViewRemoval.self, rows: rows.removals) { out, column, row in
            switch column {
            case .node: out.number(row.node)
            case .time: out.number(lives[row.node].viewRemoved[row.item].time)
            }
        }
    }

    /// Writes `tasks`: the kept nodes' tasks, each label as its number in `labels`.
    private static func writeTasks(_ rows: OwnedRows, _ lives: KeptLives, into out: inout ReportJSON) {
        let tasks = rows.tasks
        out.key(ReportSchema.Trace.tasks)
        out.table(ReportSchema.Task.self, rows: tasks.indices) { out, column, number in
            let row = tasks[number], task = lives[row.node].tasks[row.item]
            switch column {
            case .node: out.number(row.node)
            case .id: out.number(task.id)
            case .label: out.number(rows.taskLabels[number])
            case .start: out.number(task.start)
            case .cancel: out.number(orMinusOne: task.cancel)
            case .end: out.number(orMinusOne: task.end)
            case .outcome: out.number(task.outcome == nil ? 0 : task.outcome == .completed ? 1 : 2)
            }
        }
    }

    /// Writes `marks`: the first ``ReportData/maxNodes`` of `marks`.
    private static func writeMarks(_ marks: [TraceMark], into out: inout ReportJSON) {
        out.key(ReportSchema.Trace.marks)
        out.table(ReportSchema.Mark.self, rows: marks.prefix(ReportData.maxNodes)) { out, column, mark in
            switch column {
            case .time: out.number(mark.time)
            case .seq: out.number(mark.seq)
            case .text: out.string(PrintableText.printable(mark.text))
            }
        }
    }

    // MARK: - Rows

    /// The lives of the kept nodes, by their row in `nodes`.
    private struct KeptLives {
        /// The whole history.
        let history: TraceHistory
        /// The indices in `history.nodes` of the nodes kept, in order.
        let kept: [Int]

        /// The life of the node on row `row` of `nodes`.
        subscript(row: Int) -> TraceHistory.NodeLife { history.nodes[kept[row]] }
    }

    /// The rows of the tables whose rows belong to a node, in node order.
    private struct OwnedRows {
        /// The rows of `attachments`, `active`, `shown`, `viewRemovals` and `tasks`.
        var attachments: [Owned] = [], active: [Owned] = [], shown: [Owned] = [], removals: [Owned] = [], tasks: [Owned] = []
        /// The number in `labels` of each task's label (-1: none), by row of `tasks`.
        var taskLabels: [Int] = []

        /// The rows of the nodes of `lives`, their task labels interned in `labels`.
        init(_ lives: KeptLives, labels: inout Interned) {
            for row in lives.kept.indices {
                let life = lives[row]
                attachments += life.attached.indices.map { Owned(node: row, item: $0) }
                active += life.active.indices.map { Owned(node: row, item: $0) }
                shown += life.shown.indices.map { Owned(node: row, item: $0) }
                removals += life.viewRemoved.indices.map { Owned(node: row, item: $0) }
                tasks += life.tasks.indices.map { Owned(node: row, item: $0) }
                taskLabels += life.tasks.map { $0.label.map { labels.index($0) } ?? -1 }
            }
        }
    }

    /// A row that belongs to a node: the node's row in `nodes`, and the
    /// index of the item (attachment, span, removal, task) in its life's list.
    private struct Owned {
        /// The node's row in `nodes`.
        var node: Int
        /// The item's index in the node's list.
        var item: Int
    }

    /// Strings numbered in order of first use.
    private struct Interned {
        /// The strings, by number.
        private(set) var names: [String] = []
        /// The number of each string.
        private var numbers: [String: Int] = [:]

        /// The number of `name`, given a new one the first time.
        mutating func index(_ name: String) -> Int {
            if let number = numbers[name] { return number }
            numbers[name] = names.count
            names.append(name)
            return names.count - 1
        }
    }
}
