/// A small command-line parser: long options (`--at 12`, `--at=12`), `-h`,
/// positionals, and `-- CMD ARGS...` for commands that run a program. It checks
/// names, arity and closed choices; values are converted when a command reads
/// them (``ParsedArguments/value(_:)``). Errors name the problem and the fix.
enum ArgumentParser {
    /// Reads `arguments` (the words after the command name) as `configuration` describes them.
    static func parse(_ arguments: [String], for configuration: CommandConfiguration) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        let name = configuration.name
        let hint = "see 'napkin-inspect \(name) --help'"
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if word == "--" {
                guard configuration.acceptsCommand else {
                    throw UsageError("'\(name)' does not run a command; remove '--' (\(hint))")
                }
                let rest = Array(arguments[i...])
                guard !rest.isEmpty else {
                    throw UsageError("'--' must be followed by a command to run, e.g. '-- swift test'")
                }
                parsed.command = rest
                break
            }
            if word == "-h" || word == "--help" {
                parsed.wantsHelp = true
                continue
            }
            if word.hasPrefix("--") || isShortOption(word, configuration) {
                var optionName = word.hasPrefix("--") ? String(word.dropFirst(2)) : longName(of: word, configuration)
                var inline: String?
                if let eq = optionName.firstIndex(of: "=") {
                    inline = String(optionName[optionName.index(after: eq)...])
                    optionName = String(optionName[..<eq])
                }
                guard let option = configuration.option(named: optionName) else {
                    throw UsageError("unknown option '--\(optionName)' for '\(name)' (\(hint))")
                }
                if option.isFlag {
                    if inline != nil { throw UsageError("'--\(optionName)' takes no value") }
                    parsed.flags.insert(optionName)
                    continue
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
                continue
            }
            // Besides -h and the declared one-letter aliases, no short options: name the first letter.
            if word.hasPrefix("-"), let letter = word.dropFirst().first {
                throw UsageError("unknown option '-\(letter)' for '\(name)' (\(hint))")
            }
            parsed.positionals.append(word)
        }
        if parsed.wantsHelp { return parsed }
        if parsed.positionals.count > configuration.positionals.upperBound {
            let extra = parsed.positionals[configuration.positionals.upperBound]
            throw UsageError("unexpected argument '\(extra)' (\(hint))")
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
        return parsed
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
