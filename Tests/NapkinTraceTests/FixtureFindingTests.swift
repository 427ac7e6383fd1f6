import NapkinTrace
import Testing

/// Each hand-written fixture in `Tests/Fixtures/traces` yields exactly the
/// findings it was written to show, and its `-clean` twin yields none.
@Suite("Findings of the fixture traces")
struct FixtureFindingTests {
    /// One finding a fixture must produce.
    struct Expected: CustomStringConvertible, Sendable {
        var rule: Finding.Rule
        var subject: Finding.SubjectKind
        var type: String
        var id: NodeID
        var label: String?
        var seqs: [UInt64]
        /// Words the message must contain.
        var words: [String]

        init(_ rule: Finding.Rule, _ subject: Finding.SubjectKind, _ type: String, _ id: NodeID,
             label: String? = nil, seqs: [UInt64], words: [String] = []) {
            self.rule = rule
            self.subject = subject
            self.type = type
            self.id = id
            self.label = label
            self.seqs = seqs
            self.words = words
        }

        var description: String { "\(rule.rawValue) \(subject) \(type)#\(id) \(label ?? "") \(seqs)" }

        func matches(_ finding: Finding) -> Bool {
            finding.rule == rule && finding.subject == subject && finding.type == type && finding.id == id
                && finding.label == label && finding.seqs == seqs
        }
    }

