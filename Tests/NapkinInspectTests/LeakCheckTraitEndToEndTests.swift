import Foundation
import Testing
import TestSupport

/// The `NapkinTesting` trait on a real `swift test`: `Examples/LeakCheckedApp`
/// (a package that depends on this one by path) has one clean test and one
/// that leaks, both under `@Suite(.napkinLeakCheck)`, and the same two with
/// XCTest (`ShopXCTests: NapkinLeakCheckedTestCase`). Exactly the leaking
/// ones must fail, with the finding's rule and the line of the app's code
/// that attached the leaked router. (The XCTest support's own end-to-end
/// tests: `NapkinTestingTests/XCTestLeakCheckEndToEndTests`.)
///
/// It builds the example in its own `.build` (ignored by git, kept between
/// runs: only the first run compiles everything), which can take minutes on
/// a loaded 2-core machine: the time limit is generous, and nothing here
/// depends on timing.
@Suite("NapkinTesting trait end to end: swift test in Examples/LeakCheckedApp", .serialized,
       .disabled(if: runsUnderThreadSanitizer,
                 "builds and runs another package (not sanitized): once, in the plain run, is enough"))
struct LeakCheckTraitEndToEndTests {
    static let package = "Examples/LeakCheckedApp"

    /// The line of `Sources/Shop/ShopRouter.swift` that attaches the cart (marked in the source).
    static func attachLine() throws -> Int {
        let source = try String.repoFile("\(package)/Sources/Shop/ShopRouter.swift")
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let marked = lines.indices.filter { lines[$0].contains("// the attach the leak check points at") }
        try #require(marked.count == 1, "one marked attach in ShopRouter.swift")
        #expect(lines[marked[0]].contains("await attachChild(router)"))
        return marked[0] + 1
    }

