@testable import NapkinTrace
import Testing
import TestSupport

/// `growing-population` (`Analysis/Rules/GrowingPopulationRule.swift`): the
/// live count of a type, sampled at each round start and at the end, keeps
/// rising.
@Suite("Rule growing-population")
struct GrowingPopulationRuleTests {
    /// A trace of `counts.count` rounds (marks `round N`): at the start of
    /// round k the count of live `CacheRouter`s is `counts[k]` (routers made
    /// or released before the mark), then `end` at the session's end.
    static func rounds(_ counts: [Int], end: Int? = nil, marks: String = "round", numbered: Bool = true) -> [TraceEvent] {
        var b = TraceBuilder()
        b.root(2)
        var live: [NodeID] = []
        var next: NodeID = 10
        func reach(_ count: Int) {
            while live.count < count {
                b.router(next, "Cache")
                live.append(next)
                next += 2
            }
            while live.count > count { b.release(live.removeFirst()) }
        }
        for (k, count) in counts.enumerated() {
            reach(count)
            b.add(.mark(text: numbered ? "\(marks) \(k + 1)" : marks))
            b.wait(100_000_000)
        }
        reach(end ?? counts.last ?? 0)
        b.add(.sessionEnd(reason: "exit"))
        return b.events
    }

    static func findings(_ events: [TraceEvent], prefix: String = "round") -> [String] {
        TraceAnalyzer.analyze(events, options: .init(rounds: .marks(prefix: prefix))).findings.map { "\($0.rule) \($0.type)" }
    }

    @Test("steady growth, growth every second round, growth that started late: found",
          arguments: [([0, 1, 2], 3), ([0, 1, 2, 3], 3), ([0, 1, 1, 2, 2, 3, 3], 4), ([5, 5, 5, 6, 7, 8], 9), ([2, 1, 2, 3], 4)])
    func growing(_ counts: [Int], _ end: Int) {
        #expect(Self.findings(Self.rounds(counts, end: end)) == ["growing-population CacheRouter"], "\(counts) then \(end)")
    }

    @Test("a cache that fills up and stops, a pool that grows and shrinks, warm-up, two rises, nothing: clean",
          arguments: [([0, 1, 2, 3, 3, 3], 3), ([0, 2, 4, 2, 1], 1), ([0, 1, 1, 1, 1], 1), ([0, 1, 2], 2), ([0, 0, 0, 0], 0),
                      ([0, 1, 2, 3, 3], 3), ([0, 1, 2, 3], 3)] as [([Int], Int)])
    func clean(_ counts: [Int], _ end: Int) {
        // Two flat samples after the last rise (with the end's) end the growth; one does not.
        let expected: [String] = counts == [0, 1, 2, 3] ? ["growing-population CacheRouter"] : []
        #expect(Self.findings(Self.rounds(counts, end: end)) == expected, "\(counts) then \(end)")
    }

    @Test("the end's count counts only when it did not go down: a run that tears down at its end keeps its growth")
    func teardownAtTheEnd() {
        #expect(Self.findings(Self.rounds([0, 1, 2, 3], end: 0)) == ["growing-population CacheRouter"])
        #expect(Self.findings(Self.rounds([0, 1, 2], end: 0)).isEmpty, "two rises only")
    }

    @Test("rounds are the marks with the prefix; without it, repeated test starts; other recurring marks are not rounds")
    func whereRoundsStart() {
        let events = Self.rounds([0, 1, 2, 3], end: 4, marks: "visit menu")
        #expect(Self.findings(events, prefix: "visit").count == 1)
        #expect(Self.findings(events, prefix: "round").isEmpty)
        // The default: recurring marks that are not test starts are no rounds.
        #expect(TraceAnalyzer.analyze(events).isClean)
        let tests = Self.rounds([0, 1, 2, 3], end: 4, marks: NapkinTrace.testStartedPrefix + "flow()", numbered: false)
        let report = TraceAnalyzer.analyze(tests)
        #expect(report.ruleAndSubject.count == 1 && report.findings.first?.message.contains("(test flow()), then at the end") == true, "\(report)")
    }

    @Test("each session of a file on its own: growth in the second, none carried over from the first")
    func sessions() {
        let first = Self.rounds([0, 1], end: 2)          // two rises: not enough
        let second = Self.rounds([0, 1, 2, 3], end: 4)
        let report = TraceAnalyzer.analyze(first + second.map { TraceEvent(seq: $0.seq, time: $0.time, kind: $0.kind) },
                                           options: .init(rounds: .marks(prefix: "round")))
        #expect(report.ruleAndSubject == ["growing-population CacheRouter#16"], "\(report)")
        let firstTwice = TraceAnalyzer.analyze(first + first, options: .init(rounds: .marks(prefix: "round")))
        #expect(firstTwice.isClean, "two sessions of two rises are not four: \(firstTwice)")
    }

    @Test("the finding: the counts per round, the survivors' creation lines grouped, a fingerprint without ids or counts")
    func message() throws {
        func trace(rounds: Int) -> [TraceEvent] {
            var b = TraceBuilder()
            b.root(2)
            var next: NodeID = 10
            for k in 1...rounds {
                b.add(.mark(text: "round \(k)"))
                for line: UInt in [31, 31, 40] where line == 31 || k % 2 == 0 {
                    b.add(.interactorCreated(id: next - 1, type: "CacheInteractor"))
                    b.add(.routerCreated(id: next, type: "CacheRouter", interactor: next - 1, interactorType: "CacheInteractor"),
                          location: CodeLocation(fileID: "Shop/CacheBuilder.swift", line: line))
                    next += 2
                }
            }
            b.add(.sessionEnd(reason: "exit"))
            return b.events
        }
        let four = TraceAnalyzer.analyze(trace(rounds: 4), options: .init(rounds: .marks(prefix: "round"))).findings
        let six = TraceAnalyzer.analyze(trace(rounds: 6), options: .init(rounds: .marks(prefix: "round"))).findings
        let finding = try #require(four.first)
        #expect(four.count == 1, "one finding: the interactors grow with their routers \(four)")
        #expect(finding.message.contains("0, 2, 5, 7, 10"), "\(finding.message)")
        #expect(finding.message.contains("Shop/CacheBuilder.swift:31 (8), Shop/CacheBuilder.swift:40 (2)"), "\(finding.message)")
        #expect(finding.locations.map(\.description) == ["Shop/CacheBuilder.swift:31 (created)", "Shop/CacheBuilder.swift:40 (created)"])
        #expect(six.first?.fingerprint == finding.fingerprint, "the same lines: the same fingerprint, whatever the counts")
    }

