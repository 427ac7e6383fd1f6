import Foundation
import TestSupport

/// The documentation the documentation tests read (README.md and every page
/// of docs/), and its lines, each knowing whether it is prose, a code fence,
/// or inside a fenced code block of some language.
enum MarkdownDocuments {
    /// README.md, then `docs/*.md` by name: paths relative to `root`.
    static func paths(root: URL = PackagePaths.root) throws -> [String] {
        let pages = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
            .sorted()
        return ["README.md"] + pages.map { "docs/\($0)" }
    }

    struct Line: Sendable {
        enum Kind: Equatable, Sendable {
            case prose
            /// A line that opens or closes a fenced code block.
            case fence
            /// Inside a fenced code block whose info string starts with `language` (empty: none).
            case code(language: String)
        }
        /// 1-based.
        var number: Int
        var text: String
        var kind: Kind
    }

    /// The lines of `markdown`. A fence is three or more backticks or tildes
    /// (after at most three spaces, or the indentation of a list item); the
    /// block ends at a fence of the same character, at least as long, with
    /// nothing after it.
    static func lines(_ markdown: String) -> [Line] {
        var result: [Line] = []
        var open: (character: Character, count: Int, language: String)?
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(raw)
            let trimmed = text.drop { $0 == " " }
            let marker = trimmed.first.flatMap { $0 == "`" || $0 == "~" ? $0 : nil }
            let run = marker.map { character in trimmed.prefix { $0 == character }.count } ?? 0
            if let block = open {
                if marker == block.character, run >= block.count,
                   trimmed.dropFirst(run).allSatisfy({ $0 == " " || $0 == "\t" }) {
                    open = nil
                    result.append(Line(number: index + 1, text: text, kind: .fence))
                } else {
                    result.append(Line(number: index + 1, text: text, kind: .code(language: block.language)))
                }
            } else if let marker, run >= 3 {
                let info = trimmed.dropFirst(run).trimmingCharacters(in: .whitespaces)
                open = (marker, run, String(info.prefix { !$0.isWhitespace }))
                result.append(Line(number: index + 1, text: text, kind: .fence))
            } else {
                result.append(Line(number: index + 1, text: text, kind: .prose))
            }
        }
        return result
    }
}
