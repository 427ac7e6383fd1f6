import Foundation
import Testing
import TestSupport

/// The hostile inputs of `Tests/Fixtures/hostile` and what every subcommand
/// must do with each (`cases.json`), and the subcommand variants they run through.
enum HostileCorpus {
    /// The folder, relative to the repository root.
    static let directory = "Tests/Fixtures/hostile"

    /// One way to run napkin-inspect on a trace.
    struct Variant: Sendable, CustomStringConvertible {
        /// The name `cases.json` uses: `tree`, `check-json`, `mermaid-sequence`, ...
        var name: String
        /// The arguments before the trace path.
        var arguments: [String]
        /// The command word (`check`), which `cases.json` may also use.
        var command: String { arguments[0] }
        var description: String { name }
    }

    /// Every subcommand, in every format and view.
    static let variants: [Variant] = [
        Variant(name: "tree", arguments: ["tree"]),
        Variant(name: "timeline", arguments: ["timeline"]),
        Variant(name: "timeline-mermaid", arguments: ["timeline", "--format", "mermaid"]),
        Variant(name: "mermaid-tree", arguments: ["mermaid", "--view", "tree"]),
        Variant(name: "mermaid-timeline", arguments: ["mermaid", "--view", "timeline"]),
        Variant(name: "mermaid-sequence", arguments: ["mermaid", "--view", "sequence"]),
        Variant(name: "stats", arguments: ["stats"]),
        Variant(name: "stats-json", arguments: ["stats", "--format", "json"]),
        Variant(name: "check", arguments: ["check"]),
        Variant(name: "check-json", arguments: ["check", "--format", "json"]),
        Variant(name: "check-junit", arguments: ["check", "--format", "junit"]),
        Variant(name: "check-github", arguments: ["check", "--format", "github"]),
        Variant(name: "check-sarif", arguments: ["check", "--format", "sarif"]),
        // The population rules on hostile type names: rounds at the corpus's `step` marks, budgets its
        // routers exceed where `check` already finds something (the status is `check`'s).
        Variant(name: "check-populations", arguments: ["check", "--rounds", "step", "--max-alive", "ItemRouter=1", "--max-alive", "ChildRouter=1"]),
        Variant(name: "live", arguments: ["live"]),
        Variant(name: "report", arguments: ["report", "-o", "-"]),
    ]

    /// One hostile input and what must happen to it.
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        /// The file in ``HostileCorpus/directory`` (or, for a generated case, its name).
        var file: String
        /// What is hostile about it.
        var what: String
        /// The exit status, by variant name, command word, or `*`.
        var status: [String: Int32]
        /// A text every run's standard error contains.
        var stderr: String? = nil
        /// A text a variant's standard output contains, by variant name.
        var stdout: [String: String]? = nil
        /// The most bytes any run may print on standard output (256 KiB when not given).
        var maxOutput: Int? = nil

        var testDescription: String { file }

        /// The exit status `variant` must end with.
        func expectedStatus(_ variant: Variant) -> Int32? {
            status[variant.name] ?? status[variant.command] ?? status["*"]
        }
    }

    /// The manifest.
    private struct Manifest: Decodable {
        var cases: [Case]
    }

    /// The cases of `cases.json` (empty if it cannot be read: a test then fails on it).
    static let cases: [Case] = {
        let url = PackagePaths.root.appendingPathComponent(directory).appendingPathComponent("cases.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return manifest.cases
    }()
}
