import Foundation

/// What may reach a terminal or a CI log from napkin-inspect: valid UTF-8
/// with no control character but the line feed. Defined here on its own (not
/// with the tool's `PrintableText`), so that the tests check the tool against
/// an independent list.
enum OutputSafety {
    /// Why `data` is not safe to print, or nil: invalid UTF-8, or the first
    /// forbidden character (ESC, BEL, any other C0 control but LF, DEL, a C1
    /// control, a bidi control, a line or paragraph separator), with its offset.
    static func problem(in data: Data) -> String? {
        guard let text = String(validating: data, as: UTF8.self) else { return "invalid UTF-8" }
        var offset = 0
        for scalar in text.unicodeScalars {
            if isForbidden(scalar) {
                let context = String(decoding: data[max(0, offset - 40)..<min(data.count, offset + 20)], as: UTF8.self)
                return "U+\(String(scalar.value, radix: 16, uppercase: true)) at byte \(offset), in \(context.debugDescription)"
            }
            offset += String(scalar).utf8.count
        }
        return nil
    }

    /// Whether `scalar` must never be printed raw.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
