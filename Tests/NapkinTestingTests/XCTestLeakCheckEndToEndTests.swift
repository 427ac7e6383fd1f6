import Foundation
@testable import NapkinTesting
import NapkinTrace
import Testing
import TestSupport

/// The XCTest support on a real `swift test` (swift-corelibs-xctest):
/// `Tests/Fixtures/XCTestLeakCheck`, a package that depends on this one by
/// path, runs the same flows of a tiny app under the base class
/// (`BaseClassTests`), the function (`FunctionTests`) and the Swift Testing
/// trait (`TraitTests`), tests that fail on their own, and tests meant to
/// run in parallel (`ParallelTests`). Exactly the leaking tests must fail,
/// each once, on the line of the app's code that attached the leaked
/// router, with the recorded trace written where the failure says.
///
/// The package is built in its own `.build` (ignored by git, kept between
/// runs: only the first run compiles everything), which can take minutes
/// on a loaded 2-core machine: the time limit is for a hang, nothing here
/// depends on timing. Linux only: Apple's XCTest prints failures its own
/// way and attaches the trace instead of writing it (CI runs
/// `Examples/LeakCheckedApp`'s XCTest case with `xcodebuild test` on a
/// simulator for that path).
/// Whether the tests run on Linux (swift-corelibs-xctest).
let runsOnLinux: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()

@Suite("NapkinTesting's XCTest support end to end: swift test in Tests/Fixtures/XCTestLeakCheck", .serialized,
       .enabled(if: runsOnLinux, "swift-corelibs-xctest's output and trace files"),
       .disabled(if: runsUnderThreadSanitizer,
                 "builds and runs another package (not sanitized): once, in the plain run, is enough"))
struct XCTestLeakCheckEndToEndTests {
    static let package = "Tests/Fixtures/XCTestLeakCheck"
    static let source = "\(package)/Sources/Flows/Store.swift"

    /// Where the fixture's tests write their traces (the child's `TMPDIR`),
    /// inside its `.build`: emptied before each run, never left in /tmp.
    static let traces = PackagePaths.url("\(package)/.build/napkin-traces")

    /// The whole fixture, one test at a time (XCTest's default), then the
    /// Swift Testing tests: run once, shared by the tests below, from `/`
    /// (as `xcodebuild` runs tests on a simulator), so that the failures'
    /// absolute paths cannot come from the working directory.
    static let serialRun = Task { try await run(["test", "--package-path", PackagePaths.url(package).path], from: "/") }

    /// `ParallelTests` under `swift test --parallel`.
    static let parallelRun = Task { try await run(["test", "--package-path", package, "--parallel", "--filter", "ParallelTests"]) }

    static func run(_ arguments: [String], from directory: String? = nil) async throws -> SwiftTestRun {
        try? FileManager.default.removeItem(at: traces)
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        return try await SwiftTestRun.run(arguments, environment: ["TMPDIR": traces.path], from: directory, timeout: .seconds(1_800))
    }

    /// The line of `Store.swift` marked `// the NAME's attach the leak check points at`.
    static func attachLine(_ name: String) throws -> Int {
        let lines = try PackagePaths.text(source).split(separator: "\n", omittingEmptySubsequences: false)
        let marked = lines.indices.filter { lines[$0].contains("// the \(name)'s attach the leak check points at") }
        try #require(marked.count == 1, "one marked attach of the \(name) in Store.swift")
        return marked[0] + 1
    }

    /// The leaking tests of the serial run, each with the router it leaks.
    static let leaking = ["BaseClassTests.testLeavesWithBasketOpen": "basket", "FunctionTests.testLeavesWithBasketOpen": "basket",
                          "ParallelTests.testLeaksTheBasket": "basket", "ParallelTests.testLeaksTheWishlist": "wishlist"]
    /// The tests that fail on their own, and what they fail with.
    static let failingOnTheirOwn = ["BaseClassTests.testFailsOnItsOwn": "fails on its own", "FunctionTests.testFailsOnItsOwn": "fails on its own",
                                    "BaseClassTests.testThrows": "threw error", "FunctionTests.testThrows": "threw error"]
    /// The clean tests.
    static let clean = ["BaseClassTests.testBrowsesTheShelf", "FunctionTests.testBrowsesTheShelf",
                        "ParallelTests.testCleanOne", "ParallelTests.testCleanTwo", "ParallelTests.testCleanSynchronous"]

