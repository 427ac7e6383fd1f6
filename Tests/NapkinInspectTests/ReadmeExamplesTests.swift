import Foundation
import Testing

/// Every `$ napkin-inspect ...` example in a ```console block of README.md is
/// run on the recorded traces, and its output must be exactly what the README
/// shows: the README cannot drift from the tool.
@Suite("README examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible, Sendable {
        var arguments: [String]
        var expected: String
        var line: Int
        var description: String { "README.md:\(line): napkin-inspect \(arguments.joined(separator: " "))" }
    }

    static func examples() throws -> [Example] {
        let readme = try String(contentsOf: CLIHarness.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [Example] = []
        var inConsole = false
        var current: Example?
        for (index, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if inConsole, let example = current { examples.append(example) }
                current = nil
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ napkin-inspect ") {
                if let example = current { examples.append(example) }
                let words = line.dropFirst("$ napkin-inspect ".count).split(separator: " ").map(String.init)
                current = Example(arguments: words, expected: "", line: index + 1)
            } else if current != nil {
                current!.expected += line + "\n"
            }
        }
        return examples
    }

    @Test("README has console examples for check, tree, timeline and stats")
    func readmeHasExamples() throws {
        let commands = Set(try Self.examples().compactMap(\.arguments.first))
        #expect(commands.isSuperset(of: ["check", "tree", "timeline", "stats"]), "\(commands)")
    }

    @Test("each README console example prints exactly what the README shows", arguments: try ReadmeExamplesTests.examples())
    func exampleOutputMatches(_ example: Example) async throws {
        let result = try await CLIHarness.inspect(example.arguments, environment: ["NO_COLOR": "1"])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        #expect(result.stdout == example.expected, "\(example) printed something else:\n\(result.stdout)")
    }
}
