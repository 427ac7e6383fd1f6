import Foundation
import Napkin
@testable import NapkinTesting
import NapkinTrace
import Synchronization
import Testing
import XCTest

// The XCTest support in-process. XCTest runs these classes one test at a
// time on the main thread, as it runs a user's; every test here passes
// when the support works, on Linux (swift-corelibs-xctest) and with Apple's
// XCTest alike. What a leak looks like in XCTest's output, and a test that
// fails on its own, are checked end to end (`XCTestLeakCheckEndToEndTests`).

/// The base class: every test runs inside its own recording scope, sync or
/// async, on the main actor or not, and the tasks it starts inherit it.
final class LeakCheckedTestCaseTests: NapkinLeakCheckedTestCase {
    // Clean flows only: a long grace period costs them nothing, and with
    // `expectTeardown` anything left behind (or seen from elsewhere) fails.
    override var leakCheck: NapkinLeakCheck { .napkinLeakCheck(grace: .seconds(30), expectTeardown: true) }

    func testSynchronousMethodRecords() {
        XCTAssertNotNil(TraceContext.recording, "a synchronous test method runs inside the recording scope")
    }

    // The question for swift-corelibs-xctest (and Apple's XCTest): XCTest
    // runs an async test method in a task it starts from `invokeTest()`;
    // the task inherits the task-local scope bound around it.
    func testAsyncMethodRecords() async {
        let body = TraceContext.recording.map(ObjectIdentifier.init)
        XCTAssertNotNil(body, "an async test method runs inside the recording scope")
        let inTask = await Task { TraceContext.recording.map(ObjectIdentifier.init) }.value
        XCTAssertEqual(inTask, body, "a task the test starts records into the same recorder")
    }

    @MainActor
    func testMainActorMethodRecords() async {
        XCTAssertNotNil(TraceContext.recording, "a main-actor async test method runs inside the recording scope")
    }

    // What the test creates is recorded, and a clean flow passes its check.
    @MainActor
    func testCleanFlowIsRecordedAndPasses() async throws {
        let recorder = try XCTUnwrap(TraceContext.recording)
        let before = recorder.snapshot().count
        await playCleanFlow()
        XCTAssertGreaterThan(recorder.snapshot().count, before, "the flow's events are in the test's recording")
    }

    func testNamesOfTheRunningTest() {
        let names = XCTestNames(testCaseName: name)
        XCTAssertEqual(names.className, "LeakCheckedTestCaseTests")
        XCTAssertEqual(names.methodName, "testNamesOfTheRunningTest")
        XCTAssertFalse(napkinTestFailedOrSkipped, "nothing failed yet")
    }
}

/// The function: a block of any `XCTestCase`.
final class NapkinLeakCheckFunctionTests: XCTestCase {
    func testNoRecordingWithoutTheCheck() {
        XCTAssertNil(TraceContext.recording, "a plain XCTestCase records nothing")
    }

    func testTheBlockRecords() async {
        var inside: ObjectIdentifier?
        await napkinLeakCheck {
            inside = TraceContext.recording.map(ObjectIdentifier.init)
        }
        XCTAssertNotNil(inside, "the block runs inside a recording scope")
        XCTAssertNil(TraceContext.recording, "and only the block")
    }

    @MainActor
    func testCleanBlockPasses() async {
        await napkinLeakCheck(grace: .seconds(30), expectTeardown: true) {
            await playCleanFlow()
        }
    }

    func testTheBlocksErrorIsRethrown() async {
        struct Stop: Error {}
        do {
            try await napkinLeakCheck { throw Stop() }
            XCTFail("the block's error is rethrown")
        } catch {
            XCTAssertTrue(error is Stop, "\(error)")
        }
    }

