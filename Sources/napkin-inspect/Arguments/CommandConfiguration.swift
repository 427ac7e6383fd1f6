/// What a command says about itself: its name, help texts, positionals and
/// options. The parser, `--help`, `help CMD` and the overview all read it.
struct CommandConfiguration: Sendable {
    /// The word that selects the command (`tree`).
    var name: String
    /// The command's line in the overview (`napkin-inspect --help`).
    var abstract: String
    /// The first line of the command's `--help`.
    var summary: String
    /// Usage lines, without the program name.
    var usage: [String]
    /// How many positionals the command takes (with `-- COMMAND`, fewer are fine).
    var positionals: ClosedRange<Int>
    /// The options, in the order `--help` lists them.
    var options: [OptionSpec]
    /// Whether `-- CMD ARGS...` is accepted.
    var acceptsCommand: Bool
    /// Paragraphs `--help` shows between the usage and the options.
    var details: String
    /// Example command lines for `--help`.
    var examples: [String]

    /// A configuration; `options` are listed in `--help` in this order.
    init(name: String, abstract: String, summary: String, usage: [String], positionals: ClosedRange<Int>,
         options: [any DeclaredOption], acceptsCommand: Bool = false, details: String = "", examples: [String]) {
        self.name = name
        self.abstract = abstract
        self.summary = summary
        self.usage = usage
        self.positionals = positionals
        self.options = options.map(\.spec)
        self.acceptsCommand = acceptsCommand
        self.details = details
        self.examples = examples
    }

    /// The option called `--name`, if the command has one.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}
