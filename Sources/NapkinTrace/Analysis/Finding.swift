/// A lifecycle bug found in a trace.
///
/// Every finding has a stable ``rule`` identifier (documented in
/// `docs/findings.md`), a severity, the node it is about (type name and id),
/// the sequence numbers of the events that show it, and a one-line explanation.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// A kind of finding: its stable identifier (documented in
    /// `docs/findings.md` under the same anchor), its severity, title,
    /// summary and help.
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
        /// What a finding means, its typical cause and its fix (the rule's
        /// section of `docs/findings.md`, word for word).
        public let help: Help

        /// Declares a rule.
        init(_ id: String, _ severity: Severity, title: String, summary: String, help: Help) {
            self.rawValue = id
            self.severity = severity
            self.title = title
            self.summary = summary
            self.help = help
        }

        /// The rule with this identifier, if there is one.
        public init?(rawValue: String) {
            guard let rule = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = rule
        }

        /// Every rule, in the order the analyzer runs them (``RuleID``'s).
        public static let allCases: [Rule] = RuleID.allCases.map(\.rule)

        /// The rule's section of `docs/findings.md`, relative to the repository root.
        public var documentation: String { "docs/findings.md#\(rawValue)" }

        /// The identifier.
        public var description: String { rawValue }

        /// The same identifier.
        public static func == (a: Rule, b: Rule) -> Bool { a.rawValue == b.rawValue }
        /// Hashes the identifier.
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
    /// The lines of the app's code the finding points at, the one to look at
    /// first (the rule's focus: the attach that was never undone, the task's
    /// start...) first; empty when the trace names no code (`src`).
    public var locations: [CodeReference]
    /// The test (or tests, when they ran in parallel) running when the
    /// finding's first event happened, when the trace marks its tests
    /// (``NapkinTrace/testStarted(_:)``); empty otherwise.
    public var tests: [String] = []
    /// What holds the object, for a finding about a router or interactor
    /// still alive past its grace period, when a retainer search ran in the
    /// process where it lived (the in-app detector, the test check,
    /// ``TraceRecorder``) or the trace carries one (a `retained` record);
    /// nil otherwise. See ``Retainers``.
    ///
    /// Setting it rewrites the end of ``message`` when a path was found:
    /// "something retains it (… a retain cycle?)" becomes what does
    /// ("retained by a cycle through LoggedInInteractor#5.retainedRouter").
    public var retainers: Retainers? {
        didSet { message = RetainedMessage.rewritten(message, by: retainers) }
    }

    /// A line of the app's code and what happened there.
    public struct CodeReference: Sendable, Hashable, CustomStringConvertible {
        /// What the code at a location did.
        public enum Role: String, Sendable, Hashable, CaseIterable {
            /// Attached the router (its last attach).
            case attached
            /// Detached the router (its last detach).
            case detached
            /// Created the router.
            case created
            /// Started the bound task.
            case started
            /// Made the call the finding is about (a misused attach or detach).
            case call
        }

        /// What happened there.
        public var role: Role
        /// Where.
        public var location: CodeLocation

        /// Creates a reference.
        public init(_ role: Role, _ location: CodeLocation) {
            self.role = role
            self.location = location
        }

        /// `RibHouse/LoggedInRouter.swift:57 (attached)`.
        public var description: String { "\(location) (\(role.rawValue))" }
    }

    /// Creates a finding.
    public init(rule: Rule, subject: SubjectKind, type: String, id: NodeID, label: String? = nil,
                seqs: [UInt64], time: UInt64, message: String, locations: [CodeReference] = []) {
        self.rule = rule
        self.subject = subject
        self.type = type
        self.id = id
        self.label = label
        self.seqs = seqs
        self.time = time
        self.message = message
        self.locations = locations
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