    @Test("exit status non-zero; exactly the leaking tests and those that fail on their own fail, the clean ones pass")
    func verdicts() async throws {
        let run = try await Self.serialRun.value
        #expect(run.status != 0, "\(run)")
        var expected: [String: String] = [:]
        for test in Self.leaking.keys { expected[test] = "failed" }
        for test in Self.failingOnTheirOwn.keys { expected[test] = "failed" }
        for test in Self.clean { expected[test] = "passed" }
        #expect(run.xctestVerdicts == expected, "\(run)")
        #expect(run.lines.contains { $0.contains("Executed 13 tests, with 8 failures") }, "\(run)")
        // Nothing failed that is not a test's own failure or one leak per leaking test.
        #expect(run.xctestFailures.count == 8, "\(run.xctestFailures)")
    }

    @Test("a leaking test: one failure, recorded at the line of the app's attach, naming the rule, the router and the trace file")
    func leakAtTheAppsLine() async throws {
        let run = try await Self.serialRun.value
        for (test, router) in Self.leaking.sorted(by: { $0.key < $1.key }) {
            let failures = run.xctestFailures(of: test)
            try #require(failures.count == 1, "\(test): \(failures)\n\(run)")
            let failure = failures[0]
            let line = try Self.attachLine(router)
            let type = router == "basket" ? "BasketRouter" : "WishlistRouter"
            // At the app's line, by its full path (found from the package root above `.build`, or the test's file).
            #expect(failure.file == PackagePaths.url(Self.source).path, "\(test): \(failure)")
            #expect(failure.line == line, "\(test): \(failure)")
            #expect(failure.text.first?.hasPrefix("napkin leak check: error[undetached-child] \(type)#") == true, "\(test): \(failure)")
            #expect(failure.text.contains("  at Flows/Store.swift:\(line) (attached)"), "\(test): \(failure)")
            #expect(failure.text.contains("  see docs/findings.md#undetached-child"), "\(test): \(failure)")
            // Who retains it: the interactor's strong `router`, a cycle.
            #expect(failure.text.contains { $0.hasPrefix("  retained by: \(type)#") && $0.contains(".interactor → ClingingInteractor#")
                && $0.hasSuffix(".router (suspect) → \(type)#\($0.split(separator: "#")[1].split(separator: ".")[0]) (cycle)") },
                    "\(test): \(failure)")
            // The trace: written to the child's TMPDIR, named after the test, and read by napkin-inspect's analysis to the same finding.
            let traceLine = try #require(failure.text.last { $0.hasPrefix("  trace: ") }, "\(test): \(failure)")
            let path = String(traceLine.dropFirst("  trace: ".count))
            let names = test.split(separator: ".")
            #expect(path.hasPrefix("\(Self.traces.path)/napkin-trace-\(names[0])-\(names[1])-"), "\(test): \(path)")
            let (read, _) = try readAll(path: path)
            #expect(read.errors.isEmpty, "\(test): \(read.errors)")
            let report = TraceAnalyzer.analyze(read.events)
            #expect(report.endedCleanly, "\(test): the trace has its end record")
            let printed = try #require(PrintedFinding(failure.text), "\(test): \(failure)")
            #expect(report.findings.map(\.fingerprint) == [printed.fingerprint], "\(test): \(report)")
        }
    }

