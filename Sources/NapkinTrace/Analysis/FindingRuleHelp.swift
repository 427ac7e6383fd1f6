extension Finding.Rule {
    /// A rule's help: the paragraphs after **What it means.**, **Typical
    /// cause.** and **Fix.** in its section of `docs/findings.md` (each with
    /// the list or code block that follows it when it ends with a colon),
    /// Markdown, line breaks as there.
    ///
    /// Each rule declares its help in its own file (`static let help`); a
    /// test fails until the documentation says the same. It names options
    /// the way every reader can follow (`check --expect-teardown`, or the
    /// trait's `expectTeardown:`), not as one tool spells them.
    public struct Help: Sendable, Hashable {
        /// What a finding of the rule means.
        public let meaning: String
        /// What typically causes it.
        public let cause: String
        /// How to fix it.
        public let fix: String

        /// Help from its three parts.
        public init(meaning: String, cause: String, fix: String) {
            self.meaning = meaning
            self.cause = cause
            self.fix = fix
        }
    }
}
