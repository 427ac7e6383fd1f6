#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colours and emphasis, or nothing: colour only on a terminal, never with
/// `NO_COLOR`, and as `--color` says.
struct Style: Sendable {
    let enabled: Bool

    static let plain = Style(enabled: false)

    /// Decides from `--color auto|always|never`, `NO_COLOR`, `TERM` and whether stdout is a terminal.
    static func resolve(_ choice: String?, environment: [String: String], fd: Int32 = 1) -> Style {
        switch choice {
        case "always": return Style(enabled: true)
        case "never": return Style(enabled: false)
        default:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return Style(enabled: false) }
            if environment["TERM"] == "dumb" { return Style(enabled: false) }
            return Style(enabled: isatty(fd) == 1)
        }
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func blue(_ s: String) -> String { wrap(s, "34") }
    func cyan(_ s: String) -> String { wrap(s, "36") }
}

/// Terminal facts: is it one, how big is it.
enum TerminalInfo {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Rows and columns of the terminal on `fd` (24×80 when unknown).
    static func size(_ fd: Int32 = 1) -> (rows: Int, columns: Int) {
        var ws = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 {
            return (Int(ws.ws_row), Int(ws.ws_col))
        }
        return (24, 80)
    }
}