    @Test("a test that fails on its own (a failed assertion, a thrown error) gets no leak verdict, only its own failure")
    func noVerdictForAFailedTest() async throws {
        let run = try await Self.serialRun.value
        for (test, text) in Self.failingOnTheirOwn.sorted(by: { $0.key < $1.key }) {
            let failures = run.xctestFailures(of: test)
            #expect(failures.count == 1, "\(test): \(failures)\n\(run)")
            #expect(failures.first?.text.first?.contains(text) == true, "\(test): \(failures)")
            #expect(!failures.contains { $0.text.joined().contains("napkin leak check") }, "\(test): \(failures)")
        }
    }

    @Test("the base class, the function and the trait give the same finding on the same flow: rule, type, fingerprint, line")
    func sameFindingsAsTheTrait() async throws {
        let run = try await Self.serialRun.value
        let line = try Self.attachLine("basket")
        let traitIssues = run.swiftTestingIssues(of: "leavesWithBasketOpen()")
        try #require(traitIssues.count == 1, "\(traitIssues)\n\(run)")
        #expect(traitIssues[0][0].contains("recorded an issue at Store.swift:\(line):1"), "\(traitIssues)")
        let trait = try #require(PrintedFinding(traitIssues[0]), "\(traitIssues)")
        #expect(trait.rule == "undetached-child" && trait.type == "BasketRouter", "\(trait)")
        #expect(trait.fingerprint != nil)
        for test in ["BaseClassTests.testLeavesWithBasketOpen", "FunctionTests.testLeavesWithBasketOpen", "ParallelTests.testLeaksTheBasket"] {
            let failure = try #require(run.xctestFailures(of: test).first, "\(test)\n\(run)")
            let xctest = try #require(PrintedFinding(failure.text), "\(test): \(failure)")
            #expect(xctest == trait, "\(test): \(xctest) vs the trait's \(trait)")
            #expect(xctest.fingerprint == trait.fingerprint, "\(test)")
            #expect(failure.line == line)
        }
        // The clean flow passes under the trait too.
        #expect(run.swiftTestingIssues(of: "browsesTheShelf()").isEmpty, "\(run)")
        #expect(run.lines.contains { $0.contains("Test browsesTheShelf() passed after") }, "\(run)")
        #expect(run.lines.contains { $0.contains("Test leavesWithBasketOpen() failed after") && $0.hasSuffix(" with 1 issue.") }, "\(run)")
    }

    @Test("swift test --parallel: each leaking test reports its own router only; the clean ones, expecting a full teardown, pass")
    func parallel() async throws {
        let run = try await Self.parallelRun.value
        #expect(run.status != 0, "\(run)")
        let basket = run.xctestFailures(of: "ParallelTests.testLeaksTheBasket")
        let wishlist = run.xctestFailures(of: "ParallelTests.testLeaksTheWishlist")
        #expect(basket.count == 1 && basket.first.flatMap { PrintedFinding($0.text) }?.type == "BasketRouter", "\(basket)\n\(run)")
        #expect(wishlist.count == 1 && wishlist.first.flatMap { PrintedFinding($0.text) }?.type == "WishlistRouter", "\(wishlist)\n\(run)")
        #expect(run.xctestFailures.count == 2, "\(run.xctestFailures)\n\(run)")
        // SwiftPM runs each XCTest test in a process of its own, and shows the output of the failing ones only.
        for test in ["testCleanOne", "testCleanTwo", "testCleanSynchronous", "testLeaksTheBasket", "testLeaksTheWishlist"] {
            #expect(run.lines.contains { $0.hasSuffix("] Testing FlowTests.ParallelTests/\(test)") }, "\(test) ran\n\(run)")
        }
        for test in ["testCleanOne", "testCleanTwo", "testCleanSynchronous"] {
            #expect(run.xctestFailures(of: "ParallelTests.\(test)").isEmpty, "\(test)\n\(run)")
            #expect(run.xctestVerdicts["ParallelTests.\(test)"] != "failed", "\(test)\n\(run)")
        }
    }
}
