@testable import NapkinTesting
import NapkinTrace
import Testing

/// How a finding becomes a Swift Testing issue: its text, and the line it is shown on.
@Suite("FindingIssue: a finding as a test issue")
struct FindingIssueTests {
    static let attached = Finding.CodeReference(.attached, CodeLocation(fileID: "Shop/ShopRouter.swift", line: 35))
    static let created = Finding.CodeReference(.created, CodeLocation(fileID: "Shop/CartRouter.swift", line: 18))

    @Test("the text: the finding as check prints it, its code locations in order, the rule's documentation")
    func text() {
        let issue = FindingIssue(Reports.leak(locations: [Self.attached, Self.created]), testLocation: Reports.testLocation,
                                 fileExists: { _ in false })
        #expect(issue.text == """
            napkin leak check: error[not-deallocated] CartRouter#4: detached, but still alive 1s later: something retains it (seq 12, 20)
              at Shop/ShopRouter.swift:35 (attached)
              at Shop/CartRouter.swift:18 (created)
              see docs/findings.md#not-deallocated
            """)
        #expect(issue.comment.rawValue == issue.text)
    }

    @Test("shown on the first code location; the path is the file id when no file is found")
    func firstLocation() {
        let issue = FindingIssue(Reports.leak(locations: [Self.attached, Self.created]), testLocation: Reports.testLocation,
                                 fileExists: { _ in false })
        #expect(issue.sourceLocation.fileID == "Shop/ShopRouter.swift")
        #expect(issue.sourceLocation.fileName == "ShopRouter.swift")
        #expect(FindingIssue.path(of: issue.sourceLocation) == "Shop/ShopRouter.swift")
        #expect(issue.sourceLocation.line == 35)
        #expect(issue.sourceLocation.column == 1)
    }

    @Test("a finding without code locations: shown on the test, the text has no `at` line")
    func noLocation() {
        let issue = FindingIssue(Reports.leak(), testLocation: Reports.testLocation, fileExists: { _ in true })
        #expect(issue.sourceLocation == Reports.testLocation)
        #expect(issue.text.split(separator: "\n").count == 2)
        #expect(!issue.text.contains("  at "))
    }

    static let builder = Finding.CodeReference(.created, CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:)"))

    @Test("a creation that names a function (recorded on a device): no line to show it on, so the test; the text names the function")
    func functionLocation() {
        var looked: [String] = []
        let issue = FindingIssue(Reports.leak(locations: [Self.builder]), testLocation: Reports.testLocation,
                                 fileExists: { looked.append($0); return true })
        #expect(issue.sourceLocation == Reports.testLocation, "the fallback of a finding without a line")
        #expect(issue.text.contains("\n  at RibHouse/LoggedInBuilder.build(withListener:) (created)\n"), "\(issue.text)")
        #expect(!issue.text.contains(":0"), "\(issue.text)")
        #expect(looked.isEmpty, "a function is never looked up as a file: \(looked)")
        let message = FindingMessage(Reports.leak(locations: [Self.builder]), test: TestSource(Reports.testLocation), fileExists: { _ in true })
        #expect(message.location == nil && message.filePath == nil && message.path == nil)
        // A line after the function (the attach): the issue goes on that line.
        let mixed = FindingIssue(Reports.leak(locations: [Self.builder, Self.attached]), testLocation: Reports.testLocation,
                                 fileExists: { _ in false })
        #expect(mixed.sourceLocation.fileID == "Shop/ShopRouter.swift")
        #expect(mixed.sourceLocation.line == 35)
        #expect(mixed.text.contains("  at RibHouse/LoggedInBuilder.build(withListener:) (created)\n  at Shop/ShopRouter.swift:35 (attached)"))
        #expect(IssueLocation.filePath(of: Self.builder.location, test: TestSource(Reports.testLocation), packageRoots: ["/src/shop"],
                                       fileExists: { _ in true }) == nil)
    }

    @Test("the path of the app's file, found in the package's Sources/MODULE")
    func pathInSources() {
        let issue = FindingIssue(Reports.leak(locations: [Self.attached]), testLocation: Reports.testLocation,
                                 fileExists: { $0 == "/src/shop/Sources/Shop/ShopRouter.swift" })
        #expect(FindingIssue.path(of: issue.sourceLocation) == "/src/shop/Sources/Shop/ShopRouter.swift")
        #expect(issue.sourceLocation.fileID == "Shop/ShopRouter.swift")
        #expect(issue.sourceLocation.line == 35)
    }
}

/// Where an issue is placed: the full path of a `#fileID`.
@Suite("IssueLocation: the path of a code location")
struct IssueLocationTests {
    static func path(_ fileID: String, existing: Set<String>) -> String? {
        IssueLocation.filePath(of: CodeLocation(fileID: fileID, line: 3), test: TestSource(Reports.testLocation),
                               fileExists: { existing.contains($0) })
    }

    @Test("in the test's own file: the test's path, without looking")
    func testFile() {
        #expect(Self.path("ShopTests/ShopTests.swift", existing: []) == "/src/shop/Tests/ShopTests/ShopTests.swift")
    }

    @Test("in the test's module: next to the test's file first")
    func sameModule() {
        let sibling = "/src/shop/Tests/ShopTests/Helpers.swift"
        #expect(Self.path("ShopTests/Helpers.swift", existing: [sibling, "/src/shop/Tests/ShopTests/Other/Helpers.swift"]) == sibling)
    }

    @Test("in another module: Sources/MODULE, then Tests/MODULE, of the test's package")
    func otherModule() {
        #expect(Self.path("Shop/Cart.swift", existing: ["/src/shop/Sources/Shop/Cart.swift", "/src/shop/Tests/Shop/Cart.swift"])
                == "/src/shop/Sources/Shop/Cart.swift")
        #expect(Self.path("ShopSupport/Fake.swift", existing: ["/src/shop/Tests/ShopSupport/Fake.swift"])
                == "/src/shop/Tests/ShopSupport/Fake.swift")
    }

    @Test("nothing that exists, or a file id without a module: no path")
    func notFound() {
        #expect(Self.path("Shop/Cart.swift", existing: []) == nil)
        #expect(Self.path("Cart.swift", existing: ["/src/shop/Sources/Cart.swift", "/src/shop/Tests/ShopTests/Cart.swift"]) == nil)
        let cart = Finding.CodeReference(.created, CodeLocation(fileID: "Shop/Cart.swift", line: 7))
        let location = FindingIssue(Reports.leak(locations: [cart]), testLocation: Reports.testLocation, fileExists: { _ in false }).sourceLocation
        #expect(FindingIssue.path(of: location) == "Shop/Cart.swift")
        #expect(location.line == 7)
    }

    @Test("the default check finds this very file, and refuses a directory")
    func realFiles() {
        #expect(IssueLocation.fileExists(#filePath))
        #expect(!IssueLocation.fileExists(String(#filePath.prefix(upTo: #filePath.lastIndex(of: "/")!))))
        #expect(!IssueLocation.fileExists(#filePath + ".missing"))
    }

    @Test("the path the process noted when it captured the line wins, from any working directory and without a test's path (xcodebuild on a simulator)")
    func notedPath() {
        SourcePaths.note("NotedShop/NotedRouter.swift", "/build-machine/shop/Sources/NotedShop/Routing/NotedRouter.swift")
        let location = CodeLocation(fileID: "NotedShop/NotedRouter.swift", line: 31)
        #expect(IssueLocation.filePath(of: location, test: nil, fileExists: { $0.hasPrefix("/build-machine/") })
                == "/build-machine/shop/Sources/NotedShop/Routing/NotedRouter.swift")
        // Noted but gone (built elsewhere): the usual search, here nothing.
        #expect(IssueLocation.filePath(of: location, test: nil, fileExists: { _ in false }) == nil)
    }

    @Test("a traced attach and detach note their file's full path, which the issue then uses")
    @MainActor
    func capturedPaths() async throws {
        let recorder = TraceRecorder(app: "paths")
        // The flow's attach and detach are in Support/Screens.swift.
        await recorder.record { await playCleanFlow() }
        let screens = try #require(SourcePaths.path(forFileID: "NapkinTestingTests/Screens.swift"))
        #expect(screens.hasPrefix("/") && screens.hasSuffix("/Tests/NapkinTestingTests/Support/Screens.swift"), "\(screens)")
        #expect(IssueLocation.filePath(of: CodeLocation(fileID: "NapkinTestingTests/Screens.swift", line: 1), test: nil) == screens)
    }
}

