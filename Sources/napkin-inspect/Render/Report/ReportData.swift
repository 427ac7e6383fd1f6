import NapkinTrace

/// The data of one trace as the report's script reads it: a compact JSON
/// object (see `docs/report.md`, "The embedded data") with every node's life
/// as flat arrays of numbers, type names and labels interned, the findings
/// with their rule's meaning and fix, and the stats.
///
/// Times are nanoseconds since the session started, `-1` meaning "never" or
/// "still open at the end". Memory and size grow with the number of nodes the
/// trace created, not with its number of events; past ``maxNodes`` nodes a
/// sample is kept (every node a finding names or that is alive at the end,
/// then evenly spaced others) and the report says how many it shows.
enum ReportData {
    /// The most node lives one trace's data holds.
    static let maxNodes = 200_000
    /// The most findings one trace's data holds.
    static let maxFindings = 2_000

    /// `trace` as the report's JSON, its code locations looked up in `sources`.
    static func json(_ trace: ReportTrace, sources: SourceRoot) -> String {
        var out = ReportJSON()
        out.openObject()
        out.member("title", trace.title)
        if let session = trace.history?.session {
            out.member("app", session.app)
            out.member("pid", session.pid)
            out.member("part", session.part)
            out.member("wallMs", session.wallClock / 1_000_000)
        }
        out.member("end", trace.history?.endTime ?? 0)
        if let history = trace.history { writeNodes(history, findings: trace.findings, into: &out) }
        writeFindings(trace, sources: sources, into: &out)
        writeStats(trace.stats, into: &out)
        out.key("problems")
        out.openArray()
        for problem in trace.problems { out.string(problem) }
        out.closeArray()
        out.member("setApart", trace.setApart)
        out.member("notKept", trace.findingsNotKept + max(0, trace.findings.count - maxFindings))
        out.closeObject()
        return out.text
    }

    /// `types`, `labels`, `nodes`, `shownNodes`/`totalNodes` and `marks`.
    private static func writeNodes(_ history: TraceHistory, findings: [Finding], into out: inout ReportJSON) {
        let kept = keptNodes(history, findings: findings)
        var types = Interned()
        var labels = Interned()
        // The rows first: they number the type names and labels, listed after them.
        out.key("nodes")
        out.openArray()
        for index in kept {
            let life = history.nodes[index]
            out.openArray()
            out.number(life.id)
            out.number(types.index(life.type))
            out.number(life.kind == .router ? 0 : 1)
            out.number(life.created)
            out.number(life.createdSeq)
            out.number(orMinusOne: life.deallocated)
            out.number(life.interactor ?? 0)
            out.openArray()
            for attachment in life.attached {
                out.number(attachment.parent ?? 0)
                out.number(attachment.span.start)
                out.number(orMinusOne: attachment.span.end)
                out.number(attachment.span.startSeq)
                out.number(orMinusOne: attachment.span.endSeq)
            }
            out.closeArray()
            writeIntervals(life.active, into: &out)
            writeIntervals(life.shown, into: &out)
            out.openArray()
            for removal in life.viewRemoved { out.number(removal.time) }
            out.closeArray()
            out.openArray()
            for task in life.tasks {
                out.number(task.id)
                if let label = task.label { out.number(labels.index(label)) } else { out.number(-1) }
                out.number(task.start)
                out.number(orMinusOne: task.cancel)
                out.number(orMinusOne: task.end)
                out.number(task.outcome == nil ? 0 : task.outcome == .completed ? 1 : 2)
            }
            out.closeArray()
            out.closeArray()
        }
        out.closeArray()
        out.key("types")
        out.openArray()
        for name in types.names { out.string(name) }
        out.closeArray()
        out.key("labels")
        out.openArray()
        for name in labels.names { out.string(name) }
        out.closeArray()
        out.member("shownNodes", kept.count)
        out.member("totalNodes", history.nodes.count)
        out.key("marks")
        out.openArray()
        for mark in history.marks.prefix(maxNodes) {
            out.openArray()
            out.number(mark.time)
            out.number(mark.seq)
            out.string(mark.text)
            out.closeArray()
        }
        out.closeArray()
    }

