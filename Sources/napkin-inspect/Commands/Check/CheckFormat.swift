extension CheckCommand {
    /// `check --format`: how the findings are printed (docs/check-output.md).
    ///
    /// A new format is a new case: the parser accepts it and `--help` lists it
    /// at once, and the compiler asks for its `--help` note, whether programs
    /// parse it, and its renderer, in the three switches below. The first case
    /// is the default.
    enum Format: String, ListedChoice {
        case text, json, junit, github, sarif

        var note: String? {
            switch self {
            case .text, .json: nil
            case .junit: "JUnit XML"
            case .github: "Actions annotations"
            case .sarif: "SARIF 2.1.0 for code scanning"
            }
        }

        /// Whether another program parses this format from standard output
        /// (`json`, `junit`, `sarif`): then `check -- COMMAND` sends the
        /// command's own standard output to standard error, so the report
        /// stays valid (`--format sarif -- swift test > napkin.sarif`).
        var isMachineReadable: Bool {
            switch self {
            case .text, .github: false
            case .json, .junit, .sarif: true
            }
        }

        /// Prints the report on `traces`: on standard output, and for `github` a
        /// count on standard error. Code locations are looked up in `sources`;
        /// `exitStatus` is the status `check` exits with (SARIF records it).
        /// JSON also writes the `baseline` and `repeat` objects, when given
        /// (the other formats show known findings and rates through `traces`).
        func write(_ traces: [CheckedTrace], style: Style, sources: SourceRoot, exitStatus: Int32,
                   baseline: CheckJSONReport.BaselineJSON? = nil, repetition: CheckJSONReport.Repetition? = nil) {
            switch self {
            case .text:
                Output.write(CheckTextReport.render(traces, style: style, sources: sources))
            case .json:
                Output.write(CheckJSONReport.render(traces, sources: sources, baseline: baseline, repetition: repetition))
            case .junit:
                Output.write(CheckJUnitReport.render(traces, sources: sources))
            case .github:
                Output.write(CheckGitHubReport.render(traces, sources: sources))
                Output.error(CheckGitHubReport.count(traces))
            case .sarif:
                Output.write(CheckSARIFReport.render(traces, sources: sources, exitStatus: exitStatus))
            }
        }
    }
}
