import NapkinTrace

/// The findings a team has accepted for now (`check --baseline FILE`): a
/// finding whose ``Finding/fingerprint`` is in the baseline is *known* and
/// does not fail the check; only new ones do. `check --write-baseline FILE`
/// writes one from today's findings (``BaselineFile`` reads and writes the
/// file; docs/check-output.md describes it).
///
/// Unlike the allow-list, which names rules and types by hand, a baseline
/// names exact bugs: one rule, one type, one label and the same lines of
/// code. The same leak at another line is new.
struct Baseline {
    /// One known bug: every finding with this fingerprint.
    struct Entry: Codable, Equatable {
        /// ``Finding/fingerprint``: 16 lowercase hex digits.
        var fingerprint: String
        /// The rule id, e.g. `not-deallocated`.
        var rule: String
        /// The type the findings name (for a task: its owner's type).
        var type: String
        /// A task's label; absent when the findings have none.
        var label: String?
        /// Where the findings point in the code, `Module/File.swift:42 (attached)`.
        var locations: [String]
        /// How many findings had this fingerprint when the baseline was written.
        var count: Int

        /// `orphaned-task PitBoardInteractor 'pit-poller' at RibHouse/PitBoardInteractor.swift:31 (started)`.
        var summary: String {
            "\(rule) \(type)" + (label.map { " '\($0)'" } ?? "") + (locations.first.map { " at \($0)" } ?? "")
        }
    }

    /// The entries, sorted by fingerprint, one per fingerprint.
    private(set) var entries: [Entry]
    /// The fingerprints, for matching.
    private let fingerprints: Set<String>
    /// The fingerprints some finding matched.
    private var matched: Set<String> = []

    /// A baseline of `entries` (as read from a file).
    init(entries: [Entry]) {
        self.entries = entries.sorted { $0.fingerprint < $1.fingerprint }
        fingerprints = Set(entries.map(\.fingerprint))
    }

    /// The baseline of `findings`: one entry per fingerprint, with how many
    /// of the findings have it; the first finding of each names its rule,
    /// type, label and code.
    init(findings: [Finding]) {
        var byFingerprint: [String: Entry] = [:]
        for finding in findings {
            let fingerprint = finding.fingerprint
            if byFingerprint[fingerprint] != nil {
                byFingerprint[fingerprint]?.count += 1
            } else {
                byFingerprint[fingerprint] = Entry(fingerprint: fingerprint, rule: finding.rule.rawValue, type: finding.type,
                                                   label: finding.label, locations: finding.locations.map(\.description), count: 1)
            }
        }
        self.init(entries: Array(byFingerprint.values))
    }

    /// Whether the baseline knows `finding`; remembers that its entry still occurs.
    mutating func knows(_ finding: Finding) -> Bool {
        let fingerprint = finding.fingerprint
        guard fingerprints.contains(fingerprint) else { return false }
        matched.insert(fingerprint)
        return true
    }

    /// Moves the findings of `trace` the baseline knows from its findings to its known ones.
    mutating func setApartKnown(in trace: inout CheckedTrace) {
        var unknown: [Finding] = []
        for finding in trace.findings {
            if knows(finding) { trace.known.append(finding) } else { unknown.append(finding) }
        }
        trace.findings = unknown
    }

    /// The entries no finding matched: the bugs they name are fixed (or now allowed), so they can go.
    var noLongerOccurring: [Entry] { entries.filter { !matched.contains($0.fingerprint) } }

    /// How many findings the entries count.
    var findingCount: Int { entries.reduce(0) { $0 + $1.count } }

    /// The most entries the no-longer-occurring note names.
    static let namedInNote = 5

    /// `2 baseline entries no longer occur: ... (remove them: --write-baseline FILE)`,
    /// or nil when every entry still occurs.
    func noLongerOccurringNote(path: String) -> String? {
        let gone = noLongerOccurring
        guard !gone.isEmpty else { return nil }
        var named = gone.prefix(Self.namedInNote).map { PrintableText.printable($0.summary, limit: 200) }.joined(separator: "; ")
        if gone.count > Self.namedInNote { named += "; \u{2026} and \(gone.count - Self.namedInNote) more" }
        let head = gone.count == 1 ? "1 baseline entry no longer occurs" : "\(NumberFormat.grouped(gone.count)) baseline entries no longer occur"
        return "note: \(head): \(named) (remove \(gone.count == 1 ? "it" : "them"): --write-baseline \(path))"
    }
}
