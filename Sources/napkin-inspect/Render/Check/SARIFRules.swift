import NapkinTrace

/// The rules of `check --format sarif` (`tool.driver.rules`): one per
/// finding rule, in `Finding.Rule.allCases` order (so a finding's
/// `ruleIndex` is its rule's place there), then `trace-integrity`, the rule
/// of trace problems.
enum SARIFRules {
    /// The id of the rule of trace problems (the name of JUnit's test case for them, too).
    static let integrity = "trace-integrity"
    /// The index of ``integrity`` in ``descriptors``.
    static var integrityIndex: Int { Finding.Rule.allCases.count }

    /// Every rule's descriptor.
    static var descriptors: [SARIF.ReportingDescriptor] {
        Finding.Rule.allCases.map(descriptor) + [integrityDescriptor]
    }

    /// The index of `rule` in ``descriptors``.
    static func index(of rule: Finding.Rule) -> Int {
        Finding.Rule.allCases.firstIndex(of: rule) ?? integrityIndex
    }

    /// A finding rule: its id, name, title, summary, severity and help (``NapkinTrace/Finding/Rule/help``).
    static func descriptor(_ rule: Finding.Rule) -> SARIF.ReportingDescriptor {
        descriptor(id: rule.rawValue, title: rule.title, summary: rule.summary, level: rule.severity.rawValue,
                   help: rule.help, documentation: rule.documentation)
    }

    /// `trace-integrity`: the trace cannot be read or trusted.
    static var integrityDescriptor: SARIF.ReportingDescriptor {
        descriptor(id: integrity, title: "trace problem",
                   summary: "a trace that cannot be read or trusted (missing, empty, not a trace, or damaged): no verdict on it",
                   level: "error",
                   help: Finding.Rule.Help(
                       meaning: """
                           The trace itself cannot be read or trusted: the file is missing, empty or not a
                           trace, or it is damaged (sequence numbers missing or out of order, time going
                           backwards, ids reused, mostly lines that are not records). Findings from such a
                           trace could be wrong or missing, so `check` exits with status 2, whatever it found.
                           """,
                       cause: """
                           The app was killed while writing, the file was cut short or edited, two processes
                           wrote the same file, or the job checked another file than the one the app wrote.
                           """,
                       fix: """
                           Record the trace again (a `NAPKIN_TRACE` ending in `/` gives each process a file
                           of its own) and check the file the app wrote.
                           """),
                   documentation: "docs/trace-format.md#what-a-reader-treats-as-damage")
    }

    /// A descriptor from its parts; `name` is the id in UpperCamelCase (`NotDeallocated`).
    private static func descriptor(id: String, title: String, summary: String, level: String,
                                   help: Finding.Rule.Help, documentation: String) -> SARIF.ReportingDescriptor {
        SARIF.ReportingDescriptor(
            id: id,
            name: id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(),
            shortDescription: SARIF.Message(text: title),
            fullDescription: SARIF.Message(text: summary),
            help: SARIF.Message(text: helpText(help, documentation: documentation, markdown: false),
                                markdown: helpText(help, documentation: documentation, markdown: true)),
            defaultConfiguration: SARIF.Configuration(level: level),
            properties: SARIF.RuleProperties(tags: ["napkin", "lifecycle"], problemSeverity: level, documentation: documentation))
    }

    /// The help: what it means, the typical cause and the fix, then where
    /// the documentation says more. Links to other sections of the page
    /// keep only their text (they would not resolve where the help is
    /// shown); in plain text, bold labels lose their asterisks.
    static func helpText(_ help: Finding.Rule.Help, documentation: String, markdown: Bool) -> String {
        let parts = [("What it means.", help.meaning), ("Typical cause.", help.cause), ("Fix.", help.fix)].filter { !$0.1.isEmpty }
        var out = parts.map { label, text in
            (markdown ? "**\(label)** " : "\(label) ") + withoutPageLinks(text)
        }
        out.append("More, with an example trace: \(markdown ? "`\(documentation)`" : documentation) in napkin-inspect's documentation.")
        return out.joined(separator: "\n\n")
    }

    /// `text` with every Markdown link to an anchor of the same page (`[text](#anchor)`) replaced by its text.
    static func withoutPageLinks(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].range(of: "](#"),
                  let end = rest[close.upperBound...].firstIndex(of: ")") else { break }
            let inner = rest[afterOpen..<close.lowerBound]
            if inner.contains("[") || inner.contains("]") {
                // Not this bracket's link (`[weak self]` in code): keep it and look further.
                out += rest[...open]
                rest = rest[afterOpen...]
                continue
            }
            out += rest[..<open] + inner
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }
}
