import Foundation
import NapkinTrace
import Synchronization
import XCTest

/// An `XCTestCase` whose every test gets a leak verdict, as the Swift
/// Testing trait ``NapkinLeakCheck`` gives one: the napkin objects the test
/// created must be gone (deallocated, stopped) a grace period after it
/// ends, or the test fails with one failure per finding, recorded on the
/// line of the app's code the finding names, with the recorded trace.
///
/// ```swift
/// import NapkinTesting
/// import XCTest
///
/// final class CheckoutTests: NapkinLeakCheckedTestCase {
///     // Optional: the settings of the trait, for every test of the class.
///     override var leakCheck: NapkinLeakCheck { .napkinLeakCheck(expectTeardown: true) }
///
///     @MainActor
///     func testLogoutTearsDownTheSession() async {
///         let root = await makeLaunchedRoot()
///         await root.logIn()
///         await root.logOut()    // fails the test if LoggedIn stays alive
///     }
/// }
/// ```
///
/// For one test of any `XCTestCase`, `XCTestCase.napkinLeakCheck(grace:expectTeardown:viewGrace:maxAlive:fileID:filePath:line:_:)`
/// checks a block instead.
///
/// **Why a base class.** Changing the superclass is the one line that
/// reads as "every test of this class is leak-checked", as
/// `@Suite(.napkinLeakCheck)` does for a suite, and it is the only opt-in
/// that can put the whole test inside the recording scope: a task-local
/// value is bound around a call, so it has to wrap the test from outside
/// (``invokeTest()``); a `setUp()` can start nothing that the test method
/// then runs inside, and an `XCTestObservation` sees tests start and end
/// but runs none of them. The scope covers `setUp`, the test method (sync
/// or `async`: the task XCTest runs an `async` method in, started from
/// `invokeTest()`, inherits the scope; `LeakCheckedTestCaseTests` checks it
/// with swift-corelibs-xctest, and with Apple's XCTest in CI) and
/// `tearDown`, so the verdict comes after `tearDown` has released what the
/// test case's properties held.
///
/// What the check waits for, what it records, and how it behaves under
/// `napkin-inspect check -- swift test` are the trait's: docs/testing.md
/// ("XCTest" says what differs).
open class NapkinLeakCheckedTestCase: XCTestCase {
    /// The leak check each test of the class gets: the trait's value and
    /// settings (``NapkinLeakCheck/grace``, ``NapkinLeakCheck/expectTeardown``,
    /// ``NapkinLeakCheck/viewGrace``). `.napkinLeakCheck` (1 s grace) unless
    /// a subclass overrides it; read once per test, so an override may
    /// depend on the test (`name`).
    open var leakCheck: NapkinLeakCheck { .napkinLeakCheck }

    /// Runs the test (`setUp`, the test method, `tearDown`) inside a
    /// recording scope, then, unless it failed on its own or was skipped,
    /// waits for what it let go and records one failure per finding, each
    /// at the finding's first code location, plus the recorded trace
    /// (docs/testing.md, "XCTest").
    override open func invokeTest() {
        let names = XCTestNames(testCaseName: name)
        let run = LeakCheckRun(leakCheck, testName: names.traceName, recordingName: names.methodName)
        run.record { super.invokeTest() }
        // A test that failed or was skipped gets no verdict (docs/testing.md, "A test that fails on its own").
        guard !napkinTestFailedOrSkipped else {
            run.end()
            return
        }
        guard let verdict = XCTestLeakReport.waitForVerdict(of: run) else { return }
        recordLeaks(XCTestLeakReport(verdict, names: names, test: nil, fallback: nil,
                                     packageRoots: XCTestNames.packageRoots(bundlePath: Bundle(for: Self.self).bundlePath)))
    }
}

