import Napkin
@testable import NapkinTesting
import NapkinTrace
import Synchronization
import Testing

/// The trait in-process: used as a trait on clean flows, and called
/// directly (`provideScope`) on leaking ones, whose issues are caught with
/// `withKnownIssue` and inspected.
///
/// Leaks here are permanent (a retain cycle), so a short wait cannot miss
/// them; clean flows use long grace periods, which cost nothing when the
/// flow is clean (the verdict comes as soon as everything is gone), so a
/// busy machine cannot turn a slow deinit into a finding.
@Suite("NapkinLeakCheck: the trait")
@MainActor
struct NapkinLeakCheckTests {
    static let cleanGrace: Duration = .seconds(30)
    static let leakGrace: Duration = .seconds(2)

    @Test("used as a trait on a clean flow: passes", .napkinLeakCheck(grace: cleanGrace, expectTeardown: true))
    func cleanFlowAsTrait() async {
        await playCleanFlow()
    }

    @Test("a leak: one issue, on the line of the attach, with the rule, the subject and the locations")
    func leakIssue() async throws {
        let check = NapkinLeakCheck(grace: Self.leakGrace)
        let test = try #require(Test.current)
        let issues = IssueLog()
        let attachLine = Locked<Int>(0)
        let leaked = Locked<ClingingRouter?>(nil)
        try await withKnownIssue {
            try await check.provideScope(for: test, testCase: Test.Case.current) { @MainActor in
                var root: RootRouter? = RootRouter()
                await root!.launch()
                let child = await ClingingRouter.make()
                leaked.set(child)
                attachLine.set(#line + 1)
                await root!.attachChild(child)
                root = nil // released with the child still attached
            }
        } matching: { issues.add($0) }
        let all = issues.all
        try #require(all.count == 1, "\(all)")
        let text = all[0].comments.map(\.rawValue).joined(separator: "\n")
        #expect(text.hasPrefix("napkin leak check: error[undetached-child] ClingingRouter#"), "\(text)")
        #expect(text.contains("still attached to RootRouter#"), "\(text)")
        #expect(text.contains("\n  at NapkinTestingTests/NapkinLeakCheckTests.swift:\(attachLine.get()) (attached)\n"), "\(text)")
        #expect(text.hasSuffix("\n  see docs/findings.md#undetached-child"), "\(text)")
        let location = try #require(all[0].sourceLocation)
        #expect(location.fileID == #fileID)
        #expect(location.filePath == #filePath)
        #expect(location.line == attachLine.get())
        // Break the cycle: nothing outlives the test.
        await leaked.get()?.interactor.release()
    }

    @Test("a budget (maxAlive:): two instances at once under a budget of 1 is one over-budget issue; within the budget, none")
    func budget() async throws {
        for (budget, expected) in [(1, 1), (2, 0)] {
            let check = NapkinLeakCheck(grace: Self.leakGrace, maxAlive: ["BudgetedRouter": budget])
            let test = try #require(Test.current)
            let issues = IssueLog()
            let body = { @MainActor in
                let first = BudgetedRouter(interactor: BudgetedInteractor())
                let second = BudgetedRouter(interactor: BudgetedInteractor())
                withExtendedLifetime((first, second)) {}
            }
            if expected == 0 {
                try await check.provideScope(for: test, testCase: Test.Case.current, performing: body)
            } else {
                try await withKnownIssue {
                    try await check.provideScope(for: test, testCase: Test.Case.current, performing: body)
                } matching: { issues.add($0) }
            }
            let all = issues.all
            #expect(all.count == expected, "\(all)")
            if expected == 1 {
                let text = all[0].comments.map(\.rawValue).joined(separator: "\n")
                #expect(text.hasPrefix("napkin leak check: error[over-budget] BudgetedRouter#"), "\(text)")
                #expect(text.contains("2 alive at once"), "\(text)")
            }
        }
    }

    @Test("a test that throws: its error, and no leak verdict")
    func throwingTest() async throws {
        struct Failure: Error {}
        let check = NapkinLeakCheck(grace: Self.leakGrace)
        let test = try #require(Test.current)
        let leaked = Locked<ClingingRouter?>(nil)
        // A leak issue here would fail this test.
        await #expect(throws: Failure.self) {
            try await check.provideScope(for: test, testCase: Test.Case.current) { @MainActor in
                leaked.set(await playLeakingFlow())
                throw Failure()
            }
        }
        await leaked.get()?.interactor.release()
    }

    @Test("parallel tests do not mix: a clean scope running next to a leaking one stays clean")
    func parallelScopes() async throws {
        let leaking = NapkinLeakCheck(grace: Self.leakGrace)
        let clean = NapkinLeakCheck(grace: Self.cleanGrace, expectTeardown: true)
        let test = try #require(Test.current)
        let issues = IssueLog()
        let leaked = Locked<ClingingRouter?>(nil)
        try await withKnownIssue {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await leaking.provideScope(for: test, testCase: nil) { @MainActor in
                        var root: RootRouter? = RootRouter()
                        await root!.launch()
                        let child = await ClingingRouter.make()
                        leaked.set(child)
                        await root!.attachChild(child)
                        root = nil
                    }
                }
                group.addTask {
                    try await clean.provideScope(for: test, testCase: nil) { @MainActor in
                        var root: RootRouter? = RootRouter()
                        await root!.launch()
                        for _ in 0..<3 {
                            let child = PlainRouter()
                            await root!.attachChild(child)
                            await root!.detachChild(child)
                        }
                        root = nil
                    }
                }
                try await group.waitForAll()
            }
        } matching: { issues.add($0) }
        let all = issues.all
        #expect(all.count == 1, "\(all)")
        #expect(all.first?.comments.first?.rawValue.contains("error[undetached-child] ClingingRouter#") == true, "\(all)")
        await leaked.get()?.interactor.release()
    }
}

