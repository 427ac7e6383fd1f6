/// How a command prints: `--format` (one of the command's `Format` choices,
/// the first by default) and, for text, the colours `--color` and
/// `--no-color` ask for. Commands that print in more than one format declare
/// ``options`` and read one `Presentation`.
struct Presentation<Format: ListedChoice>: Sendable {
    /// The format asked for.
    let format: Format
    /// Colours for the text formats.
    let style: Style

    /// `--format FORMAT`, listing the command's formats in `--help`.
    static var formatOption: ValueOption<Format> { .choice("format", valueName: "FORMAT") }
    /// `--format`, `--color` and `--no-color`, in the order `--help` lists them.
    static var options: [any DeclaredOption] { [formatOption] + CommonOptions.colorOptions }

    /// Reads `--format`, `--color` and `--no-color`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.choice(Self.formatOption)
        style = try arguments.style()
    }
}
