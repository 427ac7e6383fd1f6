/// A small command-line parser: long options (`--at 12`, `--at=12`), short
/// flags (`-h`), positionals, and `-- CMD ARGS...` for commands that run a
/// program. Errors name the problem and the fix.
enum ArgumentParser {
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        let hint = "see 'napkin-inspect \(spec.name) --help'"
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if word == "--" {
                guard spec.acceptsCommand else {
                    throw UsageError("'\(spec.name)' does not run a command; remove '--' (\(hint))", command: spec.name)
                }
                let rest = Array(arguments[i...])
                guard !rest.isEmpty else {
                    throw UsageError("'--' must be followed by a command to run, e.g. '-- swift test'", command: spec.name)
                }
                parsed.command = rest
                break
            }
            if word == "-h" || word == "--help" {
                parsed.flags.insert("help")
                continue
            }
            if word.hasPrefix("--") {
                var name = String(word.dropFirst(2))
                var inline: String?
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let option = spec.option(named: name) else {
                    throw UsageError("unknown option '--\(name)' for '\(spec.name)' (\(hint))", command: spec.name)
                }
                if option.isFlag {
                    if inline != nil { throw UsageError("'--\(name)' takes no value", command: spec.name) }
                    parsed.flags.insert(name)
                    continue
                }
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < arguments.count, arguments[i] != "--" else {
                        throw UsageError("'--\(name)' needs a value: --\(name) \(option.valueName ?? "VALUE")", command: spec.name)
                    }
                    value = arguments[i]
                    i += 1
                }
                if let choices = option.choices, !choices.contains(value) {
                    throw UsageError("'--\(name)' must be one of \(choices.joined(separator: ", ")); got '\(value)'", command: spec.name)
                }
                parsed.values[name] = value
                continue
            }
            if word.hasPrefix("-") && word.count > 1 {
                let letters = word.dropFirst()
                for letter in letters {
                    guard let option = spec.option(short: letter), option.isFlag else {
                        throw UsageError("unknown option '-\(letter)' for '\(spec.name)' (\(hint))", command: spec.name)
                    }
                    parsed.flags.insert(option.name)
                }
                continue
            }
            parsed.positionals.append(word)
        }
        if parsed.has("help") { return parsed }
        if parsed.positionals.count > spec.positionals.upperBound {
            let extra = parsed.positionals[spec.positionals.upperBound]
            throw UsageError("unexpected argument '\(extra)' (\(hint))", command: spec.name)
        }
        if parsed.positionals.count < spec.positionals.lowerBound && parsed.command == nil {
            throw UsageError("missing trace file: napkin-inspect \(spec.usage.first ?? spec.name)", command: spec.name)
        }
        return parsed
    }
}