extension XCTestCase {
    /// Runs `body` with a leak check, in any `XCTestCase`: the napkin
    /// objects it creates must be gone a grace period after it returns, or
    /// the test fails with one failure per finding, recorded on the line of
    /// the app's code the finding names, with the recorded trace. The same
    /// check as the trait ``NapkinLeakCheck`` (the same settings and
    /// defaults) and as ``NapkinLeakCheckedTestCase``, for one test:
    ///
    /// ```swift
    /// @MainActor
    /// func testClosingTheCartReleasesIt() async {
    ///     await napkinLeakCheck(expectTeardown: true) {
    ///         var shop: ShopRouter? = ShopRouter()
    ///         await shop!.launch()
    ///         await shop!.openCart()
    ///         await shop!.closeCart()
    ///         shop = nil
    ///     }
    /// }
    /// ```
    ///
    /// The verdict comes when `body` has returned (a clean block is not
    /// slowed down), before this function returns. An error `body` throws
    /// is rethrown without a verdict, and a test that already recorded a
    /// failure (or was skipped) gets none either. Only what `body` creates
    /// is recorded (with the tasks it starts, and what gets attached under
    /// its routers): create the objects under test inside it.
    ///
    /// - Parameters:
    ///   - grace: how long something let go may take to deallocate or stop;
    ///     1 s by default, like the trait and `napkin-inspect check`.
    ///   - expectTeardown: report everything `body` created that is still
    ///     alive a grace period after it returns.
    ///   - viewGrace: how long a router's view may stay shown after the
    ///     router left the tree; 5 s by default.
    ///   - maxAlive: the most instances of a type `body` may have alive at
    ///     once (`["LoggedInRouter": 1]`): more is `over-budget`.
    ///   - fileID, filePath, line: the call's place (leave the defaults):
    ///     a finding that names no code is recorded there, and the app's
    ///     files are looked for from the test's file.
    ///   - body: the flow under test.
    nonisolated(nonsending)
    public func napkinLeakCheck(grace: Duration = .seconds(1), expectTeardown: Bool = false, viewGrace: Duration = .seconds(5),
                                maxAlive: [String: Int] = [:],
                                fileID: String = #fileID, filePath: String = #filePath, line: UInt = #line,
                                _ body: () async throws -> Void) async rethrows {
        let check = NapkinLeakCheck(grace: grace, expectTeardown: expectTeardown, viewGrace: viewGrace, maxAlive: maxAlive)
        let names = XCTestNames(testCaseName: name)
        let run = LeakCheckRun(check, testName: names.traceName, recordingName: names.methodName)
        do {
            try await run.record(body)
        } catch {
            run.end()
            throw error
        }
        guard !napkinTestFailedOrSkipped else {
            run.end()
            return
        }
        // Nil when clean, traced by `check`, or cancelled while waiting (the test is ending anyway).
        guard let verdict = try? await run.verdict() else { return }
        recordLeaks(XCTestLeakReport(verdict, names: names, test: TestSource(fileID: fileID, filePath: filePath),
                                     fallback: (filePath, Int(clamping: line)),
                                     packageRoots: XCTestNames.packageRoots(bundlePath: Bundle(for: type(of: self)).bundlePath)))
    }

    /// Whether the running test already failed (a failed assertion, a
    /// thrown error, an issue recorded) or was skipped: XCTest's count for
    /// the test's run.
    var napkinTestFailedOrSkipped: Bool {
        guard let testRun else { return false }
        return testRun.totalFailureCount > 0 || testRun.hasBeenSkipped
    }
}

/// How the XCTest support names a test, from XCTest's name for it:
/// `ShopXCTests.testLeaveTheShop` (swift-corelibs-xctest) or
/// `-[ShopTests.ShopXCTests testLeaveTheShop]` (Apple's XCTest).
struct XCTestNames: Sendable, Equatable {
    /// The test case class: `ShopXCTests`.
    var className: String
    /// The test method: `testLeaveTheShop`.
    var methodName: String

    /// The names in XCTest's `name` of a test case.
    init(testCaseName name: String) {
        var text = Substring(name)
        if text.hasPrefix("-["), text.hasSuffix("]") {
            // Apple: -[Module.Class method]
            text = text.dropFirst(2).dropLast()
            let parts = text.split(separator: " ", maxSplits: 1)
            let qualified = parts.first ?? ""
            className = String(qualified.split(separator: ".").last ?? qualified)
            methodName = parts.count > 1 ? String(parts[1]) : ""
        } else if let dot = text.lastIndex(of: ".") {
            // swift-corelibs-xctest: Class.method
            className = String(text[..<dot])
            methodName = String(text[text.index(after: dot)...])
        } else {
            className = ""
            methodName = String(text)
        }
    }

