/// What a command says about itself: its name, usage, help texts and options.
/// The parser, `--help`, `help CMD` and the overview all read it.
///
/// A command declares it as its help text plus its options (the typed option
/// declarations carry their own `--help` lines):
///
///     CommandConfiguration(options: [Options.at, CommonOptions.grace], help: """
///         tree FILE [--at SEQ|TIME] [options]
///         Print the tree at the end of a trace, or at any moment of it.
///         Paragraphs of details, if any.
///         $ napkin-inspect tree run.ndjson --at 2.5s
///         """)
///
/// The leading lines that start with the command's name are its usage lines
/// (the first word of the first one is the name; a usage line with
/// `-- COMMAND` means the command runs a program); the next line is the
/// summary; lines that start with `$ ` are examples; the rest are details.
/// The positionals follow from the words after the name in the first usage
/// line: `FILE` (exactly one), `[FILE|-]` (at most one), `FILE|DIR...` (one or
/// more; none with `-- COMMAND`), several plain placeholders such as
/// `BEFORE AFTER` (exactly that many), or none.
struct CommandConfiguration: Sendable {
    /// The word that selects the command (`tree`).
    let name: String
    /// One line: the command's line in the overview and the first line of its `--help`.
    let summary: String
    /// Usage lines, without the program name.
    let usage: [String]
    /// How many positionals the command takes (with `-- COMMAND`, fewer are fine).
    let positionals: ClosedRange<Int>
    /// The options, in the order `--help` lists them.
    let options: [OptionSpec]
    /// Whether `-- CMD ARGS...` is accepted.
    let acceptsCommand: Bool
    /// Paragraphs `--help` shows between the usage and the options.
    let details: String
    /// Example command lines for `--help`.
    let examples: [String]

    /// The configuration `help` describes (see the type's documentation);
    /// `options` are listed in `--help` in this order.
    init(options: [any DeclaredOption], help: String) {
        var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let name = lines.first?.split(separator: " ").first.map(String.init) ?? ""
        let usage = Array(lines.prefix { $0 == name || $0.hasPrefix(name + " ") })
        let rest = lines.dropFirst(usage.count)
        self.name = name
        self.usage = usage
        self.summary = rest.first ?? ""
        self.examples = rest.filter { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)) }
        self.details = rest.dropFirst().filter { !$0.hasPrefix("$ ") }.joined(separator: "\n")
        self.options = options.map(\.spec)
        self.acceptsCommand = usage.contains { $0.contains("-- COMMAND") }
        self.positionals = Self.positionals(usage.first?.split(separator: " ").dropFirst().map(String.init) ?? [])
    }

    /// The positionals the words after the name of a usage line allow:
    /// `FILE`, `[FILE|-]`, `FILE|DIR...`, leading placeholders in capitals
    /// (`BEFORE AFTER`: exactly two), or none.
    static func positionals(_ words: [String]) -> ClosedRange<Int> {
        guard let word = words.first, !word.hasPrefix("[options"), !word.hasPrefix("--"), !word.hasPrefix("[--") else { return 0...0 }
        let optional = word.hasPrefix("[")
        let variadic = word.hasSuffix("...") || word.hasSuffix("...]")
        if optional || variadic { return (optional ? 0 : 1)...(variadic ? 64 : 1) }
        let required = words.prefix(while: isPlaceholder).count
        return max(1, required)...max(1, required)
    }

    /// Whether `word` names a positional: capitals, with `|` or `-` between alternatives (`FILE`, `BEFORE`, `FILE|DIR`).
    private static func isPlaceholder(_ word: String) -> Bool {
        word.first?.isUppercase == true && word.allSatisfy { $0.isUppercase || $0 == "|" || $0 == "-" }
    }

    /// The option called `--name`, if the command has one.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}
