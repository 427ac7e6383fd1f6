/// A small command-line parser: long options (`--at 12`, `--at=12`), `-h`,
/// positionals, and `-- CMD ARGS...` for commands that run a program. It checks
/// names, arity and closed choices; values are converted when a command reads
/// them (``ParsedArguments/value(_:)``). Errors name the problem and the fix.
enum ArgumentParser {
    /// Reads `arguments` (the words after the command name) as `configuration` describes them.
    static func parse(_ arguments: [String], for configuration: CommandConfiguration) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if word == "--" {
                parsed.command = try command(arguments[i...], configuration)
                break
            }
            if word == "-h" || word == "--help" {
                parsed.wantsHelp = true
                continue
            }
            if word.hasPrefix("--") || isShortOption(word, configuration) {
                try readOption(word, from: arguments, at: &i, configuration, into: &parsed)
                continue
            }
            // Besides -h and the declared one-letter aliases, no short options: name the first letter.
            if word.hasPrefix("-"), let letter = word.dropFirst().first {
                throw UsageError("unknown option '-\(letter)' for '\(configuration.name)' (\(hint(configuration)))")
            }
            parsed.positionals.append(word)
        }
        if parsed.wantsHelp { return parsed }
        try checkComplete(parsed, configuration)
        return parsed
    }

    // MARK: - Parts of the command line

    /// Where the usage errors of `configuration`'s command point for help.
    private static func hint(_ configuration: CommandConfiguration) -> String {
        "see 'napkin-inspect \(configuration.name) --help'"
    }

    /// `rest`, the words after `--`, as the command to run, if the command runs one.
    private static func command(_ rest: ArraySlice<String>, _ configuration: CommandConfiguration) throws(UsageError) -> [String] {
        guard configuration.acceptsCommand else {
            throw UsageError("'\(configuration.name)' does not run a command; remove '--' (\(hint(configuration)))")
        }
        guard !rest.isEmpty else {
            throw UsageError("'--' must be followed by a command to run, e.g. '-- swift test'")
        }
        return Array(rest)
    }

    /// Reads the option `word` (`--name`, `--name=VALUE`, `-x` or `-x=VALUE`)
    /// into `parsed`, with its value from the next word (at `i`) when it takes one and `word` has none.
    private static func readOption(_ word: String, from arguments: [String], at i: inout Int,
                                   _ configuration: CommandConfiguration, into parsed: inout ParsedArguments) throws(UsageError) {
        var optionName = word.hasPrefix("--") ? String(word.dropFirst(2)) : longName(of: word, configuration)
        var inline: String?
        if let eq = optionName.firstIndex(of: "=") {
            inline = String(optionName[optionName.index(after: eq)...])
            optionName = String(optionName[..<eq])
        }
        guard let option = configuration.option(named: optionName) else {
            throw UsageError("unknown option '--\(optionName)' for '\(configuration.name)' (\(hint(configuration)))")
        }
        if option.isFlag {
            if inline != nil { throw UsageError("'--\(optionName)' takes no value") }
            parsed.flags.insert(optionName)
            return
        }
        let value: String
        if let inline {
            value = inline
        } else {
            guard i < arguments.count, arguments[i] != "--" else {
                throw UsageError("'--\(optionName)' needs a value: --\(optionName) \(option.valueName ?? "VALUE")")
            }
            value = arguments[i]
            i += 1
        }
        if let choices = option.choices, !choices.contains(value) {
            throw UsageError.notOneOf(choices, option: optionName, got: value)
        }
        parsed.texts[optionName] = value
        if option.repeatable { parsed.repeatedTexts[optionName, default: []].append(value) }
    }

    /// Checks that `parsed` is a whole command line: not too many positionals,
    /// a command for the options that need one, and the positionals needed without one.
    private static func checkComplete(_ parsed: ParsedArguments, _ configuration: CommandConfiguration) throws(UsageError) {
        let name = configuration.name
        if parsed.positionals.count > configuration.positionals.upperBound {
            let extra = parsed.positionals[configuration.positionals.upperBound]
            throw UsageError("unexpected argument '\(extra)' (\(hint(configuration)))")
        }
        if parsed.command == nil,
           let option = configuration.options.first(where: { $0.needsCommand && (parsed.texts[$0.name] != nil || parsed.flags.contains($0.name)) }) {
            let words = "--\(option.name)" + (option.valueName.map { " " + $0 } ?? "")
            throw UsageError("'--\(option.name)' needs a command to run: put it after '--', e.g. 'napkin-inspect \(name) \(words) -- swift test'")
        }
        if parsed.positionals.count < configuration.positionals.lowerBound && parsed.command == nil {
            let usage = configuration.usage.map { "napkin-inspect \($0)" }
            throw UsageError("missing trace file: " + usage.joined(separator: " (or: ") + String(repeating: ")", count: max(0, usage.count - 1)))
        }
    }

    /// Whether `word` is `-x` for an option declared with the alias `x` (or `-x=VALUE`).
    private static func isShortOption(_ word: String, _ configuration: CommandConfiguration) -> Bool {
        let letters = Array(word.split(separator: "=", maxSplits: 1).first ?? "")
        return letters.count == 2 && letters[0] == "-" && configuration.options.contains { $0.short == letters[1] }
    }

    /// `-x` or `-x=VALUE` spelled with the option's long name (`output` or `output=VALUE`).
    private static func longName(of word: String, _ configuration: CommandConfiguration) -> String {
        let letter = word.dropFirst().first
        let name = configuration.options.first { $0.short == letter }?.name ?? ""
        return name + word.dropFirst(2)
    }
}
