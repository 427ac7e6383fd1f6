import NapkinTrace
import Testing
import TestSupport

/// The fixture traces of `Tests/Fixtures/traces` as a set: every file has
/// its expectations in `expected-findings.json` (or is the clean twin of one
/// that has), is described in the README, and is a well-formed trace. What
/// each fixture yields is checked by the tests of the rule it was written for.
@Suite("Fixture catalog")
struct FixtureCatalogTests {
    @Test("every fixture file has a case in expected-findings.json, is the clean twin of one, or is listed as clean without a twin; every case has its file")
    func everyFileHasExpectations() throws {
        let expected = try ExpectedFindings.load()
        let files = Set(try Fixtures.allNames())
        let twins = Set(expected.fixtureNames.map { $0 + Fixtures.cleanSuffix }).intersection(files)
        let cleanOnly = Set(expected.cleanOnly)
        #expect(files.subtracting(twins).subtracting(cleanOnly) == expected.fixtureNames)
        #expect(expected.fixtureNames.isSubset(of: files), "cases without a file: \(expected.fixtureNames.subtracting(files).sorted())")
        // A twin has no case of its own: it is clean by definition.
        #expect(expected.fixtureNames.filter { $0.hasSuffix(Fixtures.cleanSuffix) }.isEmpty)
        // A clean fixture without a twin: a -clean file, listed once, with no
        // buggy twin, checked by the tests of the rule its name starts with.
        #expect(cleanOnly.count == expected.cleanOnly.count, "listed twice in cleanOnly: \(expected.cleanOnly)")
        for name in expected.cleanOnly {
            #expect(files.contains(name), "cleanOnly lists \(name), which has no file")
            #expect(name.hasSuffix(Fixtures.cleanSuffix), "\(name) is listed as clean but is not named -clean")
            #expect(!twins.contains(name), "\(name) is the clean twin of a case: it needs no cleanOnly entry")
            #expect(ExpectedFindings.rule(writtenFor: name) != nil, "\(name) is not named after a rule, so no rule's tests check it")
        }
    }

    @Test("every fixture that yields a finding has a clean twin")
    func findingsHaveCleanTwins() throws {
        let files = Set(try Fixtures.allNames())
        for c in try ExpectedFindings.load().cases where !c.findings.isEmpty {
            #expect(files.contains(c.fixture + Fixtures.cleanSuffix), "\(c.fixture) has no clean twin")
        }
    }

    @Test("the expectations name known rules, subjects and severities, each finding with the severity of its rule")
    func expectationsAreValid() throws {
        let expected = try ExpectedFindings.load()
        #expect(!expected.cases.isEmpty)
        for item in expected.cases.flatMap(\.findings) {
            let rule = Finding.Rule(rawValue: item.rule)
            #expect(rule != nil, "unknown rule \(item.rule)")
            #expect(Finding.SubjectKind(rawValue: item.subject) != nil, "unknown subject \(item.subject)")
            #expect(rule?.severity.rawValue == item.severity, "\(item)")
            #expect(!item.words.isEmpty, "\(item): no message words")
            #expect((item.label != nil) == (item.subject == "task") , "\(item): a label is for task findings")
        }
        // A fixture is analysed at most once per set of options.
        let keys = expected.cases.map { "\($0.fixture) \($0.expectTeardown)" }
        #expect(Set(keys).count == keys.count)
    }

    @Test("the README describes every fixture file")
    func readmeMentionsEveryFixture() throws {
        let readme = try String(contentsOf: Fixtures.directory.appendingPathComponent("README.md"), encoding: .utf8)
        for name in try Fixtures.allNames() {
            #expect(readme.contains("`\(name).ndjson`"), "README.md does not describe \(name).ndjson")
        }
        #expect(readme.contains("expected-findings.json"))
    }

    @Test("fixtures are well formed: session first, end last, seqs increasing, time monotonic", .dedicatedThread, .singleThreaded)
    func wellFormed() throws {
        for name in try Fixtures.allNames() {
            let (result, reader) = try readAll(path: Fixtures.path(name))
            #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
            #expect(reader.lineCount == result.events.count, "\(name)")
            #expect((10...40).contains(reader.lineCount), "\(name) has \(reader.lineCount) lines")
            guard case .sessionStart? = result.events.first?.kind, case .sessionEnd? = result.events.last?.kind else {
                Issue.record("\(name) does not start with a session record and end with an end record")
                continue
            }
            for (a, b) in zip(result.events, result.events.dropFirst()) {
                #expect(a.seq < b.seq, "\(name): seq \(b.seq) after \(a.seq)")
                #expect(a.time <= b.time, "\(name): time goes back at seq \(b.seq)")
            }
            // No misuse hides in the clean twins, and they tear everything down.
            if name.hasSuffix(Fixtures.cleanSuffix) {
                var state = TraceState()
                for event in result.events {
                    let misuse = state.apply(event)
                    #expect(misuse == nil, "\(name): \(String(describing: misuse)) at seq \(event.seq)")
                }
                #expect(state.nodeCount == 0, "\(name) does not tear everything down")
            }
        }
    }
}