    // Two checks at once never mix: A (the shared implementation, in a task
    // of its own) creates a root and keeps it alive until B, this test's
    // block, which expects everything *it* created to be gone, has its
    // verdict. Were A's root in B's recording, B would fail this test with
    // `alive-at-end`; were B's objects in A's, A's verdict would not be nil.
    @MainActor
    func testConcurrentChecksDoNotMix() async {
        let gate = Gate()
        let a = Task { @MainActor in
            let run = LeakCheckRun(.napkinLeakCheck(grace: .seconds(30), expectTeardown: true), testName: "A", recordingName: "A")
            await run.record {
                var root: RootRouter? = RootRouter()
                await root!.launch()
                await gate.open("A holds its root")
                await gate.wait("B has its verdict")
                root = nil
            }
            return try? await run.verdict()
        }
        await gate.wait("A holds its root")
        await napkinLeakCheck(grace: .seconds(30), expectTeardown: true) {
            var root: RootRouter? = RootRouter()
            await root!.launch()
            root = nil
        }
        await gate.open("B has its verdict")
        let verdictOfA = await a.value
        XCTAssertNil(verdictOfA, "A is clean too: \(verdictOfA?.findings ?? [])")
    }
}

/// Named moments two concurrent tasks wait for.
actor Gate {
    private var opened: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func open(_ moment: String) {
        opened.insert(moment)
        for waiter in waiting.removeValue(forKey: moment) ?? [] { waiter.resume() }
    }

    func wait(_ moment: String) async {
        if opened.contains(moment) { return }
        await withCheckedContinuation { waiting[moment, default: []].append($0) }
    }
}

/// The parts of the XCTest support that do not need XCTest running.
@Suite("XCTest support: names, failures, the trace file")
struct XCTestSupportPartsTests {
    @Test("XCTest's name of a test, from swift-corelibs-xctest and from Apple's XCTest")
    func names() {
        let linux = XCTestNames(testCaseName: "ShopXCTests.testLeaveTheShop")
        #expect(linux == XCTestNames(testCaseName: "-[ShopTests.ShopXCTests testLeaveTheShop]"))
        #expect(linux == XCTestNames(testCaseName: "-[ShopXCTests testLeaveTheShop]"))
        #expect(linux.className == "ShopXCTests")
        #expect(linux.methodName == "testLeaveTheShop")
        #expect(linux.traceName == "ShopXCTests/testLeaveTheShop")
        #expect(linux.traceFileName == "napkin-trace-ShopXCTests-testLeaveTheShop.ndjson")
        let bare = XCTestNames(testCaseName: "testAlone")
        #expect(bare.traceName == "testAlone")
        #expect(bare.traceFileName == "napkin-trace-testAlone.ndjson")
        #expect(XCTestNames(testCaseName: "").traceFileName == "napkin-trace.ndjson")
    }

