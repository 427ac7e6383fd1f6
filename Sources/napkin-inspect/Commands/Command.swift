/// One subcommand of `napkin-inspect`, in the shape of swift-argument-parser's
/// `ParsableCommand`: a type whose ``configuration`` describes it (name, help,
/// options), whose initializer reads its typed options from the command line,
/// and whose ``run()`` does the work.
///
/// To add a command, write a type that conforms to `Command` and list it once in
/// ``CommandRegistry/all``: dispatch, `--help`, `help CMD`, the overview and
/// the "the commands are ..." error all follow from that list.
protocol Command: Sendable {
    /// Name, help texts, positionals and options.
    static var configuration: CommandConfiguration { get }

    /// Reads the options into typed properties; text an option cannot take is a usage error.
    init(parsing arguments: ParsedArguments) throws(UsageError)

    /// Does the work; returns the exit status. Throws ``UsageError`` or ``CommandFailure``.
    func run() throws -> Int32
}
