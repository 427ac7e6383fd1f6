import NapkinTrace

/// Known findings to ignore, from a file a team keeps next to its CI config.
///
/// One entry per line: `RULE [TYPE [LABEL]]`, `*` matching anything, `#`
/// starting a comment. `TYPE` is the type name the finding names (for a task:
/// its owner's type); `LABEL` is a task's label.
///
///     # known, tracked in JIRA-123
///     not-deallocated ImageCacheRouter
///     orphaned-task PitBoardInteractor pit-poller
///     duplicate-child *
struct AllowList {
    struct Entry {
        var rule: String
        var type: String
        var label: String
        var line: Int
        var used = false

        func matches(_ finding: Finding) -> Bool {
            (rule == "*" || rule == finding.rule.rawValue)
                && (type == "*" || type == finding.type)
                && (label == "*" || label == (finding.label ?? ""))
        }
    }

    private(set) var entries: [Entry] = []

    init() {}

    init(path: String, contents: String) throws(CommandFailure) {
        let known = Set(Finding.Rule.allCases.map(\.rawValue))
        // Split on any line break: in a Swift String "\r\n" is one Character, not "\n",
        // so a file with CRLF line endings would otherwise be read as a single line.
        for (number, rawLine) in contents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            guard words.count <= 3 else {
                throw CommandFailure("\(path):\(number + 1): too many words; an entry is RULE [TYPE [LABEL]]")
            }
            guard words[0] == "*" || known.contains(words[0]) else {
                throw CommandFailure("\(path):\(number + 1): unknown rule '\(words[0])'; the rules are \(Finding.Rule.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            entries.append(Entry(rule: words[0], type: words.count > 1 ? words[1] : "*",
                                 label: words.count > 2 ? words[2] : "*", line: number + 1))
        }
    }

    /// Whether `finding` is allowed; marks the matching entry as used.
    mutating func allows(_ finding: Finding) -> Bool {
        guard let index = entries.firstIndex(where: { $0.matches(finding) }) else { return false }
        entries[index].used = true
        return true
    }

    var unused: [Entry] { entries.filter { !$0.used } }
}
