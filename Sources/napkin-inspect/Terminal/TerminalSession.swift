/// The terminal in full-screen mode: alternate screen, hidden cursor, keys
/// read without echo. ``restore()`` puts everything back; it is called on
/// every way out (quit key, Ctrl-C, end of a command, an error).
final class TerminalSession {
    private let keyboard: Int32
    private var original = termios()
    private var hasOriginal = false
    private var restored = false

    /// Switches the terminal to full-screen mode, keys without echo.
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

    /// Leaves the alternate screen, shows the cursor and gives the keyboard back (once).
    func restore() {
        guard !restored else { return }
        restored = true
        Output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if hasOriginal { tcsetattr(keyboard, TCSANOW, &original) }
        if keyboard >= 0 { close(keyboard) }
    }

    deinit { restore() }
}
