import NapkinTrace

/// A finding of one run with the path of what it is about, so that it can
/// be found again in another run.
public struct LocatedFinding: Sendable, Hashable {
    /// The finding, as the analysis established it.
    public var finding: Finding
    /// The path of its router (for an interactor or a task: its owner's
    /// router), or nil for a finding about the whole trace or a node the
    /// trace's history does not know.
    public var path: TracePath?

    /// A finding and its path.
    public init(_ finding: Finding, path: TracePath?) {
        self.finding = finding
        self.path = path
    }
}

/// Pairs the findings of two runs: the same rule about the same type path
/// (``TracePath/typePath``: occurrence numbers aside) with the same task
/// label is the same finding; ids, sequence numbers, times, messages and
/// code lines are not compared (they change between recordings, and a pull
/// request moves lines). A finding about the whole trace is matched by its
/// rule. Several findings with one key are paired one to one, those at the
/// very same path first; what is left over is new (AFTER) or fixed (BEFORE).
enum FindingMatch {
    /// What is compared.
    struct Key: Hashable {
        /// The rule's id.
        var rule: String
        /// What the finding is about.
        var subject: Subject
        /// The task's label, for task findings.
        var label: String?
    }

    /// What a finding is about, as far as matching cares.
    enum Subject: Hashable {
        /// A router's type path (``TracePath/typePathKey``).
        case typePath(Int)
        /// The whole trace.
        case trace
        /// A node the history does not know, by its kind and type name.
        case unknown(Finding.SubjectKind, String)
    }

    /// The key of `located`.
    static func key(_ located: LocatedFinding) -> Key {
        let finding = located.finding
        let subject: Subject
        if finding.subject == .trace {
            subject = .trace
        } else if let path = located.path {
            subject = .typePath(path.typePathKey)
        } else {
            subject = .unknown(finding.subject, finding.type)
        }
        return Key(rule: finding.rule.rawValue, subject: subject, label: finding.subject == .task ? finding.label : nil)
    }

    /// The findings of `after` no finding of `before` matches (new), those of
    /// `before` none of `after` matches (fixed), and those of `after` that
    /// have a match (still there), each in its run's order.
    static func pair(before: [LocatedFinding], after: [LocatedFinding])
        -> (new: [LocatedFinding], fixed: [LocatedFinding], kept: [LocatedFinding]) {
        var beforeByKey: [Key: [Int]] = [:]
        for (i, located) in before.enumerated() { beforeByKey[key(located), default: []].append(i) }
        var afterByKey: [Key: [Int]] = [:]
        for (i, located) in after.enumerated() { afterByKey[key(located), default: []].append(i) }

        var matchedBefore = [Bool](repeating: false, count: before.count)
        var matchedAfter = [Bool](repeating: false, count: after.count)
        for (key, afterIndices) in afterByKey {
            guard let beforeIndices = beforeByKey[key] else { continue }
            // The same path first (the same occurrence of the same screen), then in order.
            var byPath: [TracePath?: ArraySlice<Int>] = [:]
            for j in beforeIndices { byPath[before[j].path, default: []].append(j) }
            var unpaired: [Int] = []
            for i in afterIndices {
                if let j = byPath[after[i].path]?.popFirst() {
                    matchedBefore[j] = true
                    matchedAfter[i] = true
                } else {
                    unpaired.append(i)
                }
            }
            for (i, j) in zip(unpaired, beforeIndices.filter { !matchedBefore[$0] }) {
                matchedAfter[i] = true
                matchedBefore[j] = true
            }
        }
        let new = after.indices.filter { !matchedAfter[$0] }.map { after[$0] }
        let kept = after.indices.filter { matchedAfter[$0] }.map { after[$0] }
        let fixed = before.indices.filter { !matchedBefore[$0] }.map { before[$0] }
        return (new, fixed, kept)
    }
}
