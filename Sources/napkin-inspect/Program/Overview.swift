/// The text of `napkin-inspect --help`: what the tool is, its commands (from
/// ``CommandRegistry``), the global options, and the exit statuses.
enum Overview {
    /// The overview, without a final newline.
    static var text: String {
        let configurations = CommandRegistry.all.map { $0.configuration }
        let width = (configurations.map(\.name.count).max() ?? 0) + 3
        let commands = configurations.map { "  " + $0.name.padded(to: width) + $0.summary }
        return """
        napkin-inspect: see the lifecycle of a napkin app's tree from its trace.

        Usage: napkin-inspect <command> [options]

        Commands:
        \(commands.joined(separator: "\n"))

        Options:
          -h, --help     Show help (also: napkin-inspect <command> --help).
          --version      Print the version.

        Record a trace by running any app that uses Napkin with NAPKIN_TRACE set:
          NAPKIN_TRACE=run.ndjson .build/debug/rib-house
          napkin-inspect check run.ndjson

        Exit status: 0 success / no findings, 1 findings, 2 usage error or unusable input.
        """
    }
}
