import NapkinTrace

/// Turns the text of option values into values: durations, moments, widths.
/// Errors name the option and show values it takes.
enum ValueParsing {
    /// `1s`, `250ms`, `1.5s`, `2m`, `500us`, `100ns`, or plain seconds (`1.5`), in nanoseconds.
    static func duration(_ text: String, option: String) throws(UsageError) -> UInt64 {
        let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9)]
        var number = Substring(text)
        var scale = 1e9
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            let candidate = text.dropLast(suffix.count)
            if Double(candidate) != nil {
                number = candidate
                scale = factor
                break
            }
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale < 1.8e19 else {
            throw UsageError("'--\(option)' needs a duration like 500ms, 1s or 1.5s; got '\(text)'")
        }
        return UInt64(value * scale)
    }

    /// A moment of a trace: a sequence number (`120`) or a time with a unit (`1.5s`, `800ms`).
    static func moment(_ text: String, option: String) throws(UsageError) -> Moment {
        if let seq = UInt64(text) { return .seq(seq) }
        if text.last?.isLetter == true, let time = try? duration(text, option: option) { return .time(time) }
        throw UsageError("'--\(option)' needs a sequence number (e.g. 120) or a time since the start (e.g. 1.5s, 800ms); got '\(text)'")
    }

    /// A whole number within `range` (`--repeat N`); `noun` (plural) names what it counts.
    static func count(_ text: String, option: String, range: ClosedRange<Int>, noun: String) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("'--\(option)' needs a number of \(noun) from \(range.lowerBound) to \(range.upperBound); got '\(text)'")
        }
        return value
    }

    /// A percentage, `50%` or `50` (from 0 to 1,000,000), as a fraction: 0.5.
    static func percent(_ text: String, option: String) throws(UsageError) -> Double {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite, value >= 0, value <= 1_000_000 else {
            throw UsageError("'--\(option)' needs a percentage like 50% or 200%; got '\(text)'")
        }
        return value / 100
    }

    /// A number of columns, from 40 to 10,000.
    static func columns(_ text: String, option: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= 40, value <= 10_000 else {
            throw UsageError("'--\(option)' needs a number of columns from 40 to 10000; got '\(text)'")
        }
        return value
    }

    /// Where a round starts: a mark whose text starts with `text` (not empty: every mark would start one).
    static func rounds(_ text: String, option: String) throws(UsageError) -> TraceAnalyzer.Rounds {
        guard !text.isEmpty else {
            throw UsageError("'--\(option)' needs the start of the marks that begin each round, e.g. --\(option) 'round ' for marks 'round 1', 'round 2', ...; got ''")
        }
        return .marks(prefix: text)
    }

    /// `NAME=N`: a population's name (a type, or `Owner 'label'`: it may hold
    /// spaces, quotes and `=`) and how many may be alive at once, split at the last `=`.
    static func budget(_ text: String, option: String) throws(UsageError) -> PopulationBudget {
        let example = "e.g. --\(option) LoggedInRouter=1"
        guard let eq = text.lastIndex(of: "=") else {
            throw UsageError("'--\(option)' needs NAME=N, a type and how many of it may be alive at once (\(example)); got '\(text)'")
        }
        let name = String(text[..<eq]), count = text[text.index(after: eq)...]
        guard !name.isEmpty else {
            throw UsageError("'--\(option)' needs a type name before '=' (\(example)); got '\(text)'")
        }
        guard count.allSatisfy(\.isASCII), count.first?.isNumber == true, let limit = Int(count) else {
            throw UsageError("'--\(option)' needs a whole number from 0 after '=' (\(example)); got '\(text)'")
        }
        return PopulationBudget(name: name, limit: limit)
    }
}
