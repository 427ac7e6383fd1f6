import Foundation
import Testing

/// Every `$ napkin-inspect ...` example in a ```console block of README.md and
/// of every page of docs/ is run on the recorded traces (from the repository
/// root, without colour), and its output must be exactly what the page shows:
/// the documentation cannot drift from the tool.
///
/// A ```console block holds only such examples: each `$ napkin-inspect ARGS`
/// line followed by its standard output. A command that cannot be checked
/// this way (it needs a terminal, a network, a Mac, or it writes files) is
/// shown in a ```sh block, and its output, if any, in a ```text or bare
/// ``` block; neither is run.
@Suite("README examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible, Sendable {
        var file: String
        var arguments: [String]
        var expected: String
        var line: Int
        var description: String { "\(file):\(line): napkin-inspect \(arguments.joined(separator: " "))" }
    }

    /// A line of a ```console block that is not part of a checked example:
    /// another command than napkin-inspect, or output with no command above it.
    struct Unchecked: CustomStringConvertible, Sendable, Equatable {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    static let prompt = "$ napkin-inspect "

    /// The examples of one document, and the lines of its console blocks that are none.
    static func parse(_ markdown: String, file: String) -> (examples: [Example], unchecked: [Unchecked]) {
        var examples: [Example] = []
        var unchecked: [Unchecked] = []
        var current: Example?
        for line in MarkdownDocuments.lines(markdown) {
            guard line.kind == .code(language: "console") else {
                if let example = current { examples.append(example) }
                current = nil
                continue
            }
            if line.text.hasPrefix(prompt) {
                if let example = current { examples.append(example) }
                let words = line.text.dropFirst(prompt.count).split(separator: " ").map(String.init)
                current = Example(file: file, arguments: words, expected: "", line: line.number)
            } else if line.text.hasPrefix("$") || current == nil {
                if let example = current { examples.append(example) }
                current = nil
                unchecked.append(Unchecked(file: file, line: line.number, text: line.text))
            } else {
                current!.expected += line.text + "\n"
            }
        }
        if let example = current { examples.append(example) }
        return (examples, unchecked)
    }

    static func parse(file: String) throws -> (examples: [Example], unchecked: [Unchecked]) {
        parse(try String.repoFile(file), file: file)
    }

    /// The examples of README.md and of every page of docs/.
    static func examples() throws -> [Example] {
        try MarkdownDocuments.paths().flatMap { try parse(file: $0).examples }
    }

    @Test("how a console block is read: examples with their output; other commands and stray output are named; other blocks are not read")
    func parsing() {
        let page = """
        ```console
        $ napkin-inspect stats a.ndjson
        line one

        line three
        $ napkin-inspect check  b.ndjson
        ```
        ```sh
        $ napkin-inspect tree c.ndjson
        ```
        ```console
        output with no command
        $ git add good.ndjson
        $ napkin-inspect tree d.ndjson --at 1s
        ```
        ```
        $ napkin-inspect tree e.ndjson
        ```
        """
        let (examples, unchecked) = Self.parse(page, file: "page.md")
        #expect(examples.map(\.arguments) == [["stats", "a.ndjson"], ["check", "b.ndjson"], ["tree", "d.ndjson", "--at", "1s"]])
        #expect(examples.map(\.expected) == ["line one\n\nline three\n", "", ""])
        #expect(examples.map(\.line) == [2, 6, 14])
        #expect(unchecked == [Unchecked(file: "page.md", line: 12, text: "output with no command"),
                              Unchecked(file: "page.md", line: 13, text: "$ git add good.ndjson")])
    }

    @Test("README shows the bug caught as a console example of check")
    func readmeHasExamples() throws {
        let commands = Set(try Self.parse(file: "README.md").examples.compactMap(\.arguments.first))
        #expect(commands.contains("check"), "\(commands)")
    }

    @Test("README and docs have console examples of check, tree, timeline, mermaid, stats and diff")
    func docsHaveExamples() throws {
        let commands = Set(try Self.examples().compactMap(\.arguments.first))
        #expect(commands.isSuperset(of: ["check", "tree", "timeline", "mermaid", "stats", "diff"]), "\(commands)")
    }

    @Test("every line of every console block is part of a checked example (what cannot be checked is in a sh or text block)")
    func everyConsoleLineIsChecked() throws {
        let unchecked = try MarkdownDocuments.paths().flatMap { try Self.parse(file: $0).unchecked }
        #expect(unchecked.isEmpty, "console lines that are not a checked napkin-inspect example:\n\(unchecked.map(\.description).joined(separator: "\n"))")
    }

    @Test("each console example prints exactly what its page shows", arguments: try ReadmeExamplesTests.examples())
    func exampleOutputMatches(_ example: Example) async throws {
        let result = try await CLIHarness.inspect(example.arguments, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        #expect(result.stdout == example.expected, "\(example) printed something else:\n\(result.stdout)")
    }
}
