/// What the parser found on the command line. Commands read their options
/// through the typed accessors, which convert the text as the option declares.
struct ParsedArguments: Sendable {
    /// The words that are not options, in order.
    var positionals: [String] = []
    /// The words after `--`, for a command that runs a program.
    var command: [String]?
    /// Whether `-h` or `--help` was given.
    var wantsHelp = false
    /// The text given for each option with a value (the last one given wins), by name.
    var texts: [String: String] = [:]
    /// Every text given for each repeatable option, in order, by name.
    var repeatedTexts: [String: [String]] = [:]
    /// The names of the flags given.
    var flags: Set<String> = []

    /// The value of `option`, or nil when it was not given.
    func value<Value>(_ option: ValueOption<Value>) throws(UsageError) -> Value? {
        guard let text = texts[option.spec.name] else { return nil }
        return try option.convert(text)
    }

    /// Every value given for a repeatable `option`, in order; empty when it was not given.
    func values<Value>(_ option: ValueOption<Value>) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in repeatedTexts[option.spec.name] ?? [] { values.append(try option.convert(text)) }
        return values
    }

    /// The value of a choice, or its default when it was not given.
    func choice<Value: ArgumentChoice>(_ option: ValueOption<Value>) throws(UsageError) -> Value {
        try value(option) ?? Value.defaultChoice
    }

    /// Whether `flag` was given.
    func isSet(_ flag: Flag) -> Bool {
        flags.contains(flag.spec.name)
    }

    /// The single trace argument, or `-` (standard input) when there is none.
    var tracePath: String { positionals.first ?? "-" }
}
