import Foundation

/// JSON as napkin-inspect prints it (`check --format json`, `stats --format
/// json`, `check --format sarif`): pretty, keys sorted and in snake_case
/// (SARIF: as given), slashes not escaped.
///
/// Valid for any input: JSONEncoder escapes `"`, `\` and the C0 controls in
/// strings; DEL, the C1 controls, bidi controls and the line separators,
/// which JSON allows raw but a terminal or a JavaScript reader may act on,
/// are escaped here too (`\u009b`), which only strings can contain.
enum JSONOutput {
    /// `value` as JSON text, with a final newline; keys in snake_case
    /// unless `snakeCaseKeys` is false (SARIF spells its own, in camelCase).
    static func text(_ value: some Encodable, snakeCaseKeys: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if snakeCaseKeys { encoder.keyEncodingStrategy = .convertToSnakeCase }
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return escapingControls(String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// `json` with every character ``PrintableText/needsEscape(_:)`` names,
    /// other than the line breaks between values, written as a `\uXXXX` escape.
    static func escapingControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0 != "\n" && PrintableText.needsEscape($0) }) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 64)
        for scalar in json.unicodeScalars {
            if scalar != "\n" && PrintableText.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
