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

    /// The most bytes ``readBytes()`` returns at once: a paste longer than
    /// this is read over the next frames.
    static let maxBatch = 4_096

    /// Every byte waiting on the keyboard (at most ``maxBatch``), in one
    /// batch for ``KeyDecoder``; empty when no key was pressed (never blocks).
    func readBytes() -> [UInt8] {
        guard keyboard >= 0 else { return [] }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while bytes.count < Self.maxBatch {
            let wanted = min(buffer.count, Self.maxBatch - bytes.count)
            let n = buffer.withUnsafeMutableBytes { read(keyboard, $0.baseAddress!, wanted) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return bytes
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
