import NapkinTrace

/// How a finding reads on one line, wherever napkin-inspect lists findings
/// (`check`, `tree`, `live`). Every piece that comes from the trace is made
/// printable and cut to a bounded length.
enum FindingLine {
    /// The longest subject (`Type#id 'label'`) shown, in characters.
    static let maxSubject = 160
    /// The longest message shown, in characters.
    static let maxMessage = 1_000

    /// `error[rule] Type#id: message (seq ...)`, coloured; with `rate` (a
    /// finding of `check --repeat`), followed by `(in 3 of 10 runs: ...)`.
    static func styled(_ finding: Finding, style: Style, rate: FindingRate? = nil) -> String {
        let head = "\(finding.severity.rawValue)[\(finding.rule.rawValue)]"
        let seqText = finding.seqs.isEmpty ? "" : style.dim(" (seq \(finding.seqs.prefix(20).map(String.init).joined(separator: ", "))"
            + (finding.seqs.count > 20 ? ", \u{2026}" : "") + ")")
        let rateText = rate.map { rate in rate.isIntermittent ? " " + style.yellow("(\(rate.text))") : style.dim(" (\(rate.text))") } ?? ""
        return (finding.severity == .error ? style.red(head) : style.yellow(head))
            + " " + style.bold(subject(finding)) + ": " + message(finding) + seqText + rateText
    }

    /// The finding's subject, printable.
    static func subject(_ finding: Finding) -> String {
        PrintableText.printable(finding.subjectName, limit: maxSubject)
    }

    /// The finding's message, printable.
    static func message(_ finding: Finding) -> String {
        PrintableText.printable(finding.message, limit: maxMessage)
    }

    /// The most code locations named under one finding.
    static let maxLocations = 4

    /// `  at Path/File.swift:42 (attached), Other.swift:7 (created)`: where a
    /// finding points in the app's code (paths found under `sources`, or
    /// `#fileID`s without it), or nil when the trace names no code. A
    /// function (a creation recorded on a device) reads as its description,
    /// `RibHouse/LoggedInBuilder.build(withListener:) (created)`, with or
    /// without `sources` (``SourceRoot/display(_:)``).
    static func locationLine(_ finding: Finding, style: Style, sources: SourceRoot?) -> String? {
        guard !finding.locations.isEmpty else { return nil }
        let shown = finding.locations.prefix(maxLocations).map { reference in
            PrintableText.printable(sources?.display(reference.location) ?? reference.location.description, limit: 300)
                + style.dim(" (\(reference.role.rawValue))")
        }
        return "  " + style.dim("at ") + shown.joined(separator: style.dim(", "))
    }

    /// `; at RibHouse/LoggedInBuilder.build(withListener:) (created)`: the
    /// finding's code locations that name a function (a creation recorded on
    /// a device), printable, for the one-line formats whose places carry
    /// only a file and a line (GitHub's `file=`/`line=`, a SARIF result's
    /// primary location); nothing when it names none.
    static func functionsText(_ finding: Finding) -> String {
        let functions = finding.locations.filter(\.location.isFunction).prefix(maxLocations)
        guard !functions.isEmpty else { return "" }
        return "; at " + functions.map { PrintableText.printable($0.description, limit: 300) }.joined(separator: ", ")
    }

    /// `  in test CheckoutTests/leaks()` (or `in one of the tests running then: ...`),
    /// when the trace marks its tests; nil otherwise.
    static func testLine(_ finding: Finding, style: Style) -> String? {
        testText(finding).map { "  " + style.dim($0) }
    }

    /// `in test NAME`, or `in one of the tests running then: A, B`, printable.
    static func testText(_ finding: Finding) -> String? {
        let names = finding.tests.map { PrintableText.printable($0, limit: 300) }
        switch names.count {
        case 0: return nil
        case 1: return "in test \(names[0])"
        default: return "in one of the tests running then: " + names.joined(separator: ", ")
        }
    }

    /// The lines that list `findings`: grouped by rule and type, the first few
    /// of each group (each followed by where it points in the code, when the
    /// trace says, the test that ran, and what holds the object when a
    /// retainer search explains it: ``RetainerText``), then how many more are like them (``FindingGroups``);
    /// `rate` says how often each occurred, for `check --repeat`.
    static func lines(_ findings: [Finding], style: Style, sources: SourceRoot? = nil,
                      rate: (Finding) -> FindingRate? = { _ in nil }) -> [String] {
        var lines: [String] = []
        for group in FindingGroups(findings).groups {
            for finding in group.shown {
                lines.append(styled(finding, style: style, rate: rate(finding)))
                if let location = locationLine(finding, style: style, sources: sources) { lines.append(location) }
                if let test = testLine(finding, style: style) { lines.append(test) }
                lines += RetainerText.indentedLines(finding, style: style)
            }
            if group.more > 0 { lines.append(style.dim(group.moreText)) }
        }
        return lines
    }

    /// Prints `findings` on standard output, grouped, one indented line each
    /// (and one for its code locations), and a note when `notKept` more were
    /// established but not kept.
    static func print(_ findings: [Finding], notKept: Int, style: Style) {
        for line in lines(findings, style: style) { Output.line("  " + line) }
        if notKept > 0 { Output.line(style.dim("  note: " + notKeptNote(notKept))) }
    }

    /// `12,345 more findings were established but not kept (...)`.
    static func notKeptNote(_ count: Int) -> String {
        "\(NumberFormat.grouped(count)) more findings were established but not kept "
            + "(the analysis keeps the first \(NumberFormat.grouped(TraceAnalyzer.maxKeptFindings)))"
    }
}
