import Foundation
import Testing
import TestSupport

/// The built `napkin-inspect` on a trace with `retained` records (what the
/// app's retainer search found holding each leaked router): every command
/// and format shows them with the finding they explain. The fixture,
/// `not-deallocated-retained`, has three: one path (a cycle), two paths, and
/// none (`found` 0 and a note).
@Suite("retained records in every command and format")
struct RetainedRecordCommandsTests {
    static let trace = CLIHarness.fixture("not-deallocated-retained")
    static let cycle = "LoggedInRouter#4.interactor → LoggedInInteractor#3.router (suspect) → LoggedInRouter#4 (cycle)"
    static let store = "RootInteractor#1.store (suspect) → ScreenStore.screens[0] → ShopRouter#6"
    static let closure = "RootInteractor#1.onTap{closure} (suspect) → ShopRouter#6"
    static let note = "nothing the search reached holds it (the traced objects, what they reach, the named roots): "
        + "a global, an unregistered singleton, a running task or an unowned(unsafe) reference could"

    /// The lines every listing of findings shows (check, tree, live): each
    /// finding's first line, its sentence naming what retains it when a path
    /// was found (the question only when none was), then its paths and
    /// tally, indented.
    static let findingBlock = [
        "error[not-deallocated] LoggedInRouter#4: detached, but still alive 1s later: retained by a cycle through LoggedInInteractor#3.router (seq 22)",
        "  retained by: " + cycle,
        "  1 of 1 strong reference found",
        "error[not-deallocated] ShopRouter#6: detached, but still alive 1s later: retained by RootInteractor#1.store (seq 24)",
        "  retained by: " + store,
        "  retained by: " + closure,
        "  2 of 2 strong references found",
        "error[not-deallocated] CartRouter#8: detached, but still alive 1s later: something retains it (a strong reference in an interactor, listener or service: a retain cycle?) (seq 26)",
        "  0 of 1 strong reference found: " + note,
    ]

    /// Whether `lines` hold `block` one after the other, each with `indent` before it.
    static func contains(_ lines: [String], _ block: [String], indent: String) -> Bool {
        let expected = block.map { indent + $0 }
        guard let start = lines.firstIndex(of: expected[0]), start + expected.count <= lines.count else { return false }
        return Array(lines[start..<(start + expected.count)]) == expected
    }

    @Test("check: each finding's line naming what retains it, then `retained by:` per path and the tally or note")
    func checkText() async throws {
        let result = try await CLIHarness.inspect(["check", Self.trace])
        #expect(result.status == 1, "\(result)")
        #expect(Self.contains(result.stdoutLines, Self.findingBlock, indent: "  "), "\(result.stdout)")
    }

    @Test("check --format json: a retainers object (paths, found, total, note, key); the fingerprint as without it")
    func checkJSON() async throws {
        let result = try await CLIHarness.inspect(["check", Self.trace, "--format", "json"])
        #expect(result.status == 1, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let trace = try #require((object["traces"] as? [[String: Any]])?.first)
        let findings = try #require(trace["findings"] as? [[String: Any]])
        let retainers = findings.map { $0["retainers"] as? [String: Any] }
        #expect(retainers.count == 3)
        #expect(retainers[0]?["paths"] as? [String] == [Self.cycle])
        #expect(retainers[0]?["found"] as? Int == 1 && retainers[0]?["total"] as? Int == 1)
        #expect(retainers[0]?["key"] as? String == "LoggedInInteractor.router")
        #expect(retainers[0]?["note"] == nil)
        #expect(retainers[1]?["paths"] as? [String] == [Self.store, Self.closure])
        #expect(retainers[1]?["key"] as? String == "RootInteractor.store")
        #expect(retainers[2]?["paths"] as? [String] == [])
        #expect(retainers[2]?["found"] as? Int == 0 && retainers[2]?["note"] as? String == Self.note)
        #expect(retainers[2]?["key"] == nil)
        // The same findings without the records: the same fingerprints.
        let without = try Self.withoutRecords()
        defer { try? FileManager.default.removeItem(atPath: without) }
        let plain = try await CLIHarness.inspect(["check", without, "--format", "json"])
        let plainObject = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let plainFindings = try #require((plainObject["traces"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        #expect(plainFindings.map { $0["fingerprint"] as? String } == findings.map { $0["fingerprint"] as? String })
        #expect(plainFindings.allSatisfy { $0["retainers"] == nil })
    }

