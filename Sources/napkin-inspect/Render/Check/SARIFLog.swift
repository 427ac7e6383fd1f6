/// The objects of a SARIF 2.1.0 log that `check --format sarif` writes
/// (docs/check-output.md), with the property names the standard gives them
/// (camelCase; encoded without ``JSONOutput``'s snake_case). An optional
/// property that is nil is left out.
enum SARIF {
    /// The JSON schema the log names.
    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The version of SARIF written.
    static let version = "2.1.0"
    /// The base id of paths relative to the source root (`--source-root`).
    static let sourceRootBaseID = "%SRCROOT%"

    /// The whole log: its schema, version and runs.
    struct Log: Encodable {
        /// `$schema`: ``SARIF/schema``.
        var schema = SARIF.schema
        /// ``SARIF/version``.
        var version = SARIF.version
        /// One run: every trace checked.
        var runs: [Run]

        private enum CodingKeys: String, CodingKey {
            case schema = "$schema", version, runs
        }
    }

    /// One run of the tool over every trace checked.
    struct Run: Encodable {
        /// napkin-inspect and its rules.
        var tool: Tool
        /// How the run went: exactly one.
        var invocations: [Invocation]
        /// Where ``sourceRootBaseID`` is.
        var originalUriBaseIds: [String: ArtifactLocation]
        /// The findings and trace problems.
        var results: [Result]
    }

    /// The tool: its driver.
    struct Tool: Encodable {
        /// The tool itself (SARIF's "driver", as opposed to plug-ins).
        var driver: Driver
    }

    /// napkin-inspect, its version and its rules.
    struct Driver: Encodable {
        /// `napkin-inspect`.
        var name = "napkin-inspect"
        /// The tool's version.
        var version = NapkinInspect.version
        /// The same, which GitHub prefers (it is a semantic version).
        var semanticVersion = NapkinInspect.version
        /// Every rule a result may name (``SARIFRules``).
        var rules: [ReportingDescriptor]
    }

    /// A rule, as `driver.rules` lists it.
    struct ReportingDescriptor: Encodable {
        /// The rule id (`not-deallocated`).
        var id: String
        /// The id in UpperCamelCase (`NotDeallocated`).
        var name: String
        /// The rule's title.
        var shortDescription: Message
        /// The rule's one-line summary.
        var fullDescription: Message
        /// What it means, typical cause, fix, as text and Markdown.
        var help: Message
        /// Its level: `error` or `warning`.
        var defaultConfiguration: Configuration
        /// Tags, GitHub's severity, the documentation's path.
        var properties: RuleProperties
    }

    /// A rule's default level.
    struct Configuration: Encodable {
        /// `error` or `warning`.
        var level: String
    }

    /// What GitHub reads besides the standard's properties, and where the rule is documented.
    struct RuleProperties: Encodable {
        /// Words code scanning filters alerts by.
        var tags: [String]
        /// `problem.severity`: the level again, as GitHub reads it for rules that are not about security.
        var problemSeverity: String
        /// The rule's section of napkin-inspect's documentation, relative to its repository.
        var documentation: String

        private enum CodingKeys: String, CodingKey {
            case tags, problemSeverity = "problem.severity", documentation
        }
    }

    /// A message: plain text, and Markdown for rule help.
    struct Message: Encodable {
        /// Plain text.
        var text: String
        /// The same in Markdown, when there is a difference.
        var markdown: String?
    }

    /// The one invocation: whether it could decide, its exit status, notes about it.
    struct Invocation: Encodable {
        /// False when a trace could not be read or trusted.
        var executionSuccessful: Bool
        /// The status `check` exits with.
        var exitCode: Int32
        /// What the results do not say.
        var toolExecutionNotifications: [Notification]
    }

    /// A note about the run (findings not kept, allowed, undecided, results not written).
    struct Notification: Encodable {
        /// `warning` or `note`.
        var level: String
        /// What it says.
        var message: Message
    }

    /// One finding or trace problem.
    struct Result: Encodable {
        /// The rule's id.
        var ruleId: String
        /// The rule's index in ``Driver/rules``.
        var ruleIndex: Int
        /// `error` or `warning`.
        var level: String
        /// `Type#id: message`.
        var message: Message
        /// Exactly one: where to look.
        var locations: [Location]
        /// The other code locations that were found.
        var relatedLocations: [Location]?
        /// `napkinFindingHash/v1`, for a finding.
        var partialFingerprints: [String: String]?
        /// Where it comes from in the trace.
        var properties: ResultProperties
    }

    /// Where a result is (or a related place), and what happened there: a
    /// file and line, or, for a function where the trace names no line,
    /// the function alone (SARIF 2.1.0 §3.28: a location without physical
    /// information has no `physicalLocation` and a non-empty
    /// `logicalLocations`). A result's primary location always has a
    /// physical one (GitHub code scanning places an alert by it).
    struct Location: Encodable {
        /// A related location's index among the finding's code locations.
        var id: Int?
        /// The file and line; nil for a function.
        var physicalLocation: PhysicalLocation?
        /// The function, where the trace names no line.
        var logicalLocations: [LogicalLocation]?
        /// What happened there.
        var message: Message?
    }

    /// A function (SARIF 2.1.0 §3.33): `name` `build(withListener:)`,
    /// `fullyQualifiedName` `LoggedInBuilder.build(withListener:)` (Swift's
    /// spelling, without the module), `kind` `function`.
    struct LogicalLocation: Encodable {
        /// The rightmost component: the function and its labels.
        var name: String
        /// The function with its enclosing types.
        var fullyQualifiedName: String
        /// `function`.
        var kind: String
    }

    /// A file and a line.
    struct PhysicalLocation: Encodable {
        /// The file.
        var artifactLocation: ArtifactLocation
        /// The line.
        var region: Region
    }

    /// A file: a URI, relative to a base id when it has one.
    struct ArtifactLocation: Encodable {
        /// Percent-encoded; relative to ``uriBaseId`` when there is one.
        var uri: String
        /// ``SARIF/sourceRootBaseID``, for a relative ``uri``.
        var uriBaseId: String?
        /// What the location is (for a base id).
        var description: Message?
    }

    /// A line (1-based).
    struct Region: Encodable {
        /// The line (at least 1).
        var startLine: UInt
    }

    /// What the result is about in the trace (none of it is part of the fingerprint).
    struct ResultProperties: Encodable {
        /// The trace, as given.
        var trace: String
        /// `router`, `interactor`, `task` or `trace`; absent for a trace problem.
        var subject: String?
        /// The node's id in the trace.
        var nodeId: UInt64?
        /// The events involved.
        var seqs: [UInt64]?
        /// Every code location, `role=Module/File.swift:line` (a function:
        /// `role=Module/Type.function(label:)`), found or not.
        var codeLocations: [String]?
    }
}