    @Test("creations recorded as functions (a device): grouped by function as by line, named without a line, a stable fingerprint")
    func functions() throws {
        let build = CodeLocation(module: "RibHouse", function: "CacheBuilder.build(withListener:)")
        let cached = CodeLocation(module: "RibHouse", function: "CacheBuilder.buildCached()")
        func trace(rounds: Int, _ where: (UInt) -> CodeLocation) -> [TraceEvent] {
            var b = TraceBuilder()
            b.root(2)
            var next: NodeID = 10
            for k in 1...rounds {
                b.add(.mark(text: "round \(k)"))
                for line: UInt in [31, 31, 40] where line == 31 || k % 2 == 0 {
                    b.add(.interactorCreated(id: next - 1, type: "CacheInteractor"), location: `where`(line))
                    b.add(.routerCreated(id: next, type: "CacheRouter", interactor: next - 1, interactorType: "CacheInteractor"),
                          location: `where`(line))
                    next += 2
                }
            }
            b.add(.sessionEnd(reason: "exit"))
            return b.events
        }
        let device: (UInt) -> CodeLocation = { $0 == 31 ? build : cached }
        let options = TraceAnalyzer.Options(rounds: .marks(prefix: "round"))
        let four = TraceAnalyzer.analyze(trace(rounds: 4, device), options: options).findings
        let six = TraceAnalyzer.analyze(trace(rounds: 6, device), options: options).findings
        let finding = try #require(four.first)
        #expect(four.count == 1, "\(four)")
        #expect(finding.message.contains("created at RibHouse/CacheBuilder.build(withListener:) (8), RibHouse/CacheBuilder.buildCached() (2)"),
                "\(finding.message)")
        #expect(!finding.message.contains(":0"), "\(finding.message)")
        #expect(finding.locations.map(\.description)
                == ["RibHouse/CacheBuilder.build(withListener:) (created)", "RibHouse/CacheBuilder.buildCached() (created)"])
        #expect(six.first?.fingerprint == finding.fingerprint, "the same functions: the same fingerprint, whatever the counts")
        // The same bug recorded with lines (a Mac): the same finding, another fingerprint.
        let mac = TraceAnalyzer.analyze(trace(rounds: 4) { CodeLocation(fileID: "RibHouse/CacheBuilder.swift", line: $0) }, options: options)
        #expect(mac.findings.map(\.subjectName) == four.map(\.subjectName))
        #expect(mac.findings.first?.fingerprint != finding.fingerprint)
        // The survey itself: every instance grouped, none without a line.
        let events = trace(rounds: 4, device)
        var state = TraceState()
        for event in events.dropLast() { _ = state.apply(event) }
        for key in [PopulationCounts.Key(.router, type: "CacheRouter"), PopulationCounts.Key(.interactor, type: "CacheInteractor")] {
            let survey = PopulationSurvey(of: key, in: state)
            #expect(survey.lines.map(\.location) == [build, cached], "\(key)")
            #expect(survey.lines.map(\.count) == [8, 2], "\(key)")
            #expect(survey.withoutLine == 0, "\(key)")
        }
    }

    @Test("bound tasks piling up: their owner type and label")
    func tasks() {
        var b = TraceBuilder()
        b.root(2)
        for k in 1...4 {
            b.add(.mark(text: "round \(k)"))
            b.add(.taskStart(task: 1_000 + NodeID(k), owner: 1, label: "poll"))
        }
        b.add(.sessionEnd(reason: "exit"))
        let findings = TraceAnalyzer.analyze(b.events, options: .init(rounds: .marks(prefix: "round"))).findings
        #expect(findings.map(\.subjectName) == ["RootInteractor#1 'poll'"], "a task finding names its owner: \(findings)")
        #expect(findings.first?.subject == .task)
    }

    @Test("bounded: endless round marks and a thousand types stay within the sampling budget", .dedicatedThread, .singleThreaded)
    func bounded() {
        var b = TraceBuilder()
        b.root(2)
        for k in 0..<1_200 { b.router(NodeID(10 + 2 * k), "T\(k)") }
        // A thousand populations (the cap) sampled 6,000 times: past the sampling budget.
        for k in 0..<6_000 { b.add(.mark(text: "round \(k)")) }
        b.add(.sessionEnd(reason: "exit"))
        var analyzer = TraceAnalyzer(options: .init(rounds: .marks(prefix: "round")))
        for event in b.events { analyzer.consume(event) }
        analyzer.finish()
        #expect(analyzer.populations.populations.count == PopulationCounts.maxPopulations)
        // 2,402 types (the root's two, then a router and an interactor type each): the rest untracked.
        #expect(analyzer.populations.untrackedInstances == 2_402 - PopulationCounts.maxPopulations)
        #expect(analyzer.findings.isEmpty)
    }

    @Test("its fixtures yield exactly their findings; the clean twins and clean fixtures nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .growingPopulation))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