    /// Intervals as `start, end, startSeq, endSeq` repeated.
    private static func writeIntervals(_ intervals: [TraceHistory.Interval], into out: inout ReportJSON) {
        out.openArray()
        for interval in intervals {
            out.number(interval.start)
            out.number(orMinusOne: interval.end)
            out.number(interval.startSeq)
            out.number(orMinusOne: interval.endSeq)
        }
        out.closeArray()
    }

    /// The indices of the nodes to keep, in order: all of them up to `limit`
    /// (``maxNodes``), else those findings name and those alive at the end,
    /// then evenly spaced others, `limit` in all.
    static func keptNodes(_ history: TraceHistory, findings: [Finding], limit: Int = maxNodes) -> [Int] {
        let maxNodes = limit
        let count = history.nodes.count
        guard count > maxNodes else { return Array(0..<count) }
        let named = Set(findings.map(\.id))
        var keep = [Bool](repeating: false, count: count)
        var kept = 0
        for (index, life) in history.nodes.enumerated()
        where named.contains(life.id) || (life.interactor.map(named.contains) ?? false) || life.deallocated == nil {
            if kept < maxNodes {
                keep[index] = true
                kept += 1
            }
        }
        let room = maxNodes - kept
        if room > 0 {
            let others = keep.indices.filter { !keep[$0] }
            for step in 0..<min(room, others.count) {
                keep[others[step * others.count / room]] = true
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// `findings` and `help` (the meaning and fix of each rule that occurs).
    private static func writeFindings(_ trace: ReportTrace, sources: SourceRoot, into out: inout ReportJSON) {
        out.key("findings")
        out.openArray()
        var rules: [Finding.Rule] = []
        for finding in trace.findings.prefix(maxFindings) {
            if !rules.contains(finding.rule) { rules.append(finding.rule) }
            out.openObject()
            out.member("rule", finding.rule.rawValue)
            out.member("severity", finding.severity.rawValue)
            out.member("subject", finding.subject.rawValue)
            out.member("name", finding.subjectName)
            out.member("id", finding.id)
            out.member("time", finding.time)
            out.key("seqs")
            out.openArray()
            for seq in finding.seqs { out.number(seq) }
            out.closeArray()
            out.member("message", finding.message)
            out.key("locations")
            out.openArray()
            for reference in finding.locations {
                out.openArray()
                out.string(reference.role.rawValue)
                out.string(sources.display(reference.location))
                out.closeArray()
            }
            out.closeArray()
            out.key("tests")
            out.openArray()
            for test in finding.tests { out.string(test) }
            out.closeArray()
            out.closeObject()
        }
        out.closeArray()
        out.key("help")
        out.openObject()
        for rule in rules {
            out.key(rule.rawValue)
            out.openArray()
            out.string(rule.title)
            out.string(rule.help.meaning)
            out.string(rule.help.fix)
            out.closeArray()
        }
        out.closeObject()
    }

    /// `stats` (label, value rows) and `kinds` (name, count rows), as `stats` prints them.
    private static func writeStats(_ stats: TraceStats?, into out: inout ReportJSON) {
        out.key("stats")
        out.openArray()
        var kinds: [(String, String)] = []
        if let stats {
            for line in StatsText.render(stats, style: .plain).split(separator: "\n").map(String.init) {
                if line.hasPrefix("  ") {
                    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    if words.count >= 2 { kinds.append((words[0], words[1])) }
                } else if !line.hasSuffix(":") {
                    let label = String(line.prefix(13)).trimmingTrailingSpaces()
                    out.openArray()
                    out.string(label)
                    out.string(String(line.dropFirst(13)))
                    out.closeArray()
                }
            }
        }
        out.closeArray()
        out.key("kinds")
        out.openArray()
        for (kind, count) in kinds {
            out.openArray()
            out.string(kind)
            out.string(count)
            out.closeArray()
        }
        out.closeArray()
    }

    /// Strings numbered in order of first use.
    private struct Interned {
        /// The strings, by number.
        private(set) var names: [String] = []
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

