import Foundation

/// What every command gets: its parsed arguments, the environment and the
/// resolved output style.
struct CommandContext {
    var spec: CommandSpec
    var arguments: ParsedArguments
    var environment: [String: String]
    var style: Style

    init(spec: CommandSpec, arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.spec = spec
        self.arguments = arguments
        self.environment = environment
        self.style = Style.resolve(arguments.has("no-color") ? "never" : arguments.value("color"), environment: environment)
    }

    /// The single trace file argument (or `-` for stdin).
    var tracePath: String { arguments.positionals.first ?? "-" }

    /// `--grace`, in nanoseconds (default 1 s).
    func grace() throws(UsageError) -> UInt64 {
        guard let text = arguments.value("grace") else { return 1_000_000_000 }
        return try ValueParsing.duration(text, option: "grace")
    }
}

/// Options several commands share.
enum CommonOptions {
    static let color = CommandSpec.Option(name: "color", short: nil, valueName: "WHEN",
                                          help: "Colour: auto (default: only on a terminal, never with NO_COLOR), always, never.",
                                          choices: ["auto", "always", "never"])
    static let noColor = CommandSpec.Option(name: "no-color", short: nil, valueName: nil, help: "Same as --color never.")
    static let grace = CommandSpec.Option(name: "grace", short: nil, valueName: "DURATION",
                                          help: "How long a detached router may take to deallocate or a cancelled task to stop (default 1s).")
    static let expectTeardown = CommandSpec.Option(name: "expect-teardown", short: nil, valueName: nil,
                                                   help: "Report everything still alive at the end of the trace (for runs that tear down).")
}
