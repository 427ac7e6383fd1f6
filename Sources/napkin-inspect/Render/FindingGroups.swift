import NapkinTrace

/// Findings of one rule about one type, together: a leak repeated 5,000
/// times (every `ItemRouter` of a list) must not bury the one other leak.
/// Groups keep the order in which their first finding was established; each
/// shows its first ``shownPerGroup`` findings and counts the rest.
struct FindingGroups {
    /// How many findings of a group are listed.
    static let shownPerGroup = 3

    /// The findings of one rule about one type.
    struct Group {
        /// The rule.
        var rule: Finding.Rule
        /// The type the findings name (for a task: its owner's type).
        var type: String
        /// The first findings of the group, listed.
        var shown: [Finding] = []
        /// How many more the group has.
        var more = 0

        /// `... and 4,812 more like it (not-deallocated ItemRouter)`.
        var moreText: String {
            "\u{2026} and \(NumberFormat.grouped(more)) more like it (\(rule.rawValue) \(PrintableText.printable(type, limit: 80)))"
        }
    }

    /// The groups, in the order of their first finding.
    private(set) var groups: [Group] = []

    /// Groups `findings` by rule and type.
    init(_ findings: [Finding], shown: Int = shownPerGroup) {
        var index: [String: Int] = [:]
        for finding in findings {
            let key = finding.rule.rawValue + "\u{0}" + finding.type
            if let i = index[key] {
                if groups[i].shown.count < shown { groups[i].shown.append(finding) } else { groups[i].more += 1 }
            } else {
                index[key] = groups.count
                groups.append(Group(rule: finding.rule, type: finding.type, shown: [finding]))
            }
        }
    }
}
