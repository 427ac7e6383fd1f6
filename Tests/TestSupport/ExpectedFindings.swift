// The expected findings of the fixture traces, read from the one place they
// are written: `Tests/Fixtures/traces/expected-findings.json`.

import Foundation
import NapkinTrace
import Testing

/// `Tests/Fixtures/traces/expected-findings.json`, decoded.
///
/// The file is a list of cases, each a fixture analysed with some options
/// and everything that must come out: the exact findings (each with words its
/// message must contain) and the number of undecided checks. A `-clean` twin
/// has no case of its own: it must yield nothing, with and without
/// expect-teardown (``cases(writtenFor:)`` adds those cases). So must the
/// `-clean` fixtures without a buggy twin that the file lists under
/// `cleanOnly` (``cleanOnly``).
public struct ExpectedFindings: Decodable, Sendable {
    /// One fixture, the options it is analysed with, and what it must yield.
    public struct Case: Decodable, Sendable, CustomTestStringConvertible, CustomStringConvertible {
        /// The fixture's file name without `.ndjson`.
        public var fixture: String
        /// Why the findings are what they are, where that is not obvious.
        public var note: String?
        /// Analyse with `expectTeardown` (`--expect-teardown`).
        public var expectTeardown: Bool
        /// Every finding, in any order: no more, no fewer.
        public var findings: [Item]
        /// Checks the trace ended too early to decide.
        public var undecided: Int
        /// Rounds start at marks with this prefix (`check --rounds`); nil:
        /// at the starts of a repeated test (the default).
        public var rounds: String? = nil
        /// Budgets of live instances (`check --max-alive NAME=N`).
        public var maxAlive: [String: Int]? = nil

        /// The analyzer's options for this case (default grace periods: 1 s, and 5 s for views).
        public var options: TraceAnalyzer.Options {
            .init(expectTeardown: expectTeardown, rounds: rounds.map { .marks(prefix: $0) } ?? .repeatedTests, maxAlive: maxAlive ?? [:])
        }

        /// The same options as `check`'s arguments, expect-teardown aside.
        public var checkArguments: [String] {
            (rounds.map { ["--rounds", $0] } ?? [])
                + (maxAlive ?? [:]).sorted { $0.key < $1.key }.flatMap { ["--max-alive", "\($0.key)=\($0.value)"] }
        }

        public var testDescription: String { fixture + (expectTeardown ? " (expect teardown)" : "") }
        public var description: String { testDescription }

        /// The case of a clean twin: nothing at all, with the options of
        /// the case it is the twin of (`like`), if any.
        public static func clean(_ fixture: String, expectTeardown: Bool, like buggy: Case? = nil) -> Case {
            Case(fixture: fixture, expectTeardown: expectTeardown, findings: [], undecided: 0,
                 rounds: buggy?.rounds, maxAlive: buggy?.maxAlive)
        }
    }

    /// One finding a case must yield, spelled as `check --format json` spells it.
    public struct Item: Decodable, Sendable, CustomStringConvertible {
        /// The rule's id, e.g. `not-deallocated`.
        public var rule: String
        /// `error` or `warning`.
        public var severity: String
        /// `router`, `interactor`, `task` or `trace`.
        public var subject: String
        public var type: String
        public var id: UInt64
        /// The task's label (task findings only).
        public var label: String?
        public var seqs: [UInt64]
        /// Words the message must contain.
        public var words: [String]

        public var description: String {
            "\(severity)[\(rule)] \(subject) \(type)#\(id)\(label.map { " '\($0)'" } ?? "") seqs \(seqs)"
        }

        /// Whether `finding` is this one (its message aside).
        public func matches(_ finding: Finding) -> Bool {
            finding.rule.rawValue == rule && finding.subject.rawValue == subject && finding.type == type
                && finding.id == id && finding.label == label && finding.seqs == seqs
        }
    }

    /// Every case, in the file's order.
    public var cases: [Case]
    /// The `-clean` fixtures that have no buggy twin: situations the rule
    /// their name starts with must not mistake for its bug (a covered view
    /// is not gone). Like a twin, each must yield nothing.
    public var cleanOnly: [String]

    /// Reads the file.
    public static func load() throws -> ExpectedFindings {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("expected-findings.json"))
        return try JSONDecoder().decode(ExpectedFindings.self, from: data)
    }

    /// The fixtures that have a case.
    public var fixtureNames: Set<String> { Set(cases.map(\.fixture)) }

    /// The rule fixture `name` was written for: the rule whose id is the
    /// longest prefix of the name (`orphaned-task-at-end` is an
    /// `orphaned-task` fixture), or nil (`undecided-at-end`).
    public static func rule(writtenFor name: String) -> Finding.Rule? {
        Finding.Rule.allCases
            .filter { name == $0.rawValue || name.hasPrefix($0.rawValue + "-") }
            .max { $0.rawValue.count < $1.rawValue.count }
    }

    /// The cases of the fixtures written for `rule` (nil: for no rule), then
    /// the cases of their clean twins and of the clean fixtures without a
    /// twin written for it, with and without expect-teardown.
    public func cases(writtenFor rule: Finding.Rule?) -> [Case] {
        let own = cases.filter { Self.rule(writtenFor: $0.fixture) == rule }
        var twins: [Case] = []
        for buggy in own where !twins.contains(where: { $0.fixture == buggy.fixture + Fixtures.cleanSuffix }) {
            let twin = buggy.fixture + Fixtures.cleanSuffix
            guard FileManager.default.fileExists(atPath: Fixtures.path(twin)) else { continue }
            twins += [Case.clean(twin, expectTeardown: false, like: buggy), Case.clean(twin, expectTeardown: true, like: buggy)]
        }
        for fixture in cleanOnly where Self.rule(writtenFor: fixture) == rule {
            twins += [Case.clean(fixture, expectTeardown: false), Case.clean(fixture, expectTeardown: true)]
        }
        return own + twins
    }

    /// Every case, and those of every clean twin.
    public func allCasesWithTwins() -> [Case] {
        ([nil] + Finding.Rule.allCases).flatMap { cases(writtenFor: $0) }
    }
}

extension ExpectedFindings.Case {
    /// Analyses the fixture and expects exactly this case's findings (each
    /// once, with its severity and message words), its undecided count, a
    /// clean end, and dropped events exactly when `events-dropped` is expected.
    public func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = try Fixtures.analyze(fixture, options: options, sourceLocation: sourceLocation)
        #expect(report.findings.count == findings.count, "\(self):\n\(report)", sourceLocation: sourceLocation)
        for expected in findings {
            let matching = report.findings.filter { expected.matches($0) }
            #expect(matching.count == 1, "\(self): expected \(expected) in:\n\(report)", sourceLocation: sourceLocation)
            for finding in matching {
                #expect(finding.severity.rawValue == expected.severity, "\(finding)", sourceLocation: sourceLocation)
                for word in expected.words {
                    #expect(finding.message.contains(word), "\(finding.message) lacks \"\(word)\"", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(report.undecided == undecided, "\(self):\n\(report)", sourceLocation: sourceLocation)
        #expect(report.endedCleanly, "\(self)", sourceLocation: sourceLocation)
        let dropsExpected = findings.contains { $0.rule == Finding.Rule.eventsDropped.rawValue }
        #expect((report.droppedEvents > 0) == dropsExpected, "\(self): \(report.droppedEvents) dropped", sourceLocation: sourceLocation)
    }
}
