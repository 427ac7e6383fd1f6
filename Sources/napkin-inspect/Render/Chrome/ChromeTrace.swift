import NapkinTrace

/// What napkin's lifecycles become in the Chrome Trace Event Format
/// (`export --format chrome`; docs/export.md shows it with pictures in words):
///
/// - each trace is a process (``ChromeProcess``: the app's pid and name);
/// - each router (and lone interactor) is an async track of its own
///   (category `napkin.router` or `napkin.interactor`, `id2.local` its id),
///   with one slice `Type#id` from its creation to its deinit and, nested in
///   it, one slice per stretch of one state (``LifeStates``: `active`,
///   `inactive · view shown`, `detached`...); a `view gone` instant marks each
///   time its view was removed;
/// - each bound task is an async track (`napkin.task`) with one slice
///   `Owner#id task 'label'` from its start to its end and, nested in it,
///   `cancel requested` from the cancellation request to its end;
/// - marks and findings are instants on the threads `marks` and `findings`;
///   a finding is also an instant on its subject's track;
/// - every router, lone interactor and its tasks share a thread of its own
///   (`thread_name` `Type#id`), so chrome://tracing groups a router with its
///   tasks; Perfetto groups async tracks per process by their first slice's
///   name, which is the router's (or, for a task, starts with its owner's).
///
/// Every slice that starts ends: one still open when the trace ends (a
/// router never deallocated, a task still running) ends at the trace's last
/// event, with `"unfinished":true` in its end's arguments. Each track's
/// events are written in nesting order, so equal times never cross slices.
enum ChromeTrace {
    /// The categories (`cat`) of the events: a viewer can filter on them.
    enum Category {
        /// A router's lifetime, its states, its findings.
        static let router: StaticString = "napkin.router"
        /// A lone interactor's (one without a router) lifetime and states.
        static let interactor: StaticString = "napkin.interactor"
        /// A bound task.
        static let task: StaticString = "napkin.task"
        /// A mark the app wrote.
        static let mark: StaticString = "napkin.mark"
        /// A finding of the analysis.
        static let finding: StaticString = "napkin.finding"
    }

    /// The thread ids (`tid`) in each process; 0 is not one (Perfetto reads it as "no thread").
    enum Thread {
        /// The marks.
        static let marks = 1
        /// The findings.
        static let findings = 2
        /// The first router's (or lone interactor's); the next ones follow in creation order.
        static let firstNode = 3
    }

    /// Writes `processes`, then the end of the trace, with a summary of each trace in `otherData`.
    static func write(_ processes: [ChromeProcess], to writer: inout ChromeTraceWriter) throws(CommandFailure) {
        for process in processes { try write(process, to: &writer) }
        try writer.finish { other in
            other.objects("traces", processes) { item, process in
                item.arg("file", process.file)
                item.arg("app", process.app)
                if let session = process.history.session {
                    item.arg("pid", session.pid)
                    item.arg("wall_clock_ns", Int(session.wallClock))
                }
                item.arg("exported_pid", process.pid)
                item.arg("end_ns", process.history.endTime)
                item.arg("findings", process.findings.count)
            }
        }
    }

    /// One process: its name, its routers and tasks, its marks and findings.
    private static func write(_ process: ChromeProcess, to writer: inout ChromeTraceWriter) throws(CommandFailure) {
        let pid = process.pid
        let history = process.history
        try writer.processName(process.name, pid: pid)
        var taskIDs: [NodeID: Int] = [:]
        for (index, life) in history.nodes.enumerated() {
            let tid = Thread.firstNode + index
            try writer.threadName(life.name, pid: pid, tid: tid)
            try writeLife(life, in: history, pid: pid, tid: tid, to: &writer)
            for task in life.tasks {
                let occurrence = taskIDs[task.id, default: 0] + 1
                taskIDs[task.id] = occurrence
                try write(task, track: ChromeTrackID(node: task.id, occurrence: occurrence), owner: life, end: history.endTime,
                          pid: pid, tid: tid, to: &writer)
            }
        }
        if !history.marks.isEmpty {
            try writer.threadName("marks", pid: pid, tid: Thread.marks)
            for mark in history.marks {
                try writer.instant(mark.text, category: Category.mark, at: mark.time, pid: pid, tid: Thread.marks) {
                    $0.arg("seq", mark.seq)
                }
            }
        }
        if !process.findings.isEmpty {
            try writer.threadName("findings", pid: pid, tid: Thread.findings)
            let subjects = subjectIndex(history)
            for finding in process.findings {
                try write(finding, subject: (finding.subject == .trace ? nil : subjects[finding.id]).map { (history.nodes[$0], Thread.firstNode + $0) },
                          pid: pid, to: &writer)
            }
        }
    }

