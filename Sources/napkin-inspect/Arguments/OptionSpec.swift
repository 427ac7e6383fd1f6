/// One option as the parser reads it and `--help` shows it: `--name VALUE`, or
/// a flag `--name`.
struct OptionSpec: Sendable {
    /// The long name, without `--`.
    var name: String
    /// The placeholder `--help` shows for the value (`DURATION`); nil for a flag.
    var valueName: String?
    /// The option's line in `--help`.
    var help: String
    /// The accepted spellings, when the set is closed; the parser rejects any other.
    var choices: [String]?
    /// A one-letter alias (`o` for `-o FILE`), if the option has one.
    var short: Character?
    /// Whether the option only means something with `-- COMMAND` (`check --repeat`):
    /// given without one, it is a usage error.
    var needsCommand = false
    /// Whether the option may be given more than once, each value kept
    /// (`--max-alive`); for any other option the last one given wins.
    var repeatable = false

    /// Whether the option takes no value.
    var isFlag: Bool { valueName == nil }
}

/// An option a command declares, typed or not: anything with an ``OptionSpec``.
protocol DeclaredOption: Sendable {
    /// How the parser and `--help` see the option.
    var spec: OptionSpec { get }
}

/// `--name`: a flag, on when given.
struct Flag: DeclaredOption {
    /// How the parser and `--help` see the flag.
    let spec: OptionSpec

    /// The flag `--name`, with its `--help` line.
    init(_ name: String, help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help)
    }
}

/// `--name VALUE`, read as a `Value`: the conversion is part of the option, so
/// that a command gets durations, moments, numbers and choices, never text.
struct ValueOption<Value: Sendable>: DeclaredOption {
    /// How the parser and `--help` see the option.
    let spec: OptionSpec
    /// Turns the text given into the value; text it cannot take is a usage error.
    let convert: @Sendable (String) throws(UsageError) -> Value

    /// The same option, also spelled `-letter` (``OptionSpec/short``).
    func short(_ letter: Character) -> ValueOption {
        var spec = spec
        spec.short = letter
        return ValueOption(spec: spec, convert: convert)
    }

    /// The same option, given as often as needed, every value kept (``OptionSpec/repeatable``).
    func repeatable() -> ValueOption {
        var spec = spec
        spec.repeatable = true
        return ValueOption(spec: spec, convert: convert)
    }

    /// The same option, a usage error without `-- COMMAND` (``OptionSpec/needsCommand``).
    func needingCommand() -> ValueOption {
        var spec = spec
        spec.needsCommand = true
        return ValueOption(spec: spec, convert: convert)
    }
}
