import Foundation
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
    /// One line of the file: `RULE [TYPE [LABEL]]`.
    struct Entry {
        /// A rule id, or `*`.
        var rule: String
        /// A type name, or `*`.
        var type: String
        /// A task label, or `*`.
        var label: String
        /// The entry's line number in the file.
        var line: Int
        /// Whether a finding matched the entry.
        var used = false

        /// Whether the entry allows `finding`.
        func matches(_ finding: Finding) -> Bool {
            (rule == "*" || rule == finding.rule.rawValue)
                && (type == "*" || type == finding.type)
                && (label == "*" || label == (finding.label ?? ""))
        }
    }

    /// The entries, in file order.
    private(set) var entries: [Entry] = []

    /// An empty allow-list: it allows nothing.
    init() {}

    /// The allow-list in the file at `path` (`--allow`), or an empty one when there is none.
    static func load(_ path: String?) throws(CommandFailure) -> AllowList {
        guard let path else { return AllowList() }
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure("cannot read the allow-list \(path) (check the path)")
        }
        return try AllowList(path: path, contents: contents)
    }

    /// The allow-list in `contents`, read from `path` (named in errors).
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

    /// Moves the findings of `trace` the allow-list allows from its findings
    /// to its allowed ones, in order; marks the entries that matched as used.
    mutating func setApartAllowed(in trace: inout CheckedTrace) {
        var kept: [Finding] = []
        for finding in trace.findings {
            if allows(finding) { trace.allowed.append(finding) } else { kept.append(finding) }
        }
        trace.findings = kept
    }

    /// The entries no finding matched.
    var unused: [Entry] { entries.filter { !$0.used } }
}
