/// `--color WHEN`: when to colour the output.
enum ColorChoice: String, ArgumentChoice {
    /// Only on a terminal, never with `NO_COLOR` or `TERM=dumb`.
    case auto
    /// Always, even into a pipe or file.
    case always
    /// Never.
    case never
}

/// Colours and emphasis, or nothing: colour only on a terminal, never with
/// `NO_COLOR`, and as `--color` says.
struct Style: Sendable {
    /// Whether escape codes are written.
    let enabled: Bool

    /// No colour, no emphasis.
    static let plain = Style(enabled: false)

    /// Decides from `--color`, `NO_COLOR`, `TERM` and whether `fd` is a terminal.
    static func resolve(_ choice: ColorChoice, environment: [String: String], fd: Int32 = 1) -> Style {
        switch choice {
        case .always: return Style(enabled: true)
        case .never: return Style(enabled: false)
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return Style(enabled: false) }
            if environment["TERM"] == "dumb" { return Style(enabled: false) }
            return Style(enabled: TerminalInfo.isTerminal(fd))
        }
    }

    /// `text` between the escape code `code` and a reset, when enabled.
    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// `s` in bold.
    func bold(_ s: String) -> String { wrap(s, "1") }
    /// `s` dimmed.
    func dim(_ s: String) -> String { wrap(s, "2") }
    /// `s` in red: errors, deallocation, tasks running after cancel.
    func red(_ s: String) -> String { wrap(s, "31") }
    /// `s` in green: active, clean.
    func green(_ s: String) -> String { wrap(s, "32") }
    /// `s` in yellow: warnings, detached.
    func yellow(_ s: String) -> String { wrap(s, "33") }
    /// `s` in blue: marks.
    func blue(_ s: String) -> String { wrap(s, "34") }
    /// `s` in cyan: inactive.
    func cyan(_ s: String) -> String { wrap(s, "36") }

    /// `cells` as text, each run of one character styled by `styling` (one
    /// escape pair per run, not per cell): a timeline lane.
    func runs(_ cells: [Character], _ styling: (Character, String) -> String) -> String {
        var text = ""
        var k = 0
        while k < cells.count {
            var j = k
            while j < cells.count && cells[j] == cells[k] { j += 1 }
            text += styling(cells[k], String(cells[k..<j]))
            k = j
        }
        return text
    }
}