/// The scope each test gets: one per test case, the test's own check over its suite's.
@Suite("NapkinLeakCheck: which check scopes a test", .napkinLeakCheck(grace: .seconds(3)))
struct LeakCheckScopeTests {
    @Test("on a suite: every test inherits the check, and a suite's is recursive")
    func inherited() throws {
        let test = try #require(Test.current)
        let checks = test.traits.compactMap { $0 as? NapkinLeakCheck }
        #expect(checks == [NapkinLeakCheck(grace: .seconds(3))])
        #expect(checks.first?.isRecursive == true)
        #expect(checks.first?.scopeProvider(for: test, testCase: Test.Case.current) == checks.first)
    }

    @Test("the test's own check overrides its suite's: only one scopes it", .napkinLeakCheck(grace: .seconds(7), expectTeardown: true))
    func overridden() throws {
        let test = try #require(Test.current)
        let suite = NapkinLeakCheck(grace: .seconds(3))
        let own = NapkinLeakCheck(grace: .seconds(7), expectTeardown: true)
        #expect(test.traits.compactMap { $0 as? NapkinLeakCheck } == [suite, own])
        #expect(own.scopeProvider(for: test, testCase: Test.Case.current) == own)
        #expect(suite.scopeProvider(for: test, testCase: Test.Case.current) == nil)
    }

    @Test("no scope for a test function as a whole, only for its cases")
    func perCase() throws {
        let test = try #require(Test.current)
        let check = NapkinLeakCheck(grace: .seconds(3))
        #expect(check.scopeProvider(for: test, testCase: nil) == nil)
        #expect(check.scopeProvider(for: test, testCase: Test.Case.current) == check)
    }

    @Test("the factories and the defaults: 1 s, no teardown expected, 5 s for views")
    func factories() {
        let defaults: NapkinLeakCheck = .napkinLeakCheck
        #expect(defaults == NapkinLeakCheck(grace: .seconds(1), expectTeardown: false, viewGrace: .seconds(5), maxAlive: [:]))
        let custom: NapkinLeakCheck = .napkinLeakCheck(grace: .milliseconds(500), expectTeardown: true, viewGrace: .seconds(2))
        #expect(custom.grace == .milliseconds(500))
        #expect(custom.expectTeardown)
        #expect(custom.viewGrace == .seconds(2))
        #expect(NapkinLeakCheck.napkinLeakCheck(maxAlive: ["LoggedInRouter": 1]).maxAlive == ["LoggedInRouter": 1])
    }
}

/// The issues a `withKnownIssue` matcher saw.
final class IssueLog: Sendable {
    private let issues = Mutex<[Issue]>([])

    /// Keeps `issue`; always matches.
    func add(_ issue: Issue) -> Bool {
        issues.withLock { $0.append(issue) }
        return true
    }

    var all: [Issue] { issues.withLock { $0 } }
}

/// A value shared with a `@Sendable` closure.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }

    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func get() -> Value { value.withLock { $0 } }
}

/// The recording scope a test runs in: the suite's `init` and the test body
/// share the test's own recorder.
@Suite("NapkinLeakCheck: the recording scope", .napkinLeakCheck)
struct RecordingScopeTests {
    let tracerAtInit: ObjectIdentifier?

    init() {
        tracerAtInit = TraceContext.recording.map(ObjectIdentifier.init)
    }

    @Test("the suite's init and the test body run inside the test's recording")
    func insideRecording() throws {
        let body = try #require(TraceContext.recording.map(ObjectIdentifier.init), "the body records")
        #expect(tracerAtInit == body, "the suite's init records into the same recorder")
    }

    @Test("a task the test starts records into it too")
    func childTask() async throws {
        let body = try #require(TraceContext.recording.map(ObjectIdentifier.init))
        let inTask = await Task { TraceContext.recording.map(ObjectIdentifier.init) }.value
        #expect(inTask == body)
    }

    @Test("a failing test's trace is attached under its name")
    func attachmentNames() throws {
        let test = try #require(Test.current)
        #expect(NapkinLeakCheck.attachmentName(for: test) == "napkin-trace-attachmentNames.ndjson")
    }
}

/// Without the trait, nothing records.
@Suite("NapkinLeakCheck: off without the trait")
struct NoRecordingScopeTests {
    @Test("a test without the trait runs outside any recording")
    func outsideRecording() {
        #expect(TraceContext.recording == nil)
    }
}

/// A router a test budgets (`maxAlive:`).
@MainActor final class BudgetedRouter: Router<BudgetedInteractor> {}

final actor BudgetedInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}
