import Foundation
import Testing
import TestSupport

/// The `NapkinTesting` trait on a real `swift test`: `Examples/LeakCheckedApp`
/// (a package that depends on this one by path) has one clean test and one
/// that leaks, both under `@Suite(.napkinLeakCheck)`. Exactly the leaking one
/// must fail, with the finding's rule and the line of the app's code that
/// attached the leaked router.
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

    @Test("exit status non-zero; only the leaking test fails, with undetached-child on the line of the attach")
    func leakingTestFails() async throws {
        let swift = try #require(CLIHarness.executable(named: "swift"), "swift is on PATH")
        let line = try Self.attachLine()
        let result = try await CLIHarness.run(swift, ["test", "--package-path", Self.package], timeout: 1_800)
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

        // README.md and docs/testing.md quote this issue as it is.
        let block = Self.issueBlock(lines)
        #expect(block.count == 5, "\(result)")
        for document in ["README.md", "docs/testing.md"] {
            #expect(Self.quotes(try String.repoFile(document), block), "\(document) quotes the issue:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test("under check -- swift test: the trait leaves the verdict to check, which names the test and the line")
    func underCheck() async throws {
        let line = try Self.attachLine()
        // --no-parallel: one test at a time, so the finding names exactly one test.
        let result = try await CLIHarness.inspect(["check", "--expect-teardown", "--", "swift", "test", "--package-path", Self.package, "--no-parallel"],
                                                  timeout: 1_800)
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        let finding = try #require(lines.firstIndex { $0.hasPrefix("  error[alive-at-end] CartRouter#") }, "\(result)")
        #expect(lines.count > finding + 2, "\(result)")
        #expect(lines[finding + 1].contains("Examples/LeakCheckedApp/Sources/Shop/ShopRouter.swift:\(line) (attached)"), "\(result)")
        #expect(lines[finding + 2] == "    in test ShopTests/leaveTheShopWithTheCartOpen()", "\(result)")
        // The clean test is named nowhere; swift test itself passed (the trait did not fail the leaking test).
        #expect(!lines.contains { $0.contains("in test") && $0.contains("browseTheCatalog") }, "\(result)")
        #expect(result.stdout.contains("Test run with 2 tests in 1 suite passed") || result.stderr.contains("Test run with 2 tests in 1 suite passed"), "\(result)")
    }

    /// The issue's lines: from `recorded an issue at` to `see docs/findings.md#...`, trimmed.
    static func issueBlock(_ lines: [String]) -> [String] {
        guard let start = lines.firstIndex(where: { $0.contains(" recorded an issue at ") }),
              let end = lines[start...].firstIndex(where: { $0.contains("see docs/findings.md#") }) else { return [] }
        return lines[start...end].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `text` holds `block` as consecutive lines (whatever their indentation).
    static func quotes(_ text: String, _ block: [String]) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !block.isEmpty, lines.count >= block.count else { return false }
        return (0...(lines.count - block.count)).contains { Array(lines[$0..<($0 + block.count)]) == block }
    }
}
