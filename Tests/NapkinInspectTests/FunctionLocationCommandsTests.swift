import Foundation
import Testing
import TestSupport

/// The built `napkin-inspect` on a trace recorded as on an iOS device, where
/// a creation names its builder's function (the `fn` field) instead of a
/// line: every command and format names `MODULE/FUNCTION (created)` as it
/// names a line, and none makes it a file, a path or a line 0. The fixture,
/// `not-deallocated-functions`, has two leaks: `ShopRouter#6` (detached and
/// attached at lines, created by a function) and `LoggedInRouter#4` (created
/// by a function, nothing else known).
///
/// `check` runs with a source root that holds the lines' file
/// (`Sources/RibHouse/LoggedInRouter.swift`), so the lines resolve and the
/// functions visibly do not.
@Suite("function locations (fn) in every command and format")
struct FunctionLocationCommandsTests {
    static let trace = CLIHarness.fixture("not-deallocated-functions")
    static let loggedIn = "RibHouse/LoggedInBuilder.build(withListener:) (created)"
    static let shop = "RibHouse/ShopBuilder.build(withListener:) (created)"
    static let shopFile = "Sources/RibHouse/LoggedInRouter.swift"

    /// The `at` line of each finding in the listings (check, tree, live): 4 spaces in.
    static let shopLine = "    at \(shopFile):48 (detached), \(shopFile):40 (attached), \(shop)"
    static let shopLineByFileID = "    at RibHouse/LoggedInRouter.swift:48 (detached), RibHouse/LoggedInRouter.swift:40 (attached), \(shop)"
    static let loggedInLine = "    at \(loggedIn)"

    /// A source root holding the app's one file the trace names by line.
    static func sourceRoot() throws -> ScratchDirectory {
        let scratch = try ScratchDirectory("fn-sources")
        try FileManager.default.createDirectory(atPath: scratch.file("Sources/RibHouse"), withIntermediateDirectories: true)
        try scratch.write(shopFile, String(repeating: "// a line\n", count: 60))
        return scratch
    }

    static func check(_ format: String?, sources: ScratchDirectory) async throws -> CLIResult {
        let result = try await CLIHarness.inspect(["check", trace, "--source-root", sources.path] + (format.map { ["--format", $0] } ?? []))
        #expect(result.status == 1, "\(result)")
        return result
    }

