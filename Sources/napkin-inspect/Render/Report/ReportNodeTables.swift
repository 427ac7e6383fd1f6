import NapkinTrace

/// The node lives of one trace as the report's data holds them: the type
/// names and task labels (interned), the tables of ``ReportSchema``
/// (``ReportSchema/Node`` and the tables whose rows belong to a node:
/// attachments, active spans, shown spans, view removals, tasks) and the marks.
///
/// Tables rather than one array per node: each column is named once, so the
/// data says what every number is without growing with the number of rows.
enum ReportNodeTables {
    /// Writes `types`, `labels`, the node tables, `shownNodes`, `totalNodes`
    /// and `marks` of `history`, for its nodes at the indices `kept` (in order).
    static func write(_ history: TraceHistory, kept: [Int], into out: inout ReportJSON) {
        typealias Field = ReportSchema.Trace
        var types = Interned()
        var labels = Interned()
        let lives = kept.map { history.nodes[$0] }
        let typeNumbers = lives.map { types.index($0.type) }
        // The rows that belong to a node, with the node's row.
        var attachments: [(node: Int, attachment: TraceHistory.Attachment)] = []
        var active: [(node: Int, span: TraceHistory.Interval)] = []
        var shown: [(node: Int, span: TraceHistory.Interval)] = []
        var removals: [(node: Int, time: UInt64)] = []
        var tasks: [(node: Int, task: TraceHistory.TaskLife, label: Int)] = []
        for (row, life) in lives.enumerated() {
            attachments += life.attached.map { (row, $0) }
            active += life.active.map { (row, $0) }
            shown += life.shown.map { (row, $0) }
            removals += life.viewRemoved.map { (row, $0.time) }
            tasks += life.tasks.map { (row, $0, $0.label.map { labels.index($0) } ?? -1) }
        }

        out.key(Field.types)
        out.strings(types.names.map(PrintableText.printable))
        out.key(Field.labels)
        out.strings(labels.names.map(PrintableText.printable))
        out.key(Field.nodes)
        out.table(ReportSchema.Node.self, rows: lives.indices) { out, column, row in
            let life = lives[row]
            switch column {
            case .id: out.number(life.id)
            case .type: out.number(typeNumbers[row])
            case .kind: out.number(life.kind == .router ? 0 : 1)
            case .created: out.number(life.created)
            case .deinit: out.number(orMinusOne: life.deallocated)
            case .interactor: out.number(life.interactor ?? 0)
            }
        }
        out.key(Field.attachments)
        out.table(ReportSchema.Attachment.self, rows: attachments) { out, column, row in
            let span = row.attachment.span
            switch column {
            case .node: out.number(row.node)
            case .parent: out.number(row.attachment.parent ?? 0)
            case .start: out.number(span.start)
            case .end: out.number(orMinusOne: span.end)
            case .startSeq: out.number(span.startSeq)
            case .endSeq: out.number(orMinusOne: span.endSeq)
            }
        }
        out.key(Field.active)
        out.table(ReportSchema.Span.self, rows: active) { out, column, row in
            switch column {
            case .node: out.number(row.node)
            case .start: out.number(row.span.start)
            case .end: out.number(orMinusOne: row.span.end)
            case .startSeq: out.number(row.span.startSeq)
            case .endSeq: out.number(orMinusOne: row.span.endSeq)
            }
        }
        out.key(Field.shown)
        out.table(ReportSchema.ShownSpan.self, rows: shown) { out, column, row in
            switch column {
            case .node: out.number(row.node)
            case .start: out.number(row.span.start)
            case .end: out.number(orMinusOne: row.span.end)
            }
        }
        out.key(Field.viewRemovals)
        out.table(ReportSchema.ViewRemoval.self, rows: removals) { out, column, row in
            switch column {
            case .node: out.number(row.node)
            case .time: out.number(row.time)
            }
        }
        out.key(Field.tasks)
        out.table(ReportSchema.Task.self, rows: tasks) { out, column, row in
            switch column {
            case .node: out.number(row.node)
            case .id: out.number(row.task.id)
            case .label: out.number(row.label)
            case .start: out.number(row.task.start)
            case .cancel: out.number(orMinusOne: row.task.cancel)
            case .end: out.number(orMinusOne: row.task.end)
            case .outcome: out.number(row.task.outcome == nil ? 0 : row.task.outcome == .completed ? 1 : 2)
            }
        }
        out.member(Field.shownNodes, kept.count)
        out.member(Field.totalNodes, history.nodes.count)
        out.key(Field.marks)
        out.table(ReportSchema.Mark.self, rows: history.marks.prefix(ReportData.maxNodes)) { out, column, mark in
            switch column {
            case .time: out.number(mark.time)
            case .seq: out.number(mark.seq)
            case .text: out.string(PrintableText.printable(mark.text))
            }
        }
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