    @Test("exit status non-zero; only the leaking tests fail, with undetached-child on the line of the attach")
    func leakingTestFails() async throws {
        let swift = try #require(CLIHarness.executable(named: "swift"), "swift is on PATH")
        let line = try Self.attachLine()
        // The XCTest case writes the leaking test's trace to TMPDIR (swift-corelibs-xctest has no attachments): a scratch one.
        let traces = try ScratchDirectory("xctest-traces")
        defer { traces.remove() }
        let result = try await CLIHarness.run(swift, ["test", "--package-path", Self.package], environment: ["TMPDIR": traces.path],
                                              timeout: 1_800)
        // Swift Testing reports on one stream or the other depending on the platform.
        let output = result.stdout + result.stderr
        let lines = output.split(separator: "\n").map(String.init)

        #expect(result.status != 0, "\(result)")
        // The verdicts, one per test: symbols differ between platforms, the words do not.
        let verdicts = lines.filter { $0.contains(" Test ") && !$0.contains(" Test run with ") }
        let passed = verdicts.filter { $0.contains(" passed after ") }
        let failed = verdicts.filter { $0.contains(" failed after ") }
        #expect(passed.count == 1 && passed.first?.contains("Test browseTheCatalog() passed after") == true, "\(result)")
        #expect(failed.count == 1 && failed.first?.contains("Test leaveTheShopWithTheCartOpen() failed after") == true, "\(result)")
        #expect(failed.first?.hasSuffix(" with 1 issue.") == true, "\(result)")
        #expect(lines.contains { $0.contains("Test run with 2 tests in 1 suite failed after") && $0.hasSuffix(" with 1 issue.") }, "\(result)")

        // The issue: placed on the attach, naming the rule, the subject and the code.
        let issue = lines.filter { $0.contains(" recorded an issue at ") }
        #expect(issue.count == 1, "\(result)")
        #expect(issue.first?.contains("Test leaveTheShopWithTheCartOpen() recorded an issue at ShopRouter.swift:\(line):1") == true, "\(result)")
        #expect(output.contains("napkin leak check: error[undetached-child] CartRouter#"), "\(result)")
        #expect(output.contains("still attached to ShopRouter#"), "\(result)")
        #expect(lines.contains { $0.hasSuffix("at Shop/ShopRouter.swift:\(line) (attached)") }, "\(result)")
        #expect(lines.contains { $0.hasSuffix("see docs/findings.md#undetached-child") }, "\(result)")

        // The XCTest case: the same verdicts, the same finding on the same line.
        let xctest = lines.filter { $0.hasPrefix("Test Case '") && $0.contains("ShopXCTests") }
        #expect(xctest.contains { $0.contains("testBrowseTheCatalog") && $0.contains("' passed (") }, "\(result)")
        #expect(xctest.contains { $0.contains("testLeaveTheShopWithTheCartOpen") && $0.contains("' failed (") }, "\(result)")
        #expect(!xctest.contains { $0.contains("testBrowseTheCatalog") && $0.contains("' failed (") }, "\(result)")
        #expect(output.components(separatedBy: "napkin leak check: error[undetached-child] CartRouter#").count == 3,
                "one finding from each test library\n\(result)")
        #if os(Linux)
        // swift-corelibs-xctest: `FILE:LINE: error: Class.method : TEXT`, the trace written to a file it names.
        let failure = lines.filter { $0.contains(": error: ShopXCTests.") }
        #expect(failure.count == 1, "\(result)")
        #expect(failure.first?.hasSuffix("Sources/Shop/ShopRouter.swift:\(line): error: ShopXCTests.testLeaveTheShopWithTheCartOpen : "
                                         + "napkin leak check: error[undetached-child] CartRouter#4: still attached to ShopRouter#2, "
                                         + "which was deallocated without detaching it, and still alive 1s later: something outside "
                                         + "the tree retains it (seq 14)") == true, "\(result)")
        let trace = lines.first { $0.hasPrefix("  trace: \(traces.path)/napkin-trace-ShopXCTests-testLeaveTheShopWithTheCartOpen-") }
        #expect(trace.map { FileManager.default.fileExists(atPath: String($0.dropFirst("  trace: ".count))) } == true, "\(result)")
        // docs/testing.md quotes this failure as it is (from the app's path in the package on).
        var xctestBlock = Self.block(lines, from: ": error: ShopXCTests.")
        if let first = xctestBlock.first, let path = first.range(of: "/Sources/Shop/ShopRouter.swift:") {
            xctestBlock[0] = String(first[path.lowerBound...])
        }
        #expect(xctestBlock.count == 6, "\(result)")
        #expect(Self.quotes(try String.repoFile("docs/testing.md"), xctestBlock, firstLineSuffix: true),
                "docs/testing.md quotes the XCTest failure:\n\(xctestBlock.joined(separator: "\n"))")
        #endif

        // README.md and docs/testing.md quote this issue as it is.
        let block = Self.issueBlock(lines)
        #expect(block.count == 7, "\(result)")
        for document in ["README.md", "docs/testing.md"] {
            #expect(Self.quotes(try String.repoFile(document), block), "\(document) quotes the issue:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test("under check -- swift test: the trait and the base class leave the verdict to check, which names the test and the line")
    func underCheck() async throws {
        let line = try Self.attachLine()
        // --no-parallel: one test at a time, so the finding names exactly one test.
        let result = try await CLIHarness.inspect(["check", "--expect-teardown", "--", "swift", "test", "--package-path", Self.package, "--no-parallel"],
                                                  timeout: 1_800)
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        // One finding per test library's process (XCTest's, Swift Testing's), each naming its leaking test.
        let findings = lines.indices.filter { lines[$0].hasPrefix("  error[alive-at-end] CartRouter#") }
        #expect(findings.count == 2, "\(result)")
        var tests: Set<String> = []
        for finding in findings {
            try #require(lines.count > finding + 2, "\(result)")
            #expect(lines[finding + 1].contains("Examples/LeakCheckedApp/Sources/Shop/ShopRouter.swift:\(line) (attached)"), "\(result)")
            tests.insert(lines[finding + 2])
        }
        #expect(tests == ["    in test ShopTests/leaveTheShopWithTheCartOpen()", "    in test ShopXCTests/testLeaveTheShopWithTheCartOpen"],
                "\(result)")
        // The clean tests are named nowhere; swift test itself passed (the trait and the base class did not fail the leaking tests).
        #expect(!lines.contains { $0.contains("in test") && ($0.contains("browseTheCatalog") || $0.contains("testBrowseTheCatalog")) },
                "\(result)")
        #expect(result.stdout.contains("Test run with 2 tests in 1 suite passed") || result.stderr.contains("Test run with 2 tests in 1 suite passed"), "\(result)")
        #expect(result.stdout.contains("Executed 2 tests, with 0 failures") || result.stderr.contains("Executed 2 tests, with 0 failures"), "\(result)")
    }

    /// The issue's lines: from `recorded an issue at` to `see docs/findings.md#...`, trimmed.
    static func issueBlock(_ lines: [String]) -> [String] {
        block(lines, from: " recorded an issue at ")
    }

    /// The lines from the first containing `start` to the next `see docs/findings.md#...`, trimmed.
    static func block(_ lines: [String], from start: String) -> [String] {
        guard let first = lines.firstIndex(where: { $0.contains(start) }),
              let end = lines[first...].firstIndex(where: { $0.contains("see docs/findings.md#") }) else { return [] }
        return lines[first...end].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `text` holds `block` as consecutive lines (whatever their
    /// indentation); with `firstLineSuffix`, the first of them only ends with `block`'s first.
    static func quotes(_ text: String, _ block: [String], firstLineSuffix: Bool = false) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !block.isEmpty, lines.count >= block.count else { return false }
        return (0...(lines.count - block.count)).contains { start in
            let quoted = Array(lines[start..<(start + block.count)])
            return firstLineSuffix
                ? quoted[0].hasSuffix(block[0]) && quoted.dropFirst() == block.dropFirst()
                : quoted == block
        }
    }
}
