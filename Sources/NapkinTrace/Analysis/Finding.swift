/// A lifecycle bug found in a trace.
///
/// Every finding has a stable ``rule`` identifier (documented in
/// `docs/findings.md`), a severity, the node it is about (type name and id),
/// the sequence numbers of the events that show it, and a one-line explanation.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of findings, with their stable identifiers.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// A router still attached to a parent that left the tree and was
        /// deallocated, and that did not deallocate with it.
        case undetachedChild = "undetached-child"
        /// A router or interactor that left the tree and was not deallocated
        /// within the grace period: something retains it (a retain cycle?).
        case notDeallocated = "not-deallocated"
        /// A bound task still running a grace period after its owner
        /// deactivated or went away, or at the end of the trace while its owner
        /// is inactive or gone: it ignores cancellation.
        case orphanedTask = "orphaned-task"
        /// A task started while its owner was inactive.
        case taskStartedInactive = "task-started-inactive"
        /// An interactor still active a grace period after its router left the tree.
        case activeAfterDetach = "active-after-detach"
        /// A parent with two attached children of the same type at once: the
        /// older one was probably never detached (back navigation).
        case duplicateChild = "duplicate-child"
        /// A router attached while it was already attached.
        case doubleAttach = "double-attach"
        /// A detach of a router that was not a child of that parent.
        case detachNonChild = "detach-non-child"
        /// An event about a router or interactor after its deinit.
        case eventAfterDeinit = "event-after-deinit"
        /// The app dropped events: the trace is incomplete and may hide findings.
        case eventsDropped = "events-dropped"
        /// With `expectTeardown`: something still alive at the end of the trace.
        case aliveAtEnd = "alive-at-end"

        /// The severity findings of this rule have.
        public var severity: Severity {
            switch self {
            case .undetachedChild, .notDeallocated, .orphanedTask, .activeAfterDetach, .aliveAtEnd: .error
            case .taskStartedInactive, .duplicateChild, .doubleAttach, .detachNonChild, .eventAfterDeinit, .eventsDropped: .warning
            }
        }

        /// A short title for reports.
        public var title: String {
            switch self {
            case .undetachedChild: "un-detached child"
            case .notDeallocated: "not deallocated"
            case .orphanedTask: "orphaned task"
            case .taskStartedInactive: "task started while inactive"
            case .activeAfterDetach: "active after detach"
            case .duplicateChild: "duplicate child"
            case .doubleAttach: "double attach"
            case .detachNonChild: "detach of a non-child"
            case .eventAfterDeinit: "event after deinit"
            case .eventsDropped: "events dropped"
            case .aliveAtEnd: "alive at end"
            }
        }
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