    /// `ShopXCTests/testLeaveTheShop`: how the trace's test marks name the
    /// test under `napkin-inspect check -- swift test` (the trait's form,
    /// `Suite/test()`, for XCTest).
    var traceName: String { className.isEmpty ? methodName : "\(className)/\(methodName)" }

    /// `napkin-trace-ShopXCTests-testLeaveTheShop.ndjson`: the name of a
    /// failing test's recorded trace.
    var traceFileName: String {
        let keep: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        let name = [className, methodName].map { $0.filter(keep) }.filter { !$0.isEmpty }.joined(separator: "-")
        return name.isEmpty ? "napkin-trace.ndjson" : "napkin-trace-\(name).ndjson"
    }

    /// Where the package under test may be, for a test that does not say
    /// where it is declared (``NapkinLeakCheckedTestCase``): the directory
    /// holding the `.build` the test bundle at `bundlePath` was built in
    /// (`swift test`), then the current directory.
    static func packageRoots(bundlePath: String, currentDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        var roots: [String] = []
        if let build = bundlePath.range(of: "/.build/", options: .backwards), build.lowerBound != bundlePath.startIndex {
            roots.append(String(bundlePath[..<build.lowerBound]))
        }
        if !currentDirectory.isEmpty, currentDirectory != "/", !roots.contains(currentDirectory) {
            roots.append(currentDirectory)
        }
        return roots
    }
}

/// What the XCTest support records for a verdict: one failure per finding,
/// each placed on its line, and the trace to attach (``XCTestCase/recordLeaks(_:)``,
/// per platform).
struct XCTestLeakReport: Sendable {
    /// One failure to record.
    struct Failure: Sendable, Equatable {
        /// The failure's text (``FindingMessage``'s).
        var text: String
        /// The file to record it in (a full path when found, else the
        /// file id); nil: the test itself (the base class knows no line of it).
        var file: String?
        /// The line in ``file``.
        var line: Int
    }

    /// The failures, one per finding.
    var failures: [Failure]
    /// The recorded trace (NDJSON, with its end record).
    var trace: String
    /// The trace's attachment or file name (``XCTestNames/traceFileName``).
    var traceFileName: String

    /// The report of `verdict` for the test `names`, declared in `test`
    /// (nil: unknown); a finding without a code location that names a line
    /// (none, or only functions: ``FindingMessage/location``) goes to
    /// `fallback` (the call's file and line; nil: the test itself).
    init(_ verdict: LeakVerdict, names: XCTestNames, test: TestSource?, fallback: (file: String, line: Int)?,
         packageRoots: [String], fileExists: (String) -> Bool = IssueLocation.fileExists) {
        failures = verdict.messages(test: test, packageRoots: packageRoots, fileExists: fileExists).map { message in
            if let location = message.location, let path = message.path {
                return Failure(text: message.text, file: path, line: Int(clamping: location.line))
            }
            return Failure(text: message.text, file: fallback?.file, line: fallback?.line ?? 0)
        }
        trace = verdict.trace
        traceFileName = names.traceFileName
    }

    /// Waits, from the synchronous ``NapkinLeakCheckedTestCase/invokeTest()``,
    /// for `run`'s verdict (nil: nothing to report, or cancelled). The
    /// verdict is computed in a task; meanwhile the calling thread runs its
    /// run loop, as XCTest does while it waits for an `async` test: on the
    /// main thread that runs the main actor's jobs, which the wait needs. The
    /// verdict wakes it (no 10 ms slice is waited out on the clean path).
    static func waitForVerdict(of run: LeakCheckRun) -> LeakVerdict? {
        let box = VerdictBox()
        Task {
            box.set(try? await run.verdict())
            // Wakes the run loop below now, not at the end of its slice: a
            // job on the main queue ends the main thread's `run(mode:before:)`.
            DispatchQueue.main.async {}
        }
        while !box.isSet {
            if !RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) {
                // A run loop with nothing to run returns at once: do not spin.
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        return box.verdict
    }

    /// The verdict handed from the task that computes it to the waiting thread.
    private final class VerdictBox: Sendable {
        private let state = Mutex<(set: Bool, verdict: LeakVerdict?)>((false, nil))

        func set(_ verdict: LeakVerdict?) { state.withLock { $0 = (true, verdict) } }
        var isSet: Bool { state.withLock { $0.set } }
        var verdict: LeakVerdict? { state.withLock { $0.verdict } }
    }
}
