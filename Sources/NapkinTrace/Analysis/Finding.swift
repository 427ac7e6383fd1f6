/// A lifecycle bug found in a trace.
///
/// Every finding has a stable ``rule`` identifier (documented in
/// `docs/findings.md`), a severity, the node it is about (type name and id),
/// the sequence numbers of the events that show it, and a one-line explanation.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// A kind of finding: its stable identifier (documented in
    /// `docs/findings.md` under the same anchor), its severity and title.
    ///
    /// Each rule's value is declared next to its logic, in
    /// `Sources/NapkinTrace/Analysis/Rules/`; ``allCases`` lists them in the
    /// order the analyzer runs them.
    public struct Rule: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The stable identifier, e.g. `not-deallocated`.
        public let rawValue: String
        /// The severity findings of this rule have.
        public let severity: Severity
        /// A short title for reports, e.g. "not deallocated".
        public let title: String
        /// What the rule finds, in one line (the table of `docs/findings.md`).
        public let summary: String

        /// Declares a rule.
        init(_ id: String, _ severity: Severity, title: String, summary: String) {
            self.rawValue = id
            self.severity = severity
            self.title = title
            self.summary = summary
        }

        /// The rule with this identifier, if there is one.
        public init?(rawValue: String) {
            guard let rule = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = rule
        }

        /// Every rule, in the order the analyzer runs them.
        public static var allCases: [Rule] { FindingRules.all }

        /// The rule's section of `docs/findings.md`, relative to the repository root.
        public var documentation: String { "docs/findings.md#\(rawValue)" }

        /// The identifier.
        public var description: String { rawValue }

        public static func == (a: Rule, b: Rule) -> Bool { a.rawValue == b.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// A leak or a lifecycle bug.
        case error
        /// Suspicious: misuse of the lifecycle, or an incomplete trace.
        case warning
    }

    /// What a finding is about.
    public enum SubjectKind: String, Sendable, Hashable {
        /// A router.
        case router
        /// An interactor.
        case interactor
        /// A bound task (its ``Finding/type`` is the owner's type).
        case task
        /// The trace as a whole.
        case trace
    }

    /// The rule that found it.
    public var rule: Rule
    /// The rule's severity.
    public var severity: Severity { rule.severity }
    /// What the finding is about.
    public var subject: SubjectKind
    /// The node's type name (for a task: its owner's type name).
    public var type: String
    /// The node's id (0 for the trace as a whole).
    public var id: NodeID
    /// The task's label, for task findings.
    public var label: String?
    /// Sequence numbers of the events involved, oldest first.
    public var seqs: [UInt64]
    /// Trace time (ns) at which the finding was established.
    public var time: UInt64
    /// One line: what happened and what it means.
    public var message: String

    /// Creates a finding.
    public init(rule: Rule, subject: SubjectKind, type: String, id: NodeID, label: String? = nil,
                seqs: [UInt64], time: UInt64, message: String) {
        self.rule = rule
        self.subject = subject
        self.type = type
        self.id = id
        self.label = label
        self.seqs = seqs
        self.time = time
        self.message = message
    }

    /// `Type#id` (or `Type#id 'label'` for tasks).
    public var subjectName: String {
        if subject == .trace { return "trace" }
        if let label { return "\(type)#\(id) '\(label)'" }
        return "\(type)#\(id)"
    }

    /// `error[not-deallocated] HomeRouter#12: message (seq 40, 52)`.
    public var description: String {
        let seqText = seqs.isEmpty ? "" : " (seq \(seqs.map(String.init).joined(separator: ", ")))"
        return "\(severity.rawValue)[\(rule.rawValue)] \(subjectName): \(message)\(seqText)"
    }
}

// Temporary home of the rule declarations (they move next to their logic).
extension Finding.Rule {
    public static let undetachedChild = Finding.Rule("undetached-child", .error, title: "un-detached child",
        summary: "a router still attached to a parent that was deallocated, and still alive")
    public static let notDeallocated = Finding.Rule("not-deallocated", .error, title: "not deallocated",
        summary: "a router (or interactor) that left the tree and was not deallocated: a leak")
    public static let orphanedTask = Finding.Rule("orphaned-task", .error, title: "orphaned task",
        summary: "a bound task that keeps running after its interactor deactivated or went away")
    public static let taskStartedInactive = Finding.Rule("task-started-inactive", .warning, title: "task started while inactive",
        summary: "a bound task started while its interactor was inactive")
    public static let activeAfterDetach = Finding.Rule("active-after-detach", .error, title: "active after detach",
        summary: "an interactor still active after its router left the tree")
    public static let duplicateChild = Finding.Rule("duplicate-child", .warning, title: "duplicate child",
        summary: "a parent with two attached children of the same type")
    public static let doubleAttach = Finding.Rule("double-attach", .warning, title: "double attach",
        summary: "a router attached while already attached")
    public static let detachNonChild = Finding.Rule("detach-non-child", .warning, title: "detach of a non-child",
        summary: "a detach of a router that is not the parent's child")
    public static let eventAfterDeinit = Finding.Rule("event-after-deinit", .warning, title: "event after deinit",
        summary: "an event about a router or interactor after its deinit")
    public static let eventsDropped = Finding.Rule("events-dropped", .warning, title: "events dropped",
        summary: "the app dropped trace events; the trace is incomplete")
    public static let aliveAtEnd = Finding.Rule("alive-at-end", .error, title: "alive at end",
        summary: "with --expect-teardown: something still alive at the end")
}

enum FindingRules {
    static let all: [Finding.Rule] = [.undetachedChild, .notDeallocated, .orphanedTask, .taskStartedInactive, .activeAfterDetach,
                                      .duplicateChild, .doubleAttach, .detachNonChild, .eventAfterDeinit, .eventsDropped, .aliveAtEnd]
}
