import NapkinTrace

/// One session as the page of `live --web` draws it at one moment: the
/// report's data of its window (``ReportTrace``). Taken under the session's
/// lock (copies, no rendering); the JSON is written after the lock is released.
struct LivePageSnapshot {
    /// The data the report's renderer draws.
    var trace: ReportTrace
    /// The version of the session's ``LivePageHistory`` it shows.
    var version: Int
}

extension LiveSession {
    /// The page's snapshot of this session, or nil when it has none
    /// (without `--web`) or when `version` is already the one it would show.
    func pageSnapshot(unless version: Int?) -> LivePageSnapshot? {
        withState { s -> LivePageSnapshot? in
            guard let page = s.page, page.version != version || version == nil else { return nil }
            let findings = s.analyzer.findings
            var problems: [String] = []
            if let rejection = s.rejection { problems.append("unusable: \(rejection.description)") }
            if let integrity = s.integrity {
                problems += integrity.including(s.analyzer.state).problems.map { "\($0.kind.rawValue): \($0)" }
            }
            if let cut = s.cut { problems.append(cut) }
            if page.history.forgottenBefore > 0 {
                problems.append("note: the page keeps this session's recent history: what ended before t="
                                + TimeFormat.point(page.history.forgottenBefore) + " is forgotten (docs/live.md)")
            }
            let provisional = s.analyzer.provisionalFindings
            let trace = ReportTrace(title: name(in: s), history: page.history, findings: findings,
                                    findingsNotKept: s.analyzer.findingsNotKept, stats: nil, problems: problems,
                                    populations: page.chart(s.analyzer.populations, findings: findings + provisional))
            return LivePageSnapshot(trace: trace, version: page.version)
        }
    }

    /// The session's name from inside its lock (``name`` takes the lock).
    func name(in s: State) -> String {
        s.analyzer.state.session?.heading ?? sourceName
    }

    /// The session's title, findings, whether it runs, and a short printable
    /// note on where it stands ("running, 1,234 events, 1 provisional finding
    /// (growing-population OrderRouter#8)"), for the page's list of sessions.
    func pageHeading() -> (title: String, findings: [Finding], running: Bool, note: String) {
        withState { s in
            var note = s.finished ? (s.rejection != nil ? "not a trace" : s.cut != nil ? "cut" : "ended") : "running"
            note += ", " + NumberFormat.count(s.events, "event")
            let provisional = s.analyzer.provisionalFindings
            if !provisional.isEmpty {
                note += ", " + NumberFormat.count(provisional.count, "provisional finding")
                    + " (" + provisional.prefix(3).map { "\($0.rule.rawValue) \($0.subjectName)" }.joined(separator: ", ") + ")"
            }
            return (name(in: s), s.analyzer.findings, !s.finished, PrintableText.printable(note))
        }
    }
}
