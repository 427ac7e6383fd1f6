/// Terminal facts: is it one, how big is it.
enum TerminalInfo {
    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Rows and columns of the terminal on `fd` (24×80 when unknown).
    static func size(_ fd: Int32) -> (rows: Int, columns: Int) {
        var ws = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 {
            return (Int(ws.ws_row), Int(ws.ws_col))
        }
        return (24, 80)
    }
}
