/// A closed set of values for an option (`--format`, `--view`, `--color`,
/// `--fail-on`): the raw values are the spellings, in the order the parser's
/// errors and `--help` list them, and one of them applies when the option is
/// not given (the first, unless the type says otherwise).
protocol ArgumentChoice: CaseIterable, RawRepresentable<String>, Equatable, Sendable {
    /// The value when the option is not given.
    static var defaultChoice: Self { get }
}

extension ArgumentChoice {
    /// The first case.
    static var defaultChoice: Self {
        guard let first = allCases.first else { preconditionFailure("\(Self.self) has no cases") }
        return first
    }

    /// Every spelling, in declaration order.
    static var spellings: [String] { allCases.map(\.rawValue) }
}

/// A choice whose `--help` line is the list of its spellings, each with an
/// optional note: `text (default), json, junit (JUnit XML) or github (...)`.
protocol ListedChoice: ArgumentChoice {
    /// A few words `--help` adds after the spelling, or nil (the default).
    var note: String? { get }
}

extension ListedChoice {
    /// No note.
    var note: String? { nil }

    /// `a (default), b (note) or c.`: the spellings, their notes, and which is the default.
    static var helpList: String {
        let items = allCases.map { choice -> String in
            let notes = [choice.note, choice == defaultChoice ? "default" : nil].compactMap { $0 }
            return choice.rawValue + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
        }
        guard let last = items.last, items.count > 1 else { return (items.first ?? "") + "." }
        return items.dropLast().joined(separator: ", ") + " or " + last + "."
    }
}
