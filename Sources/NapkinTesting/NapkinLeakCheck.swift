import NapkinTrace
import Testing

/// A Swift Testing trait that gives each test a leak verdict: the napkin
/// objects the test created must be gone (deallocated, stopped) a grace
/// period after it ends, or the test fails with one issue per finding,
/// shown on the line of the app's code the finding names.
///
/// ```swift
/// import NapkinTesting
/// import Testing
///
/// @Test(.napkinLeakCheck) @MainActor
/// func logoutTearsDownTheSession() async {
///     let root = await makeLaunchedRoot()
///     await root.logIn()
///     await root.logOut()    // fails the test if LoggedIn stays alive
/// }
///
/// @Suite(.napkinLeakCheck(grace: .milliseconds(500), expectTeardown: true))
/// struct CheckoutTests { ... }  // every test of the suite, each with its own verdict
/// ```
///
/// How it waits (a clean test is not slowed down), what a test that throws
/// gets, what it does under `napkin-inspect check -- swift test`, and which
/// objects a test's recording holds: docs/testing.md ("What it waits for",
/// "A test that fails on its own", "Under `napkin-inspect check -- swift
/// test`", "Limits").
///
/// XCTest gets the same check, from the same implementation (``LeakCheckRun``):
/// ``NapkinLeakCheckedTestCase`` for every test of a class, or
/// `napkinLeakCheck { ... }` in any `XCTestCase`, both taking this type's
/// settings (docs/testing.md, "XCTest").
public struct NapkinLeakCheck: TestTrait, SuiteTrait, TestScoping, Hashable {
    /// How long what the test let go may take to deallocate or stop (after
    /// the event that let it go, and at most this long after the test ends).
    /// A finding is reported only once it is older than this.
    public var grace: Duration
    /// Whether everything the test created must be gone a grace period after
    /// it ends (`alive-at-end`): for tests that tear their whole tree down.
    public var expectTeardown: Bool
    /// How long a router's view may stay shown after the router left the
    /// tree (`view-shown-after-detach`); the trait waits this long only
    /// while such a check is pending.
    public var viewGrace: Duration
    /// The most instances of a type the test may have alive at once, by
    /// type name (`["LoggedInRouter": 1]`; a bound task as `Owner 'label'`):
    /// more is an `over-budget` finding (docs/findings.md).
    public var maxAlive: [String: Int]
    /// Whether a finding about an object still alive searches what holds
    /// it, while the test's objects live (``Finding/retainers``: the issue
    /// says `retained by …`); on by default. It costs nothing for a clean
    /// test, and at most 2 s per leaked object otherwise (docs/testing.md,
    /// "Who retains it").
    public var retainers: Bool

    /// A leak check with these settings (`.napkinLeakCheck(grace:expectTeardown:viewGrace:maxAlive:retainers:)`
    /// reads better in `@Test(...)`).
    ///
    /// - Parameters:
    ///   - grace: how long something let go may take to deallocate or stop;
    ///     1 s by default, like RIBs' `LeakDetector` and `napkin-inspect check`.
    ///   - expectTeardown: report everything the test created that is still
    ///     alive a grace period after it ends.
    ///   - viewGrace: how long a router's view may stay shown after the
    ///     router left the tree; 5 s by default.
    ///   - maxAlive: budgets of live instances by type name; none by default.
    ///   - retainers: search what holds a leaked object; on by default.
    public init(grace: Duration = .seconds(1), expectTeardown: Bool = false, viewGrace: Duration = .seconds(5),
                maxAlive: [String: Int] = [:], retainers: Bool = true) {
        self.grace = grace
        self.retainers = retainers
        self.expectTeardown = expectTeardown
        self.viewGrace = viewGrace
        self.maxAlive = maxAlive
    }

    /// Always `true`: on a suite, the check applies to every test in it and
    /// in its nested suites, each test with its own recording and verdict.
    public var isRecursive: Bool { true }

