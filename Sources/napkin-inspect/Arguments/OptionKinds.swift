import NapkinTrace

/// The kinds of values options take, each with its placeholder and conversion.
extension ValueOption where Value == String {
    /// Text taken as given: a path, a name.
    static func text(_ name: String, valueName: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: valueName, help: help)) { text throws(UsageError) in text }
    }
}

extension ValueOption where Value == UInt64 {
    /// A duration (`DURATION`: `500ms`, `1s`, `1.5`), in nanoseconds.
    static func duration(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "DURATION", help: help)) { text throws(UsageError) in
            try ValueParsing.duration(text, option: name)
        }
    }
}

extension ValueOption where Value == Double {
    /// A share (`PERCENT`: `50%`, `12.5`), as a fraction (0.5, 0.125).
    static func percent(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "PERCENT", help: help)) { text throws(UsageError) in
            try ValueParsing.percent(text, option: name)
        }
    }
}

extension ValueOption where Value == Moment {
    /// A moment of the trace (`SEQ|TIME`: `120`, `1.5s`).
    static func moment(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "SEQ|TIME", help: help)) { text throws(UsageError) in
            try ValueParsing.moment(text, option: name)
        }
    }
}

extension ValueOption where Value == Int {
    /// A width in columns (`COLUMNS`), from 40 to 10,000.
    static func columns(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "COLUMNS", help: help)) { text throws(UsageError) in
            try ValueParsing.columns(text, option: name)
        }
    }

    /// A count (`N`) within `range`; an error names what it counts (`noun`, plural).
    static func count(_ name: String, range: ClosedRange<Int>, noun: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "N", help: help)) { text throws(UsageError) in
            try ValueParsing.count(text, option: name, range: range, noun: noun)
        }
    }
}

extension ValueOption where Value == UInt16 {
    /// A TCP port (`PORT`), 0 to 65535 (0: the system picks a free one).
    static func port(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "PORT", help: help)) { text throws(UsageError) in
            guard let port = UInt16(text) else {
                throw UsageError("'--\(name)' takes a port from 0 to 65535 (0 picks a free one), e.g. --\(name) 8080; got '\(text)'")
            }
            return port
        }
    }
}

extension ValueOption where Value == TraceAnalyzer.Rounds {
    /// Where the rounds of a repeated flow start (`PREFIX`: the start of a mark's text, not empty).
    static func rounds(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "PREFIX", help: help)) { text throws(UsageError) in
            try ValueParsing.rounds(text, option: name)
        }
    }
}

extension ValueOption where Value == PopulationBudget {
    /// A population's budget (`NAME=N`), given once per population.
    static func budget(_ name: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: "NAME=N", help: help)) { text throws(UsageError) in
            try ValueParsing.budget(text, option: name)
        }
        .repeatable()
    }
}

extension ValueOption where Value: ArgumentChoice {
    /// One of a closed set of spellings (the raw values of `Value`), checked by the parser.
    static func choice(_ name: String, valueName: String, help: String) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: valueName, help: help, choices: Value.spellings)) { text throws(UsageError) in
            guard let value = Value(rawValue: text) else { throw UsageError.notOneOf(Value.spellings, option: name, got: text) }
            return value
        }
    }
}

extension ValueOption where Value: ListedChoice {
    /// One of a closed set of spellings, with a `--help` line that lists them.
    static func choice(_ name: String, valueName: String) -> ValueOption {
        choice(name, valueName: valueName, help: Value.helpList)
    }
}
