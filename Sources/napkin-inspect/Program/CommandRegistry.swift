/// Every subcommand of `napkin-inspect`, listed once.
enum CommandRegistry {
    /// The commands, in the order the overview and error messages list them.
    static let all: [any Command.Type] = [
        LiveCommand.self,
        TreeCommand.self,
        TimelineCommand.self,
        CheckCommand.self,
        DiffCommand.self,
        MermaidCommand.self,
        StatsCommand.self,
        ReportCommand.self,
        ExportCommand.self,
    ]

    /// The command called `name`, if there is one.
    static func named(_ name: String) -> (any Command.Type)? {
        all.first { $0.configuration.name == name }
    }

    /// `live, tree, ...`: the names, for error messages.
    static var names: String {
        all.map { $0.configuration.name }.joined(separator: ", ")
    }
}