    /// A fixture, the options it is analysed with, and what it must yield.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var expectTeardown = false
        var findings: [Expected]
        var undecided = 0
        var testDescription: String { name + (expectTeardown ? " (expect teardown)" : "") }
    }

    static let cases: [Case] = [
        Case(name: "undetached-child", findings: [
            Expected(.undetachedChild, .router, "ProfileRouter", 6, seqs: [21], words: ["HomeRouter#4", "deallocated without detaching"]),
        ]),
        Case(name: "not-deallocated", findings: [
            // Only the detached router: not its interactor, nor the PaymentRouter it holds.
            Expected(.notDeallocated, .router, "OrderRouter", 4, seqs: [18], words: ["detached", "1s"]),
        ]),
        Case(name: "not-deallocated-interactor", findings: [
            Expected(.notDeallocated, .interactor, "SettingsInteractor", 3, seqs: [14], words: ["router #4", "retains"]),
        ]),
        Case(name: "orphaned-task", findings: [
            // The interactor kept alive by its task is reported as the task.
            Expected(.orphanedTask, .task, "PitBoardInteractor", 3, label: "pit-poller", seqs: [11, 14, 15],
                     words: ["'pit-poller'", "deactivated", "cancellation"]),
        ]),
        Case(name: "orphaned-task-owner-gone", findings: [
            Expected(.orphanedTask, .task, "AnnouncementsInteractor", 3, label: "feed", seqs: [11, 14, 15],
                     words: ["'feed'", "gone"]),
        ]),
        Case(name: "orphaned-task-at-end", findings: [
            Expected(.taskStartedInactive, .task, "ImageCacheInteractor", 3, label: "warm-up", seqs: [8],
                     words: ["inactive", "didBecomeActive"]),
            Expected(.orphanedTask, .task, "ImageCacheInteractor", 3, label: "warm-up", seqs: [8],
                     words: ["end of the trace", "inactive"]),
        ]),
        Case(name: "task-started-inactive", findings: [
            Expected(.taskStartedInactive, .task, "MenuInteractor", 3, label: "prefetch", seqs: [8],
                     words: ["MenuInteractor#3", "inactive"]),
        ]),
        Case(name: "active-after-detach", findings: [
            Expected(.activeAfterDetach, .interactor, "CheckoutInteractor", 3, seqs: [12], words: ["still active"]),
        ]),
        Case(name: "duplicate-child", findings: [
            Expected(.duplicateChild, .router, "MenuRouter", 4, seqs: [9, 16], words: ["RootRouter#2", "#6"]),
        ]),
        Case(name: "double-attach", findings: [
            Expected(.doubleAttach, .router, "SettingsRouter", 4, seqs: [12], words: ["already attached", "RootRouter#2"]),
        ]),
        Case(name: "detach-non-child", findings: [
            Expected(.detachNonChild, .router, "SettingsRouter", 4, seqs: [14], words: ["RootRouter#2", "not its child"]),
        ]),
        Case(name: "event-after-deinit", findings: [
            Expected(.eventAfterDeinit, .trace, "#3", 3, seqs: [15], words: ["deactivate", "already deallocated"]),
        ]),
        Case(name: "events-dropped", findings: [
            Expected(.eventsDropped, .trace, "trace", 0, seqs: [], words: ["3 events", "12-14"]),
        ]),
        Case(name: "alive-at-end", findings: []),
        Case(name: "alive-at-end", expectTeardown: true, findings: [
            // The top of the alive subtree only, not its child.
            Expected(.aliveAtEnd, .router, "RootRouter", 2, seqs: [3], words: ["1 attached descendant"]),
        ]),
        Case(name: "undecided-at-end", findings: [], undecided: 1),
    ]

    @Test("the fixture yields exactly its findings", arguments: cases)
    func findings(_ c: Case) throws {
        let report = try analyzeFixture(c.name, options: .init(expectTeardown: c.expectTeardown))
        #expect(report.findings.count == c.findings.count, "\(report)")
        for expected in c.findings {
            let matching = report.findings.filter { expected.matches($0) }
            #expect(matching.count == 1, "expected \(expected) in:\n\(report)")
            for finding in matching {
                #expect(finding.severity == expected.rule.severity)
                for word in expected.words {
                    #expect(finding.message.contains(word), "\(finding.message) lacks \"\(word)\"")
                }
            }
        }
        #expect(report.undecided == c.undecided, "\(report)")
        #expect(report.endedCleanly)
    }

    /// Names of the buggy fixtures that have a clean twin.
    static let twinned = [
        "undetached-child", "not-deallocated", "not-deallocated-interactor", "orphaned-task",
        "orphaned-task-owner-gone", "orphaned-task-at-end", "task-started-inactive", "active-after-detach",
        "duplicate-child", "double-attach", "detach-non-child", "event-after-deinit", "events-dropped", "alive-at-end",
    ]

    @Test("the clean twin yields nothing, with and without expect-teardown", arguments: twinned)
    func cleanTwin(_ name: String) throws {
        for teardown in [false, true] {
            let report = try analyzeFixture(name + "-clean", options: .init(expectTeardown: teardown))
            #expect(report.isClean, "\(name)-clean (expect teardown: \(teardown)):\n\(report)")
            #expect(report.undecided == 0)
            #expect(report.endedCleanly)
            #expect(report.droppedEvents == 0)
        }
    }

    @Test("every rule has a fixture, and every fixture is listed here and in the README")
    func coverage() throws {
        let names = try Fixtures.allNames()
        let covered = Set(Self.cases.flatMap { $0.findings.map(\.rule) })
        #expect(covered == Set(Finding.Rule.allCases))
        let listed = Set(Self.cases.map(\.name) + Self.twinned.map { $0 + "-clean" })
        #expect(Set(names) == listed)
        let readme = try String(contentsOfFile: Fixtures.directory.appendingPathComponent("README.md").path, encoding: .utf8)
        for name in names {
            #expect(readme.contains("`\(name).ndjson`"), "README.md does not describe \(name).ndjson")
        }
    }

    @Test("fixtures are well formed: session first, end last, seqs increasing, time monotonic")
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
            if name.hasSuffix("-clean") {
                var state = TraceState()
                for event in result.events {
                    let misuse = state.apply(event)
                    #expect(misuse == nil, "\(name): \(String(describing: misuse)) at seq \(event.seq)")
                }
                #expect(state.nodeCount == 0, "\(name) does not tear everything down")
            }
        }
    }

    @Test("re-encoding a fixture's events as NDJSON gives the same events and findings", arguments: cases)
    func encodeRoundTrip(_ c: Case) throws {
        let (result, _) = try readAll(path: Fixtures.path(c.name))
        var bytes: [UInt8] = []
        for event in result.events { TraceEncoder.append(event, to: &bytes) }
        let (again, _) = try readAll(bytes: bytes)
        #expect(again.events == result.events)
        let options = TraceAnalyzer.Options(expectTeardown: c.expectTeardown)
        #expect(TraceAnalyzer.analyze(again.events, options: options).findings
                == TraceAnalyzer.analyze(result.events, options: options).findings)
    }

    @Test("the analysis is the same when fed event by event with the live clock advancing in between")
    func incremental() throws {
        for c in Self.cases {
            let (result, _) = try readAll(path: Fixtures.path(c.name))
            var analyzer = TraceAnalyzer(options: .init(expectTeardown: c.expectTeardown))
            for event in result.events {
                analyzer.advance(to: event.time)   // a live view's clock never runs ahead of the events here
                analyzer.consume(event)
            }
            analyzer.finish()
            let batch = TraceAnalyzer.analyze(result.events, options: .init(expectTeardown: c.expectTeardown))
            #expect(analyzer.findings == batch.findings, "\(c.name)")
            #expect(analyzer.undecided == batch.undecided, "\(c.name)")
        }
    }
}
