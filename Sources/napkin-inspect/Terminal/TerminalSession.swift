#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Signals the live view reacts to, set from C signal handlers.
enum LiveSignals {
    static let quit = Atomic<Bool>(false)
    static let resized = Atomic<Bool>(false)

    /// Installs the handlers (SIGINT, SIGTERM, SIGHUP quit; SIGWINCH redraws).
    static func install() {
        _ = quit.load(ordering: .relaxed)
        _ = resized.load(ordering: .relaxed)
        signal(SIGINT) { _ in LiveSignals.quit.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in LiveSignals.quit.store(true, ordering: .relaxed) }
        signal(SIGHUP) { _ in LiveSignals.quit.store(true, ordering: .relaxed) }
        signal(SIGWINCH) { _ in LiveSignals.resized.store(true, ordering: .relaxed) }
    }
}

/// The terminal in full-screen mode: alternate screen, hidden cursor, keys
/// read without echo. ``restore()`` puts everything back; it is called on
/// every way out (quit key, Ctrl-C, end of a command, an error).
final class TerminalSession {
    private let keyboard: Int32
    private var original = termios()
    private var hasOriginal = false
    private var restored = false

    init() {
        // Keys come from the controlling terminal, so that a trace on stdin still works.
        let tty = open("/dev/tty", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        keyboard = tty
        if tty >= 0, tcgetattr(tty, &original) == 0 {
            hasOriginal = true
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            tcsetattr(tty, TCSANOW, &raw)
        }
        Output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// The next key pressed, if any (never blocks).
    func readKey() -> UInt8? {
        guard keyboard >= 0 else { return nil }
        var byte: UInt8 = 0
        return read(keyboard, &byte, 1) == 1 ? byte : nil
    }

    /// Draws a whole frame in one write: each line cleared to its end, then the rest of the screen.
    func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        for (i, line) in lines.enumerated() {
            frame += line + "\u{1B}[K"
            if i < lines.count - 1 { frame += "\r\n" }
        }
        frame += "\u{1B}[J"
        Output.write(frame)
    }

    func restore() {
        guard !restored else { return }
        restored = true
        Output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if hasOriginal { tcsetattr(keyboard, TCSANOW, &original) }
        if keyboard >= 0 { close(keyboard) }
    }

    deinit { restore() }
}

/// Cuts a string with ANSI colour codes to `width` visible characters.
func truncateVisible(_ text: String, to width: Int) -> String {
    var out = ""
    var visible = 0
    var inEscape = false
    var truncated = false
    for character in text {
        if inEscape {
            out.append(character)
            if character.isLetter { inEscape = false }
            continue
        }
        if character == "\u{1B}" {
            inEscape = true
            out.append(character)
            continue
        }
        if visible >= width {
            truncated = true
            continue
        }
        out.append(character)
        visible += 1
    }
    // Colours cut off mid-way must not bleed into the next line.
    if truncated { out += "\u{1B}[0m" }
    return out
}
