/// A key the user pressed, as ``KeyDecoder`` reads it from the terminal's bytes.
enum Key: Sendable, Hashable, CustomStringConvertible {
    /// ↑ (`ESC [ A`, `ESC O A`).
    case up
    /// ↓ (`ESC [ B`, `ESC O B`).
    case down
    /// → (`ESC [ C`, `ESC O C`).
    case right
    /// ← (`ESC [ D`, `ESC O D`).
    case left
    /// Page Up (`ESC [ 5 ~`).
    case pageUp
    /// Page Down (`ESC [ 6 ~`).
    case pageDown
    /// Home (`ESC [ H`, `ESC O H`, `ESC [ 1 ~`, `ESC [ 7 ~`).
    case home
    /// End (`ESC [ F`, `ESC O F`, `ESC [ 4 ~`, `ESC [ 8 ~`).
    case end
    /// Tab (byte 9).
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backTab
    /// Escape pressed alone: an ESC byte with nothing after it in the same read.
    case escape
    /// Enter (carriage return or line feed; CR LF counts once).
    case enter
    /// Backspace (DEL, byte 127, or BS, byte 8).
    case backspace
    /// Ctrl-C (byte 3), when the terminal passes it on instead of sending SIGINT.
    case interrupt
    /// Another control byte (Ctrl-A is 1, Ctrl-L is 12...).
    case control(UInt8)
    /// A printable character (decoded from UTF-8).
    case character(Character)

    /// How the help and the tests name the key.
    var description: String {
        switch self {
        case .up: "↑"
        case .down: "↓"
        case .right: "→"
        case .left: "←"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .enter: "Enter"
        case .backspace: "Backspace"
        case .interrupt: "Ctrl-C"
        case .control(let byte): "Ctrl-" + String(UnicodeScalar(byte + 64))
        case .character(let character): String(character)
        }
    }
}
