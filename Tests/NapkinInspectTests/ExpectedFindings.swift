import Foundation

/// The findings each recorded trace must produce: the fixtures' from
/// `Tests/Fixtures/traces/expected-findings.json` (shared with the trace
/// module's tests), the examples' from `Examples/RibHouse/README.md`
/// (default options: grace 1 s, no expect-teardown).
enum ExpectedFindings {
    /// One expected finding, as `check --format json` reports it.
    struct Item: Hashable, Sendable, CustomStringConvertible {
        var rule: String
        var subject: String
        var type: String
        var id: Int
        var label: String?
        var seqs: [Int]

        var description: String { "\(rule) \(subject) \(type)#\(id)\(label.map { " '\($0)'" } ?? "") seqs \(seqs)" }
    }

    /// The one place the fixtures' findings are written, shared with the trace module's tests.
    private struct File: Decodable {
        struct Case: Decodable {
            var fixture: String
            var expectTeardown: Bool
            var findings: [Finding]
        }
        struct Finding: Decodable {
            var rule: String
            var subject: String
            var type: String
            var id: Int
            var label: String?
            var seqs: [Int]
        }
        var cases: [Case]
        /// The `-clean` fixtures without a buggy twin (they yield nothing).
        var cleanOnly: [String]
    }

    private static let file: File = {
        let url = CLIHarness.repoRoot.appendingPathComponent("Tests/Fixtures/traces/expected-findings.json")
        do {
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    private static func items(_ c: File.Case) -> [Item] {
        c.findings.map { Item(rule: $0.rule, subject: $0.subject, type: $0.type, id: $0.id, label: $0.label, seqs: $0.seqs) }
    }

    /// Fixture name (without `.ndjson`) → its findings with the default options.
    /// `-clean` twins are not listed: they have none.
    static var fixtures: [String: [Item]] {
        var result: [String: [Item]] = [:]
        for c in file.cases where !c.expectTeardown { result[c.fixture] = items(c) }
        return result
    }

    /// `alive-at-end.ndjson` with `--expect-teardown`.
    static var aliveAtEndWithTeardown: [Item] {
        file.cases.first { $0.fixture == "alive-at-end" && $0.expectTeardown }.map(items) ?? []
    }

    /// Every fixture file name (without `.ndjson`): the ones above, their
    /// clean twins (every fixture that yields a finding has one), and the
    /// clean fixtures without a twin (`cleanOnly`: a covered view is not gone).
    static var allFixtureNames: [String] {
        var names = Set(fixtures.keys).union(file.cleanOnly)
        for c in file.cases where !c.findings.isEmpty { names.insert(c.fixture + "-clean") }
        return names.sorted()
    }

    /// The example traces of rib-house: `clean` and one per `--bug`, with the rule each produces.
    static let examples: [(name: String, rule: String?)] = [
        ("clean", nil),
        ("bug-forgotten-detach", "view-gone-still-attached"),
        ("bug-swipe-back", "view-gone-still-attached"),
        ("bug-retain-cycle", "not-deallocated"),
        ("bug-ignore-cancel", "orphaned-task"),
        ("bug-early-task", "task-started-inactive"),
        ("bug-service-keeps-child", "undetached-child"),
    ]
}
