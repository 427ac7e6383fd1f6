/// The description of one subcommand: its options, positionals and help text.
struct CommandSpec: Sendable {
    /// One option: `--name VALUE` (or a flag when `valueName` is nil).
    struct Option: Sendable {
        var name: String
        var short: Character?
        var valueName: String?
        var help: String
        /// Allowed values, when the set is closed.
        var choices: [String]?

        var isFlag: Bool { valueName == nil }
    }

    var name: String
    var summary: String
    /// Usage lines, without the program name.
    var usage: [String]
    var positionals: ClosedRange<Int>
    var options: [Option]
    /// Whether `-- CMD ARGS...` is accepted.
    var acceptsCommand: Bool = false
    var details: String = ""
    var examples: [String] = []

    func option(named name: String) -> Option? {
        options.first { $0.name == name }
    }

    func option(short: Character) -> Option? {
        options.first { $0.short == short }
    }

    /// The full `--help` text.
    var helpText: String {
        var out = "\(summary)\n\nUsage:\n"
        for line in usage { out += "  napkin-inspect \(line)\n" }
        if !details.isEmpty { out += "\n\(details)\n" }
        out += "\nOptions:\n"
        let all = options + [Option(name: "help", short: "h", valueName: nil, help: "Show this help.")]
        let labels = all.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--\(option.name)"
            if let value = option.valueName { label += " \(value)" }
            return label
        }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (label, option) in zip(labels, all) {
            let padded = label.count < width ? label + String(repeating: " ", count: width - label.count) : label + "  "
            out += "  \(padded)\(option.help)\n"
        }
        if !examples.isEmpty {
            out += "\nExamples:\n"
            for example in examples { out += "  \(example)\n" }
        }
        return out
    }
}

/// What the parser found on the command line.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    /// The words after `--`, when the command accepts them.
    var command: [String]?

    func value(_ name: String) -> String? { values[name] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}

/// A mistake on the command line: exit status 2, one line on stderr.
struct UsageError: Error, Sendable {
    var message: String
    /// The subcommand whose help would explain it.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