    /// The fixture with each `retained` record replaced by a mark of the
    /// same seq and time (the trace stays intact), in a scratch file.
    static func withoutRecords() throws -> String {
        let text = try String(contentsOf: PackagePaths.url(trace), encoding: .utf8)
        let path = NSTemporaryDirectory() + "retained-\(UUID().uuidString).ndjson"
        let lines = text.split(separator: "\n").map { line -> String in
            guard let cut = line.range(of: #","ev":"retained""#) else { return String(line) }
            return line[..<cut.lowerBound] + #","ev":"mark","text":"search"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("check --format junit: the paths and tally in the failure text")
    func checkJUnit() async throws {
        let result = try await CLIHarness.inspect(["check", Self.trace, "--format", "junit"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains(Self.findingBlock.joined(separator: "\n")), "\(result.stdout)")
    }

    @Test("check --format github: the paths and tally at the end of each annotation's message")
    func checkGitHub() async throws {
        let result = try await CLIHarness.inspect(["check", Self.trace, "--format", "github"])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines.filter { $0.hasPrefix("::error ") }
        #expect(lines.count == 3)
        #expect(lines[0].hasSuffix("; retained by: \(Self.cycle) (1 of 1 strong reference found)"), "\(lines[0])")
        #expect(lines[1].hasSuffix("; retained by: \(Self.store); retained by: \(Self.closure) (2 of 2 strong references found)"), "\(lines[1])")
        #expect(lines[2].hasSuffix("; 0 of 1 strong reference found: \(Self.note)"), "\(lines[2])")
    }

    @Test("check --format sarif: the paths at the end of the one-line message; napkinRetainer/v1 beside the unchanged fingerprint, only when a path marks a suspect")
    func checkSARIF() async throws {
        let result = try await CLIHarness.inspect(["check", Self.trace, "--format", "sarif"])
        #expect(result.status == 1, "\(result)")
        _ = try SARIFValidation.check(result)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        let texts = results.map { SARIFValidation.messageText($0["message"]) }
        #expect(texts[0].hasSuffix("later: retained by a cycle through LoggedInInteractor#3.router; retained by: \(Self.cycle) (1 of 1 strong reference found)"), "\(texts[0])")
        #expect(texts[1].hasSuffix("; retained by: \(Self.store); retained by: \(Self.closure) (2 of 2 strong references found)"), "\(texts[1])")
        #expect(texts[2].hasSuffix("; 0 of 1 strong reference found: \(Self.note)"), "\(texts[2])")
        let prints = results.map { $0["partialFingerprints"] as? [String: String] ?? [:] }
        #expect(prints[0]["napkinRetainer/v1"] == "LoggedInInteractor.router")
        #expect(prints[1]["napkinRetainer/v1"] == "RootInteractor.store")
        #expect(prints[2]["napkinRetainer/v1"] == nil)
        #expect(prints.allSatisfy { $0["napkinFindingHash/v1"]?.count == 16 })
    }

    @Test("live, not on a terminal: the findings with their paths")
    func live() async throws {
        let result = try await CLIHarness.inspect(["live", Self.trace])
        #expect(result.status == 0, "\(result)")
        #expect(Self.contains(result.stdoutLines, Self.findingBlock, indent: "  "), "\(result.stdout)")
    }

    @Test("tree: the findings with their paths")
    func tree() async throws {
        let result = try await CLIHarness.inspect(["tree", Self.trace])
        #expect(result.status == 0, "\(result)")
        #expect(Self.contains(result.stdoutLines, Self.findingBlock, indent: "  "), "\(result.stdout)")
    }

    @Test("stats: the retained records counted among the kinds")
    func stats() async throws {
        let result = try await CLIHarness.inspect(["stats", Self.trace])
        #expect(result.status == 0, "\(result)")
        let row = result.stdoutLines.first { $0.hasPrefix("  retained ") }
        #expect(row?.split(separator: " ").dropFirst().first == "3", "\(result.stdout)")
        #expect(result.stdout.contains("0 records of unknown kinds"))
    }

    @Test("report: each finding's card data carries its paths and tally")
    func report() async throws {
        let result = try await CLIHarness.inspect(["report", Self.trace, "-o", "-"])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        let trace = try ReportCommandTests.embedded("trace-0", in: result.stdout)
        let findings = try #require(trace["findings"] as? [[String: Any]])
        #expect(findings.map { $0["retainers"] as? [String] } == [
            ["retained by: " + Self.cycle, "1 of 1 strong reference found"],
            ["retained by: " + Self.store, "retained by: " + Self.closure, "2 of 2 strong references found"],
            ["0 of 1 strong reference found: " + Self.note],
        ])
        #expect(result.stdout.contains("f.retainers"), "the page's script shows them")
    }

    @Test("baselines and allow-lists match the same findings with and without retained records")
    func baselineAndAllowListUnchanged() async throws {
        let scratch = try ScratchDirectory("retained-baseline")
        let without = try Self.withoutRecords()
        defer { try? FileManager.default.removeItem(atPath: without) }
        let baseline = scratch.file("baseline.json")
        let written = try await CLIHarness.inspect(["check", "--write-baseline", baseline, without])
        #expect(written.status == 0, "\(written)")
        let known = try await CLIHarness.inspect(["check", "--baseline", baseline, Self.trace])
        #expect(known.status == 0, "a baseline written before the searches knows every finding: \(known)")
        #expect(known.stdout.contains("3 known from the baseline"), "\(known.stdout)")
        let allow = try scratch.write("allow", "not-deallocated LoggedInRouter\nnot-deallocated ShopRouter\nnot-deallocated CartRouter\n")
        let allowed = try await CLIHarness.inspect(["check", "--allow", allow, Self.trace])
        #expect(allowed.status == 0, "\(allowed)")
    }
}