    /// A router's (or lone interactor's) track: its lifetime slice, its
    /// states nested in it, and a `view gone` instant per removal of its view.
    private static func writeLife(_ life: TraceHistory.NodeLife, in history: TraceHistory, pid: Int, tid: Int,
                                  to writer: inout ChromeTraceWriter) throws(CommandFailure) {
        let isRouter = life.kind == .router
        let category = isRouter ? Category.router : Category.interactor
        let lifetime = life.created...max(life.deallocated ?? history.endTime, life.created)
        let unfinished = life.deallocated == nil
        let track = ChromeTrackID(node: life.id)
        try writer.begin(life.name, category: category, id: track, at: lifetime.lowerBound, pid: pid, tid: tid) { args in
            args.arg("type", life.type)
            args.arg("id", life.id)
            if let interactor = life.interactor { args.arg("interactor", interactor) }
            args.arg("created_seq", life.createdSeq)
        }
        for stretch in LifeStates.stretches(of: life, lifetime: lifetime) {
            let name = stretch.name(isRouter: isRouter)
            try writer.begin(name, category: category, id: track, at: stretch.start, pid: pid, tid: tid) { args in
                switch stretch.attachment {
                case .attached(let parent): args.arg("attached_to", history.life(of: parent)?.name ?? "#\(parent)")
                case .launched: args.arg("launched", true)
                case .created, .detached: break
                }
            }
            try writer.end(name, category: category, id: track, at: stretch.end, pid: pid, tid: tid,
                           unfinished: unfinished && stretch.end == lifetime.upperBound)
        }
        for removal in life.viewRemoved {
            try writer.asyncInstant("view gone", category: category, id: track, at: removal.time, pid: pid, tid: tid) {
                $0.arg("seq", removal.seq)
            }
        }
        try writer.end(life.name, category: category, id: track, at: lifetime.upperBound, pid: pid, tid: tid,
                       unfinished: unfinished)
    }

    /// A task's track (`track`): its slice, and `cancel requested` nested in it.
    private static func write(_ task: TraceHistory.TaskLife, track: ChromeTrackID, owner: TraceHistory.NodeLife, end: UInt64,
                              pid: Int, tid: Int,
                              to writer: inout ChromeTraceWriter) throws(CommandFailure) {
        let name = "\(owner.name) task " + (task.label.map { "'\($0)'" } ?? "#\(task.id)")
        let span = task.start...max(task.end ?? end, task.start)
        let unfinished = task.end == nil
        try writer.begin(name, category: Category.task, id: track, at: span.lowerBound, pid: pid, tid: tid) { args in
            args.arg("task", task.id)
            if let label = task.label { args.arg("label", label) }
            args.arg("owner", owner.name)
        }
        if let cancel = task.cancel {
            try writer.begin("cancel requested", category: Category.task, id: track, at: cancel.clamped(to: span),
                             pid: pid, tid: tid)
            try writer.end("cancel requested", category: Category.task, id: track, at: span.upperBound, pid: pid, tid: tid,
                           unfinished: unfinished)
        }
        try writer.end(name, category: Category.task, id: track, at: span.upperBound, pid: pid, tid: tid,
                       unfinished: unfinished) { args in
            if let outcome = task.outcome { args.arg("outcome", outcome.rawValue) }
        }
    }

    /// A finding: an instant on the `findings` thread with everything it
    /// says, and one on its subject's track when it is about a router, an
    /// interactor or a task (`subject`: that node's life and thread).
    private static func write(_ finding: Finding, subject: (life: TraceHistory.NodeLife, tid: Int)?, pid: Int,
                              to writer: inout ChromeTraceWriter) throws(CommandFailure) {
        let rule = "\(finding.severity.rawValue)[\(finding.rule.rawValue)]"
        try writer.instant(rule + " " + finding.subjectName, category: Category.finding, at: finding.time, pid: pid,
                           tid: Thread.findings) { args in
            args.arg("rule", finding.rule.rawValue)
            args.arg("severity", finding.severity.rawValue)
            args.arg("subject", finding.subjectName)
            args.arg("message", finding.message)
            args.arg("seqs", finding.seqs)
            args.arg("locations", finding.locations.map(\.description))
            if !finding.tests.isEmpty { args.arg("tests", finding.tests) }
            if let retainers = finding.retainers { args.arg("retained_by", RetainerText.lines(retainers)) }
            args.arg("documentation", finding.rule.documentation)
        }
        guard let subject else { return }
        let category = subject.life.kind == .router ? Category.router : Category.interactor
        try writer.asyncInstant(rule, category: category, id: ChromeTrackID(node: subject.life.id), at: finding.time, pid: pid, tid: subject.tid) {
            $0.arg("message", finding.message)
        }
    }

    /// For each router id and interactor id, the index of its row in
    /// `history.nodes`: a finding's subject (a task finding names its owner's interactor).
    private static func subjectIndex(_ history: TraceHistory) -> [NodeID: Int] {
        var index: [NodeID: Int] = [:]
        for (row, life) in history.nodes.enumerated() {
            if index[life.id] == nil { index[life.id] = row }
            if let interactor = life.interactor, index[interactor] == nil { index[interactor] = row }
        }
        return index
    }
}
