import Foundation

/// JSON as napkin-inspect prints it (`check --format json`, `stats --format
/// json`): pretty, keys sorted and in snake_case, slashes not escaped.
enum JSONOutput {
    /// `value` as JSON text, with a final newline.
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
