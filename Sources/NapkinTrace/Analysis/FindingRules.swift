/// Every finding rule the analyzer runs, in order (see ``RuleSet``, which
/// holds them).
///
/// The order is the order in which rules see each event, decide their checks
/// at the same deadline, and report at the end of a session; it is also the
/// order of ``Finding/Rule/allCases`` (and so of the JUnit test cases).
enum FindingRules {
    static let all: [any FindingRule.Type] = RuleSet.types
}