    @Test("the package roots of a test that does not say where it is: above .build, then the working directory")
    func packageRoots() {
        #expect(XCTestNames.packageRoots(bundlePath: "/src/shop/.build/x86_64-unknown-linux-gnu/debug/ShopPackageTests.xctest",
                                         currentDirectory: "/elsewhere") == ["/src/shop", "/elsewhere"])
        #expect(XCTestNames.packageRoots(bundlePath: "/src/shop/.build/debug/ShopPackageTests.xctest",
                                         currentDirectory: "/src/shop") == ["/src/shop"])
        #expect(XCTestNames.packageRoots(bundlePath: "/DerivedData/Build/Products/Debug/ShopTests.xctest", currentDirectory: "/") == [])
    }

    static let attached = Finding.CodeReference(.attached, CodeLocation(fileID: "Shop/ShopRouter.swift", line: 35))

    @Test("one failure per finding: the trait's text, at the app's line, the file found from the package roots")
    func failures() {
        let verdict = LeakVerdict(findings: [Reports.leak(locations: [Self.attached]), Reports.leak()], trace: "{}\n")
        let names = XCTestNames(testCaseName: "ShopXCTests.testLeaveTheShop")
        let report = XCTestLeakReport(verdict, names: names, test: nil, fallback: nil, packageRoots: ["/src/shop"],
                                      fileExists: { $0 == "/src/shop/Sources/Shop/ShopRouter.swift" })
        #expect(report.failures.count == 2)
        #expect(report.failures[0] == .init(text: FindingIssue(Reports.leak(locations: [Self.attached]), testLocation: Reports.testLocation,
                                                                fileExists: { _ in false }).text,
                                             file: "/src/shop/Sources/Shop/ShopRouter.swift", line: 35))
        // No code location, no line of the test known: the test itself.
        #expect(report.failures[1].file == nil)
        #expect(report.failures[1].text.hasPrefix("napkin leak check: error[not-deallocated] CartRouter#4: "))
        #expect(report.traceFileName == "napkin-trace-ShopXCTests-testLeaveTheShop.ndjson")
        #expect(report.trace == "{}\n")
    }

    @Test("the function's failures: the file found from the test's file, the call's line when the finding names no code")
    func functionFailures() {
        let verdict = LeakVerdict(findings: [Reports.leak(locations: [Self.attached]), Reports.leak()], trace: "")
        let test = TestSource(fileID: "ShopTests/ShopXCTests.swift", filePath: "/src/shop/Tests/ShopTests/ShopXCTests.swift")
        let report = XCTestLeakReport(verdict, names: XCTestNames(testCaseName: "A.testB"), test: test,
                                      fallback: ("/src/shop/Tests/ShopTests/ShopXCTests.swift", 12), packageRoots: ["/elsewhere"],
                                      fileExists: { $0 == "/src/shop/Sources/Shop/ShopRouter.swift" })
        #expect(report.failures.map(\.file) == ["/src/shop/Sources/Shop/ShopRouter.swift", "/src/shop/Tests/ShopTests/ShopXCTests.swift"])
        #expect(report.failures.map(\.line) == [35, 12])
        // Not found: the file id, still at the app's line.
        let unfound = XCTestLeakReport(verdict, names: XCTestNames(testCaseName: "A.testB"), test: test, fallback: nil, packageRoots: [],
                                       fileExists: { _ in false })
        #expect(unfound.failures[0].file == "Shop/ShopRouter.swift")
        #expect(unfound.failures[0].line == 35)
    }

    @Test("a finding whose code locations are all functions (a device): the call's line, else the test; the text names the function")
    func functionLocationFailures() {
        let builder = Finding.CodeReference(.created, CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:)"))
        let verdict = LeakVerdict(findings: [Reports.leak(locations: [builder])], trace: "")
        let test = TestSource(fileID: "ShopTests/ShopXCTests.swift", filePath: "/src/shop/Tests/ShopTests/ShopXCTests.swift")
        let report = XCTestLeakReport(verdict, names: XCTestNames(testCaseName: "A.testB"), test: test,
                                      fallback: ("/src/shop/Tests/ShopTests/ShopXCTests.swift", 12), packageRoots: ["/src/shop"],
                                      fileExists: { _ in true })
        #expect(report.failures.map(\.file) == ["/src/shop/Tests/ShopTests/ShopXCTests.swift"])
        #expect(report.failures.map(\.line) == [12])
        #expect(report.failures.first?.text.contains("  at RibHouse/LoggedInBuilder.build(withListener:) (created)") == true)
        let bare = XCTestLeakReport(verdict, names: XCTestNames(testCaseName: "A.testB"), test: nil, fallback: nil, packageRoots: [],
                                    fileExists: { _ in true })
        #expect(bare.failures.map(\.file) == [nil], "no line of the test known: the test itself")
    }

    @Test("the trace file: written where asked, named after the test and the process, its path the failure's last line")
    func traceFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-xctest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let verdict = LeakVerdict(findings: [Reports.leak()], trace: "{\"kind\":\"session\"}\n")
        let report = XCTestLeakReport(verdict, names: XCTestNames(testCaseName: "ShopXCTests.testLeave"), test: nil, fallback: nil, packageRoots: [])
        let line = report.writeTrace(to: directory)
        let path = directory.appendingPathComponent("napkin-trace-ShopXCTests-testLeave-\(ProcessInfo.processInfo.processIdentifier).ndjson").path
        #expect(line == "  trace: \(path)")
        #expect(FileManager.default.contents(atPath: path) == Data(verdict.trace.utf8))
        let missing = report.writeTrace(to: directory.appendingPathComponent("missing"))
        #expect(missing.hasPrefix("  trace: not written to \(directory.path)/missing/"), "\(missing)")
    }
}
