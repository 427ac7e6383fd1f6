import Testing
@testable import napkin_inspect
import TestSupport

/// ``PrintableText``: every text from a trace made safe for a terminal and a log.
@Suite("printable text")
struct PrintableTextTests {
    @Test("controls are shown as visible escapes; everything else is left alone", arguments: [
        ("HomeRouter", "HomeRouter"),
        ("tab\there", #"tab\there"#),
        ("two\nlines\r", #"two\nlines\r"#),
        ("\u{1B}]0;title\u{07}", #"\e]0;title\u{7}"#),
        ("\u{1B}]52;c;cHduZWQ=\u{07}", #"\e]52;c;cHduZWQ=\u{7}"#),
        ("\u{1B}[?1049l\u{1B}[2J", #"\e[?1049l\e[2J"#),
        ("nul\u{0}del\u{7F}bs\u{8}", #"nul\u{0}del\u{7f}bs\u{8}"#),
        ("csi\u{9B}31m osc\u{9D}x st\u{9C}", #"csi\u{9b}31m osc\u{9d}x st\u{9c}"#),
        ("Admin\u{202E}Router\u{202C}", #"Admin\u{202e}Router\u{202c}"#),
        ("\u{2066}iso\u{2069} \u{200F}rlm \u{061C}alm", #"\u{2066}iso\u{2069} \u{200f}rlm \u{61c}alm"#),
        ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
        ("Café ☕ 😀 e\u{301}", "Café ☕ 😀 e\u{301}"),
        (#"back\slash \e"#, #"back\slash \e"#),
    ])
    func escapes(_ input: String, _ expected: String) {
        #expect(PrintableText.printable(input) == expected)
        #expect(input.printable == expected)
    }

    @Test("the whole class is escaped: every C0 and C1 control, DEL, the bidi controls and the separators")
    func wholeClass() {
        let controls = Array(0x00...0x1F) + Array(0x7F...0x9F) + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in controls {
            let scalar = Unicode.Scalar(UInt32(value))!
            #expect(PrintableText.needsEscape(scalar), "U+\(String(value, radix: 16))")
            let shown = PrintableText.printable("a" + String(scalar) + "b")
            #expect(shown.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }, "\(shown.debugDescription)")
        }
        for value in [0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x200B, 0x2030, 0x1F600] {
            #expect(!PrintableText.needsEscape(Unicode.Scalar(UInt32(value))!), "U+\(String(value, radix: 16))")
        }
    }

    @Test("a limit cuts the printable text with an ellipsis, at a cost that follows the limit", .dedicatedThread, .singleThreaded)
    func limit() {
        #expect(PrintableText.printable("short", limit: 10) == "short")
        #expect(PrintableText.printable(String(repeating: "a", count: 100), limit: 10) == "aaaaaaaaa\u{2026}")
        let escaped = PrintableText.printable(String(repeating: "\u{1B}", count: 100), limit: 10)
        #expect(escaped.count == 10 && escaped.hasSuffix("\u{2026}"), "\(escaped)")
        #expect(!escaped.unicodeScalars.contains { PrintableText.needsEscape($0) })
        // Ten million characters, cut at once.
        let huge = String(repeating: "x", count: 10_000_000)
        #expect(PrintableText.printable(huge, limit: 80).count == 80)
    }

    @Test("error lines are one printable line, however long or hostile the text they quote")
    func errorLine() {
        let hostile = "bad\n\u{1B}]0;x\u{07}" + String(repeating: "y", count: 10_000)
        let shown = PrintableText.printable(hostile, limit: Output.maxErrorLength)
        #expect(!shown.contains("\n") && !shown.contains("\u{1B}"))
        #expect(shown.count == Output.maxErrorLength)
    }
}
