extension CheckCommand {
    /// `check --format`: how the findings are printed (docs/check-output.md).
    ///
    /// A new format is a new case: the parser accepts it and `--help` lists it
    /// at once, and the compiler asks for its `--help` note and its renderer, in
    /// the two switches below. The first case is the default.
    enum Format: String, ListedChoice {
        case text, json, junit, github

        var note: String? {
            switch self {
            case .text, .json: nil
            case .junit: "JUnit XML"
            case .github: "Actions annotations"
            }
        }

        /// Prints the report on `traces`: on standard output, and for `github` a count on standard error.
        func write(_ traces: [CheckedTrace], style: Style) {
            switch self {
            case .text:
                Output.write(CheckTextReport.render(traces, style: style))
            case .json:
                Output.write(CheckJSONReport.render(traces))
            case .junit:
                Output.write(CheckJUnitReport.render(traces))
            case .github:
                Output.write(CheckGitHubReport.render(traces))
                Output.error(CheckGitHubReport.count(traces))
            }
        }
    }
}