    /// Whether `line` of a listing is the `at` line of a finding and names no line 0.
    static func expectNoLineZero(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.contains(":0 ") && !text.contains(":0)") && !text.contains(":0\n") && !text.contains(":0\""),
                "a function is never a line 0: \(text)", sourceLocation: sourceLocation)
    }

    @Test("check: the at lines name the function after the lines, found or not; the note on missing files never names a function")
    func checkText() async throws {
        let sources = try Self.sourceRoot()
        defer { sources.remove() }
        let result = try await Self.check(nil, sources: sources)
        let lines = result.stdoutLines
        let shop = try #require(lines.firstIndex { $0.hasPrefix("  error[not-deallocated] ShopRouter#6: ") }, "\(result.stdout)")
        let loggedIn = try #require(lines.firstIndex { $0.hasPrefix("  error[not-deallocated] LoggedInRouter#4: ") }, "\(result.stdout)")
        #expect(lines[shop + 1] == Self.shopLine)
        #expect(lines[loggedIn + 1] == Self.loggedInLine)
        #expect(!result.stderr.contains("not found"), "every line's file is found: \(result.stderr)")
        Self.expectNoLineZero(result.stdout)

        // Without the file: the lines by their #fileID, one note naming that file alone, the functions as they are.
        let empty = try ScratchDirectory("fn-empty")
        defer { empty.remove() }
        let unfound = try await CLIHarness.inspect(["check", Self.trace, "--source-root", empty.path])
        #expect(unfound.stdoutLines.contains(Self.shopLineByFileID), "\(unfound.stdout)")
        #expect(unfound.stdoutLines.contains(Self.loggedInLine), "\(unfound.stdout)")
        #expect(unfound.stderr.contains("1 source file named by the trace not found"), "\(unfound.stderr)")
        #expect(unfound.stderr.contains("(RibHouse/LoggedInRouter.swift)"), "\(unfound.stderr)")
        #expect(!unfound.stderr.contains("build("), "a function is not a missing file: \(unfound.stderr)")
    }

    @Test("check --format json: a function location is role and function, without file_id, line or path")
    func checkJSON() async throws {
        let sources = try Self.sourceRoot()
        defer { sources.remove() }
        let result = try await Self.check("json", sources: sources)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require((object["traces"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        #expect(findings.map { $0["type"] as? String } == ["ShopRouter", "LoggedInRouter"])
        let shop = try #require(findings[0]["locations"] as? [[String: Any]])
        #expect(shop.count == 3)
        #expect(shop[0]["role"] as? String == "detached" && shop[0]["file_id"] as? String == "RibHouse/LoggedInRouter.swift")
        #expect(shop[0]["line"] as? Int == 48 && shop[0]["path"] as? String == Self.shopFile)
        #expect(shop[2].keys.sorted() == ["function", "role"], "\(shop[2])")
        #expect(shop[2]["role"] as? String == "created" && shop[2]["function"] as? String == "RibHouse/ShopBuilder.build(withListener:)")
        let loggedIn = try #require(findings[1]["locations"] as? [[String: Any]])
        #expect(loggedIn.count == 1)
        #expect(loggedIn[0].keys.sorted() == ["function", "role"], "\(loggedIn[0])")
        #expect(loggedIn[0]["function"] as? String == "RibHouse/LoggedInBuilder.build(withListener:)")
        #expect(loggedIn[0]["role"] as? String == "created")
        // The fingerprint: the function in place of a line (docs/check-output.md), stable.
        #expect((findings[1]["fingerprint"] as? String)?.count == 16)
    }

    @Test("check --format junit: the function on the finding's at line; no file or line attribute")
    func checkJUnit() async throws {
        let sources = try Self.sourceRoot()
        defer { sources.remove() }
        let result = try await Self.check("junit", sources: sources)
        #expect(result.stdout.contains("\n  at \(Self.loggedIn)"), "\(result.stdout)")
        #expect(result.stdout.contains("\n" + Self.shopLine.dropFirst(2)), "\(result.stdout)")
        #expect(!result.stdout.contains("file=\"") && !result.stdout.contains("line=\""), "\(result.stdout)")
        Self.expectNoLineZero(result.stdout)
    }

    @Test("check --format github: file= and line= only for a line; the message names the function")
    func checkGitHub() async throws {
        let sources = try Self.sourceRoot()
        defer { sources.remove() }
        let result = try await Self.check("github", sources: sources)
        let lines = result.stdoutLines.filter { $0.hasPrefix("::error ") }
        #expect(lines.count == 2, "\(result.stdout)")
        let shop = try #require(lines.first { $0.contains("ShopRouter#6") })
        let loggedIn = try #require(lines.first { $0.contains("LoggedInRouter#4") })
        #expect(shop.hasPrefix("::error file=\(Self.shopFile),line=48,title=napkin not-deallocated%3A ShopRouter#6::"), "\(shop)")
        #expect(shop.hasSuffix(", seq 18); at \(Self.shop)"), "\(shop)")
        #expect(loggedIn.hasPrefix("::error title=napkin not-deallocated%3A LoggedInRouter#4::"), "no file= or line= for a function: \(loggedIn)")
        #expect(loggedIn.hasSuffix(", seq 21); at \(Self.loggedIn)"), "\(loggedIn)")
        #expect(!result.stdout.contains("line=0"))
    }

    @Test("check --format sarif: a function is a logical location (related, with its role), never a region; the primary falls back to the trace")
    func checkSARIF() async throws {
        let sources = try Self.sourceRoot()
        defer { sources.remove() }
        let result = try await Self.check("sarif", sources: sources)
        let log = try SARIFValidation.check(result)
        #expect(log.results.count == 2)
        Self.expectNoRegionBelowOne(log.object)

        // ShopRouter#6: at its detach line (found); the attach line and the function related.
        let shop = log.results[0]
        #expect(SARIFValidation.place(shop)?.uri == Self.shopFile && SARIFValidation.place(shop)?.line == 48)
        #expect(SARIFValidation.messageText(shop["message"]).hasSuffix("; at \(Self.shop)"))
        let shopRelated = try #require(shop["relatedLocations"] as? [[String: Any]])
        #expect(shopRelated.map { $0["id"] as? Int } == [1, 2])
        #expect(SARIFValidation.place(of: shopRelated[0])?.line == 40)
        #expect(shopRelated[1]["physicalLocation"] == nil)
        #expect(Self.functions(shopRelated[1]) == [["name": "build(withListener:)", "fullyQualifiedName": "ShopBuilder.build(withListener:)",
                                                    "kind": "function"]])
        #expect(SARIFValidation.messageText(shopRelated[1]["message"]) == "created")
        #expect((shop["properties"] as? [String: Any])?["codeLocations"] as? [String] == [
            "detached=RibHouse/LoggedInRouter.swift:48", "attached=RibHouse/LoggedInRouter.swift:40",
            "created=RibHouse/ShopBuilder.build(withListener:)",
        ])

        // LoggedInRouter#4: only a function, so the trace's event, as a finding without code; the function related.
        let loggedIn = log.results[1]
        let primary = try #require((loggedIn["locations"] as? [[String: Any]])?.first)
        #expect(primary["logicalLocations"] == nil)
        let place = try #require(SARIFValidation.place(loggedIn))
        #expect(place.uri.hasPrefix("file:///") && place.uri.hasSuffix("/Tests/Fixtures/traces/not-deallocated-functions.ndjson"), "\(place)")
        #expect(place.line == 21, "the line of seq 21")
        #expect(SARIFValidation.messageText(primary["message"]) == "the event (seq 21) in the trace")
        #expect(SARIFValidation.messageText(loggedIn["message"]).hasSuffix("; at \(Self.loggedIn)"))
        let related = try #require(loggedIn["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1)
        #expect(related.first?["id"] as? Int == 0 && related.first?["physicalLocation"] == nil)
        #expect(Self.functions(related[0]) == [["name": "build(withListener:)", "fullyQualifiedName": "LoggedInBuilder.build(withListener:)",
                                                "kind": "function"]])
        #expect((loggedIn["properties"] as? [String: Any])?["codeLocations"] as? [String]
                == ["created=RibHouse/LoggedInBuilder.build(withListener:)"])
    }

    /// A location's logical locations, as strings.
    static func functions(_ location: [String: Any]) -> [[String: String]]? {
        (location["logicalLocations"] as? [[String: Any]])?.map { $0.compactMapValues { $0 as? String } }
    }

    /// Every `startLine` in `value` (any depth) is at least 1.
    static func expectNoRegionBelowOne(_ value: Any, sourceLocation: SourceLocation = #_sourceLocation) {
        if let object = value as? [String: Any] {
            if let line = object["startLine"] { #expect((line as? Int ?? 0) >= 1, "startLine \(line)", sourceLocation: sourceLocation) }
            for child in object.values { expectNoRegionBelowOne(child, sourceLocation: sourceLocation) }
        } else if let array = value as? [Any] {
            for child in array { expectNoRegionBelowOne(child, sourceLocation: sourceLocation) }
        }
    }

    @Test("tree --at: the findings so far name the function")
    func treeAt() async throws {
        // A time: the analysis advances to it and decides the checks due (a seq stops at its event, before that).
        let result = try await CLIHarness.inspect(["tree", Self.trace, "--at", "2s"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.contains(Self.loggedInLine), "\(result.stdout)")
        #expect(result.stdoutLines.contains { $0.hasPrefix("    at ") && $0.hasSuffix(", \(Self.shop)") }, "\(result.stdout)")
        Self.expectNoLineZero(result.stdout)
    }

    @Test("live --no-follow: the findings name the function")
    func live() async throws {
        let result = try await CLIHarness.inspect(["live", Self.trace, "--no-follow"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.contains(Self.loggedInLine), "\(result.stdout)")
        #expect(result.stdoutLines.contains { $0.hasPrefix("    at ") && $0.hasSuffix(", \(Self.shop)") }, "\(result.stdout)")
        Self.expectNoLineZero(result.stdout)
    }

    @Test("report: each finding's card names the function as its place")
    func report() async throws {
        let result = try await CLIHarness.inspect(["report", Self.trace, "-o", "-"])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        let trace = try ReportCommandTests.embedded("trace-0", in: result.stdout)
        let findings = try #require(trace["findings"] as? [[String: Any]])
        let places = findings.map { ($0["locations"] as? [[String: Any]] ?? []).map { "\($0["place"] ?? "") (\($0["role"] ?? ""))" } }
        #expect(places.count == 2)
        #expect(places.last == [Self.loggedIn], "\(places)")
        #expect(places.first?.last == Self.shop, "\(places)")
    }
}