    /// The scope for one test case: this trait, unless `test` carries
    /// another leak check that comes later in its traits (the test's own
    /// `@Test(.napkinLeakCheck(...))` overrides its suite's), so a test is
    /// recorded and judged once. None for a suite itself (its tests get
    /// theirs) or for a test function as a whole (its cases get theirs).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> NapkinLeakCheck? {
        guard !test.isSuite, testCase != nil else { return nil }
        let last = test.traits.last { $0 is NapkinLeakCheck } as? NapkinLeakCheck
        return last == nil || last == self ? self : nil
    }

    /// Runs the test inside a recording scope, waits for what it let go (see
    /// ``NapkinLeakCheck``), and records one issue per finding, each at the
    /// finding's first code location (else at the test), plus the recorded
    /// trace as an attachment (`napkin-trace-TEST.ndjson`, for `napkin-inspect`;
    /// `swift test --attachments-path DIR` saves it).
    /// An error the test throws is rethrown, without a leak verdict.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let run = LeakCheckRun(self, testName: Self.traceName(for: test), recordingName: test.name)
        do {
            try await run.record { try await function() }
        } catch {
            // A test that throws has failed already: no verdict (see the type's documentation).
            run.end()
            throw error
        }
        guard let verdict = try await run.verdict() else { return }
        for message in verdict.messages(test: TestSource(test.sourceLocation)) {
            let issue = FindingIssue(message, testLocation: test.sourceLocation)
            #if compiler(>=6.3)
            Issue.record(issue.comment, severity: .error, sourceLocation: issue.sourceLocation)
            #else
            // Swift 6.2's Testing has no severities (`Issue.Severity` came with
            // Swift 6.3, Xcode 26.4): every recorded issue is an error.
            Issue.record(issue.comment, sourceLocation: issue.sourceLocation)
            #endif
        }
        Attachment.record(verdict.trace, named: Self.attachmentName(for: test), sourceLocation: test.sourceLocation)
    }

    /// `ShopTests/leaveTheShopWithTheCartOpen()`: how the trace's test marks
    /// name a test (its suite's name, when it has one, then its own).
    static func traceName(for test: Test) -> String {
        let suites = test.id.nameComponents.dropLast().filter { !$0.isEmpty }
        return (suites.last.map { $0 + "/" } ?? "") + test.name
    }

    /// `napkin-trace-leaveTheShopWithTheCartOpen.ndjson`: the name of a failing test's recorded trace.
    static func attachmentName(for test: Test) -> String {
        LeakVerdict.traceFileName(for: test.name)
    }
}

extension Trait where Self == NapkinLeakCheck {
    /// Checks the test (or every test of the suite) for napkin leaks, with a
    /// 1 s grace period: see ``NapkinLeakCheck``.
    ///
    /// ```swift
    /// @Test(.napkinLeakCheck) @MainActor func closingTheCartReleasesIt() async { ... }
    /// ```
    public static var napkinLeakCheck: Self { NapkinLeakCheck() }

    /// Checks the test (or every test of the suite) for napkin leaks: see
    /// ``NapkinLeakCheck``.
    ///
    /// ```swift
    /// @Suite(.napkinLeakCheck(grace: .milliseconds(500), expectTeardown: true))
    /// ```
    ///
    /// - Parameters:
    ///   - grace: how long something let go may take to deallocate or stop.
    ///   - expectTeardown: report everything the test created that is still
    ///     alive a grace period after it ends.
    ///   - viewGrace: how long a router's view may stay shown after the
    ///     router left the tree.
    ///   - maxAlive: the most instances of a type the test may have alive
    ///     at once (`["LoggedInRouter": 1]`): more is `over-budget`.
    ///   - retainers: search what holds a leaked object (on by default).
    public static func napkinLeakCheck(grace: Duration = .seconds(1), expectTeardown: Bool = false,
                                       viewGrace: Duration = .seconds(5), maxAlive: [String: Int] = [:],
                                       retainers: Bool = true) -> Self {
        NapkinLeakCheck(grace: grace, expectTeardown: expectTeardown, viewGrace: viewGrace, maxAlive: maxAlive,
                        retainers: retainers)
    }
}
