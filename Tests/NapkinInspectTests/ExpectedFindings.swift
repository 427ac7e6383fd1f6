import Foundation
import Testing
import TestSupport

/// The findings each recorded trace must produce, as `check` reports them:
/// the fixtures' from `Tests/Fixtures/traces/expected-findings.json` (read
/// by ``ExpectedFindings/load()``, shared with the trace module's tests),
/// the examples' from `Examples/RibHouse/README.md` (default options: grace
/// 1 s, no expect-teardown; an example's `checkArguments` add what its
/// finding needs, e.g. `--rounds round`).
extension ExpectedFindings {
    /// One expected finding, as `check --format json` reports it.
    struct Reported: Hashable, Sendable, CustomStringConvertible {
        var rule: String
        var subject: String
        var type: String
        var id: Int
        var label: String?
        var seqs: [Int]

        var description: String { "\(rule) \(subject) \(type)#\(id)\(label.map { " '\($0)'" } ?? "") seqs \(seqs)" }
    }

    /// The file, read once.
    private static let file: ExpectedFindings = {
        do {
            return try load()
        } catch {
            fatalError("cannot read \(Fixtures.relativeDirectory)/expected-findings.json: \(error)")
        }
    }()

    /// The findings of `c`, as `check` reports them.
    private static func reported(_ c: Case) -> [Reported] {
        c.findings.map { Reported(rule: $0.rule, subject: $0.subject, type: $0.type, id: Int($0.id), label: $0.label, seqs: $0.seqs.map { Int($0) }) }
    }

    /// Fixture name (without `.ndjson`) → its findings with the default options.
    /// `-clean` twins are not listed: they have none.
    static var fixtures: [String: [Reported]] {
        var result: [String: [Reported]] = [:]
        for c in file.cases where !c.expectTeardown { result[c.fixture] = reported(c) }
        return result
    }

    /// The options fixture `name` (or the buggy twin of a `-clean` one) is
    /// checked with, as `check` arguments (`--rounds`, `--max-alive`); none
    /// for most.
    static func checkArguments(_ name: String) -> [String] {
        let buggy = name.hasSuffix(Fixtures.cleanSuffix) ? String(name.dropLast(Fixtures.cleanSuffix.count)) : name
        return file.cases.first { $0.fixture == buggy && !$0.expectTeardown }?.checkArguments ?? []
    }

    /// Every fixture file name (without `.ndjson`): the ones above, their
    /// clean twins (every fixture that yields a finding has one), and the
    /// clean fixtures without a twin (`cleanOnly`: a covered view is not gone).
    static var allFixtureNames: [String] {
        var names = Set(fixtures.keys).union(file.cleanOnly)
        for c in file.cases where !c.findings.isEmpty { names.insert(c.fixture + Fixtures.cleanSuffix) }
        return names.sorted()
    }

    /// One example trace of rib-house: a recorded run and the rule its
    /// check finds.
    struct Example: Sendable, CustomTestStringConvertible {
        /// The file name, without `.ndjson`.
        var name: String
        /// The rule `check` reports (nil: the clean run, no finding).
        var rule: String?
        /// rib-house's arguments besides `--quiet` and `--bug`, as
        /// `Examples/traces/record.sh` records the run.
        var appArguments: [String] = []
        /// `check`'s options the finding needs, the analysis options the
        /// README names for the bug (none: the defaults).
        var checkArguments: [String] = []

        /// The `--bug` name (nil: the clean run).
        var bug: String? { name.hasPrefix("bug-") ? String(name.dropFirst("bug-".count)) : nil }

        var testDescription: String { name }
    }

    /// The example traces of rib-house: `clean` and one per `--bug`, in
    /// `--list-bugs` order, with the rule each produces.
    static let examples: [Example] = [
        Example(name: "clean", rule: nil),
        Example(name: "bug-forgotten-detach", rule: "view-gone-still-attached"),
        Example(name: "bug-swipe-back", rule: "view-gone-still-attached"),
        Example(name: "bug-retain-cycle", rule: "not-deallocated"),
        Example(name: "bug-ignore-cancel", rule: "orphaned-task"),
        Example(name: "bug-early-task", rule: "task-started-inactive"),
        Example(name: "bug-service-keeps-child", rule: "undetached-child"),
        // A growth shows over rounds: three rounds, each starting at a `round N` mark.
        Example(name: "bug-prefetch-leak", rule: "growing-population",
                appArguments: ["--loop", "3"], checkArguments: ["--rounds", "round"]),
        Example(name: "bug-closure-keeps-order", rule: "not-deallocated"),
        Example(name: "bug-tab-keeps-order", rule: "not-deallocated"),
    ]
}
