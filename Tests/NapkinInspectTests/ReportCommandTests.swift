import Foundation
import Testing
import TestSupport

/// `napkin-inspect report` and `check --report`: the file written, its
/// embedded data, what it refuses to overwrite, and (headless Chromium) what
/// a person sees when opening it.
@Suite("napkin-inspect report")
struct ReportCommandTests {
    /// The JSON of `<script type="application/json" id="ID">` in `html`.
    static func embedded(_ id: String, in html: String) throws -> [String: Any] {
        let open = "<script type=\"application/json\" id=\"\(id)\">"
        let start = try #require(html.range(of: open))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let object = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
        return try #require(object as? [String: Any])
    }

    /// A trace whose names try to break out of the page.
    static let hostileTrace = """
        {"seq":1,"t":1000,"ev":"session","v":1,"app":"evil</script><b>app\\u202e","pid":7,"wall":1795000000000000000}
        {"seq":2,"t":2000,"ev":"interactor","id":1,"type":"I"}
        {"seq":3,"t":3000,"ev":"router","id":2,"type":"</script><img src=x onerror=document.body.dataset.pwned=1>","interactor":1,"itype":"I"}
        {"seq":4,"t":4000,"ev":"launch","id":2}
        {"seq":5,"t":5000,"ev":"activate","id":1}
        {"seq":6,"t":6000,"ev":"mark","text":"<!-- \\u2028 & \\u0007 --> \\\\ \\""}
        {"seq":7,"t":7000,"ev":"end","reason":"exit"}

        """

    @Test("report FILE -o: one self-contained page with the trace's data, exit 0 even with findings")
    func writesSelfContainedPage() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let out = dir + "/report.html"
        let result = try await CLIHarness.inspect(["report", CLIHarness.exampleTrace("bug-retain-cycle"), "-o", out])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("wrote \(out): 1 trace, 2 findings"), "\(result)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains(#"<meta name="generator" content="napkin-inspect report">"#))
        #expect(html.contains("default-src 'none'"), "the page forbids any network use")
        // Nothing is fetched: no src or href attribute, no link or import.
        for pattern in [" src=", " href=", "<link", "@import", "url("] {
            #expect(!html.contains(pattern), "found \(pattern)")
        }
        let data = try Self.embedded("trace-0", in: html)
        let types = try #require(data["types"] as? [String])
        #expect(types.contains("LoggedInRouter") && types.contains("PitBoardRouter"))
        let findings = try #require(data["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["not-deallocated", "not-deallocated"])
        #expect(findings.first?["name"] as? String == "LoggedInRouter#6")
        let locations = try #require(findings.first?["locations"] as? [[String: String]])
        #expect(locations.first == ["role": "detached", "place": "Examples/RibHouse/LaunchNapkin/LaunchNapkinRouter.swift:70"])
        // The rule's help is HTML in the page, once per rule.
        let help = try #require(html.components(separatedBy: "<template id=\"help-not-deallocated\">").dropFirst().first?
            .components(separatedBy: "</template>").first)
        #expect(help.components(separatedBy: "<h4>Fix</h4>").last?.contains("weak") == true, "the rule's fix from docs/findings.md")
        let nodes = try #require(data["nodes"] as? [String: [Any]])
        #expect(nodes["id"]?.count == 14, "one row per router, its interactor in it")
        #expect(data["totalNodes"] as? Int == nodes["id"]?.count)
        let stats = try #require(data["stats"] as? [[String: String]])
        #expect(stats.contains(["label": "Routers", "value": "14 created, 6 deallocated, 8 alive at the end"]))
    }

    @Test("hostile names stay text: no </script> ends the data early, the JSON stays valid")
    func hostileNamesAreEscaped() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let trace = dir + "/evil.ndjson", out = dir + "/evil.html"
        try Self.hostileTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let result = try await CLIHarness.inspect(["report", trace, "-o", out])
        #expect(result.status == 0, "\(result)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!html.contains("</script><img"))
        #expect(!html.contains("<b>app"))
        #expect(html.components(separatedBy: "</script>").count == html.components(separatedBy: "<script").count)
        let data = try Self.embedded("trace-0", in: html)
        #expect((data["types"] as? [String])?.contains("</script><img src=x onerror=document.body.dataset.pwned=1>") == true)
        #expect(data["app"] as? String == "evil</script><b>app\\u{202e}", "printable, as the command line shows it")
        #expect(!html.contains("\u{202E}"), "the bidi control is escaped in the page's source too")
    }

    @Test("-o replaces an earlier report, never another file; - writes to standard output")
    func outputRules() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let trace = CLIHarness.exampleTrace("clean")
        let notes = dir + "/notes.html"
        try "<html>my notes</html>".write(toFile: notes, atomically: true, encoding: .utf8)
        let refused = try await CLIHarness.inspect(["report", trace, "-o", notes])
        #expect(refused.status == 2)
        #expect(refused.stderr == "napkin-inspect: refusing to overwrite \(notes): it is not a napkin report (give another path, or delete the file first)\n")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "<html>my notes</html>")

        let report = dir + "/r.html"
        #expect(try await CLIHarness.inspect(["report", trace, "--output", report]).status == 0)
        let again = try await CLIHarness.inspect(["report", CLIHarness.exampleTrace("bug-swipe-back"), "-o", report])
        #expect(again.status == 0, "\(again)")
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("bug-swipe-back.ndjson"))

        let missing = try await CLIHarness.inspect(["report", trace, "-o", dir + "/no/such/dir/r.html"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no directory \(dir)/no/such/dir (create it first)"))

        let stdout = try await CLIHarness.inspect(["report", trace, "-o", "-"])
        #expect(stdout.status == 0)
        #expect(stdout.stdout.hasPrefix("<!DOCTYPE html>") && stdout.stdout.hasSuffix("</html>\n"))
        #expect(stdout.stderr.isEmpty)
    }

    @Test("--help names -o; -o=FILE is -o FILE")
    func helpAndShortOption() async throws {
        let help = try await CLIHarness.inspect(["report", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("  -o, --output FILE "))
        #expect(help.stdout.contains("napkin-inspect report FILE|DIR... [-o FILE] [options]"))
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let result = try await CLIHarness.inspect(["report", CLIHarness.exampleTrace("clean"), "-o=\(dir)/x.html"])
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: dir + "/x.html"))
        let unknown = try await CLIHarness.inspect(["report", CLIHarness.exampleTrace("clean"), "-x"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option '-x' for 'report'"))
    }

    @Test("unusable input: exit 2, one line naming the file, and no report written")
    func unusableInput() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let out = dir + "/r.html"
        let result = try await CLIHarness.inspect(["report", "README.md", "-o", out])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("napkin-inspect: README.md: "), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let usage = try await CLIHarness.inspect(["report", "-o"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("'--output' needs a value"), "\(usage)")
    }

    @Test("check --report: every trace of a directory in one report, the check's exit status unchanged")
    func checkReportOfDirectory() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let out = dir + "/check.html"
        let result = try await CLIHarness.inspect(["check", "Examples/traces", "--report", out])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("wrote the report \(out) (10 traces)"))
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let meta = try Self.embedded("report-meta", in: html)
        let traces = try #require(meta["traces"] as? [[String: Any]])
        #expect(traces.count == 10)
        #expect(traces.contains { ($0["title"] as? String)?.hasSuffix("clean.ndjson") == true && $0["findings"] as? Int == 0 })
        #expect(traces.filter { ($0["findings"] as? Int ?? 0) > 0 }.count == 8)

        let stdoutReport = try await CLIHarness.inspect(["check", "Examples/traces", "--report", "-"])
        #expect(stdoutReport.status == 2)
        #expect(stdoutReport.stderr.contains("give the HTML report a file"))
    }

    @Test("check --report -- COMMAND: the report outlives the command's temporary traces")
    func checkReportOfCommand() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let out = dir + "/run.html"
        let result = try await CLIHarness.inspect(["check", "--report", out, "--", CLIHarness.ribHousePath, "--bug", "swipe-back", "--quiet"],
                                                  timeout: 120)
        #expect(result.status == 1, "\(result)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let data = try Self.embedded("trace-0", in: html)
        #expect((data["title"] as? String)?.hasPrefix("rib-house (pid ") == true)
        let findings = try #require(data["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["view-gone-still-attached"])
        #expect(((data["nodes"] as? [String: [Any]])?["id"]?.count ?? 0) > 10)
    }

    @Test("check --repeat N --report: the report shows one run (the first with a finding), not N copies of the flow")
    func checkReportOfRepeatedRuns() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let out = dir + "/repeat.html"
        let result = try await CLIHarness.inspect(["check", "--repeat", "2", "--report", out, "--",
                                                   CLIHarness.ribHousePath, "--bug", "ignore-cancel", "--quiet"], timeout: 180)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("wrote the report \(out) (1 trace)"), "\(result)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let meta = try Self.embedded("report-meta", in: html)
        #expect((meta["traces"] as? [Any])?.count == 1)
        let data = try Self.embedded("trace-0", in: html)
        #expect((data["findings"] as? [[String: Any]])?.contains { $0["rule"] as? String == "orphaned-task" } == true)
    }

    @Test("a file of two sessions: one report trace each, a session's findings never on the other's nodes")
    func sessionsApart() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let trace = dir + "/two.ndjson", out = dir + "/two.html"
        let clean = try String(contentsOfFile: PackagePaths.root.appendingPathComponent(CLIHarness.exampleTrace("clean")).path, encoding: .utf8)
        let bug = try String(contentsOfFile: PackagePaths.root.appendingPathComponent(CLIHarness.exampleTrace("bug-retain-cycle")).path, encoding: .utf8)
        try (clean + bug).write(toFile: trace, atomically: true, encoding: .utf8)
        let result = try await CLIHarness.inspect(["report", trace, "-o", out])
        #expect(result.status == 0, "\(result)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let first = try Self.embedded("trace-0", in: html), second = try Self.embedded("trace-1", in: html)
        #expect((first["title"] as? String)?.hasSuffix("two.ndjson — session 1 of 2: rib-house (pid 3447)") == true)
        #expect((first["findings"] as? [Any])?.isEmpty == true, "the clean session has no finding")
        #expect((second["findings"] as? [[String: Any]])?.map { $0["name"] as? String } == ["LoggedInRouter#6", "LoggedInRouter#22"])
        #expect(second["app"] as? String == "rib-house" && second["pid"] as? Int == 21099)

        // check --report shows check's findings: those the allow-list allows are counted, not shown.
        let allowed = dir + "/allowed.html"
        let check = try await CLIHarness.inspect(["check", CLIHarness.exampleTrace("bug-forgotten-detach"), "--allow", "Examples/napkin-allow",
                                                  "--report", allowed])
        #expect(check.status == 0, "\(check)")
        let data = try Self.embedded("trace-0", in: try String(contentsOfFile: allowed, encoding: .utf8))
        #expect((data["findings"] as? [Any])?.isEmpty == true)
        #expect(data["setApart"] as? Int == 2)
    }

    // MARK: - In a browser

    /// `report` of `trace` into a scratch file; returns (its directory, the report's path).
    static func report(_ trace: String, _ extra: [String] = []) async throws -> (ScratchDirectory, String) {
        let dir = try ScratchDirectory("report")
        let out = dir.file("report.html")
        let result = try await CLIHarness.inspect(["report", trace, "-o", out] + extra, timeout: 120)
        #expect(result.status == 0, "\(result)")
        return (dir, out)
    }

    /// The text of the element `<tag ... id="ID">` in `dom` up to its first `<`.
    static func text(ofID id: String, in dom: String) -> String? {
        guard let start = dom.range(of: "id=\"\(id)\">") else { return nil }
        return String(dom[start.upperBound...].prefix { $0 != "<" })
    }

    @Test("opened in Chromium: no script error, the tree and the findings shown", .enabled(if: HeadlessChromium.path != nil))
    func opensInBrowser() async throws {
        let (dir, out) = try await Self.report(CLIHarness.exampleTrace("bug-retain-cycle"))
        defer { dir.remove() }
        let dom = try await HeadlessChromium.dom(of: out)
        #expect(dom.contains("data-ready=\"yes\""), "the script ran to its end")
        #expect(!dom.contains("class=\"js-error\""), "a script error: \(dom.components(separatedBy: "js-error").dropFirst().first?.prefix(300) ?? "")")
        #expect(Self.text(ofID: "tree-at", in: dom) == "at t=5.246s")
        #expect(Self.text(ofID: "now", in: dom) == "t=5.246s of 5.246s", "the script's moment and the end napkin-inspect wrote agree")
        #expect(dom.contains("<span class=\"name\">LoggedInRouter#6</span><span class=\"state\">detached</span>"))
        #expect(dom.contains("<span class=\"mark\">! not-deallocated</span>"))
        #expect(dom.components(separatedBy: "class=\"finding error").count - 1 == 2)
        #expect(dom.contains("<code class=\"rule\">not-deallocated</code><button class=\"subject\" type=\"button\" title=\"Select LoggedInRouter#22 and show the moment of this finding\">LoggedInRouter#22</button>"))
        #expect(dom.contains("Examples/RibHouse/LaunchNapkin/LaunchNapkinRouter.swift:70"))
        #expect(dom.contains("<th>Routers</th><td>14 created, 6 deallocated, 8 alive at the end</td>"))
    }

    @Test("moving the slider changes the tree; a finding's click moves the slider to it", .enabled(if: HeadlessChromium.path != nil))
    func sliderAndFindingClick() async throws {
        let (dir, out) = try await Self.report(CLIHarness.exampleTrace("bug-retain-cycle"))
        defer { dir.remove() }
        // `#t=` sets the slider and sends it an input event, as a drag does.
        let early = try await HeadlessChromium.dom(of: out, fragment: "t=1500000000")
        #expect(!early.contains("class=\"js-error\""))
        #expect(Self.text(ofID: "tree-at", in: early) == "at t=1.500s")
        #expect(early.contains("<span class=\"name\">LoggedInRouter#6</span><span class=\"state\">active</span>"))
        #expect(!early.contains("! not-deallocated"), "the findings come later")
        #expect(early.contains("class=\"finding error future\""))
        let end = try await HeadlessChromium.dom(of: out)
        #expect(end.contains("<span class=\"name\">LoggedInRouter#6</span><span class=\"state\">detached</span>"))

        let clicked = try await HeadlessChromium.dom(of: out, fragment: "finding=1")
        #expect(Self.text(ofID: "tree-at", in: clicked) == "at t=4.893s", "the second finding was established at 4.893s")
        #expect(clicked.contains("class=\"finding error chosen\" data-finding=\"1\""))
        #expect(clicked.contains("class=\"node detached flagged selected\""))
    }

    @Test("hostile names in a browser: shown as text, nothing runs", .enabled(if: HeadlessChromium.path != nil))
    func hostileInBrowser() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let trace = dir + "/evil.ndjson"
        try Self.hostileTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let (reportDir, out) = try await Self.report(trace)
        defer { reportDir.remove() }
        let dom = try await HeadlessChromium.dom(of: out)
        #expect(dom.contains("data-ready=\"yes\""))
        #expect(!dom.contains("class=\"js-error\""))
        #expect(!dom.contains("data-pwned"), "the onerror handler in a type name ran")
        #expect(dom.contains("&lt;/script&gt;&lt;img src=x onerror=document.body.dataset.pwned=1&gt;#2"))
        #expect(dom.contains("evil&lt;/script&gt;&lt;b&gt;app\\u{202e} (pid 7)"), "the bidi control is shown, not obeyed")
    }

    @Test("a large trace (12,000 routers, a 3,000-deep chain) opens, its tree bounded", .enabled(if: HeadlessChromium.path != nil))
    func largeTraceInBrowser() async throws {
        let scratch = try ScratchDirectory("report")
        defer { scratch.remove() }
        let dir = scratch.path
        let trace = dir + "/large.ndjson"
        try Self.largeTrace(cycles: 9_000, chain: 3_000).write(toFile: trace, atomically: true, encoding: .utf8)
        let (reportDir, out) = try await Self.report(trace)
        defer { reportDir.remove() }
        let dom = try await HeadlessChromium.dom(of: out, timeout: 180)
        #expect(dom.contains("data-ready=\"yes\""))
        #expect(!dom.contains("class=\"js-error\""))
        #expect(dom.contains("<p class=\"more\">1001 more rows not shown</p>"), "2,000 rows of the 3,001 alive")
        #expect(dom.contains("(depth 31) "))
    }

    /// A trace of `cycles` screens attached, detached and released under a
    /// root, then a chain of `chain` routers each attached under the previous one.
    static func largeTrace(cycles: Int, chain: Int) -> String {
        var lines = [#"{"seq":1,"t":1000,"ev":"session","v":1,"app":"large","pid":9,"wall":1795000000000000000}"#]
        var seq: UInt64 = 1, t: UInt64 = 1000, id: UInt64 = 0
        func add(_ body: String) {
            seq += 1
            t += 1000
            lines.append(#"{"seq":\#(seq),"t":\#(t),"ev":\#(body)}"#)
        }
        func router(_ type: String) -> UInt64 {
            id += 2
            add(#""interactor","id":\#(id - 1),"type":"\#(type)Interactor""#)
            add(#""router","id":\#(id),"type":"\#(type)Router","interactor":\#(id - 1),"itype":"\#(type)Interactor""#)
            return id
        }
        let root = router("Root")
        add(#""launch","id":\#(root)"#)
        add(#""activate","id":\#(root - 1)"#)
        for _ in 0..<cycles {
            let screen = router("Screen")
            add(#""attach","parent":\#(root),"child":\#(screen)"#)
            add(#""activate","id":\#(screen - 1)"#)
            add(#""detach","parent":\#(root),"child":\#(screen)"#)
            add(#""deactivate","id":\#(screen - 1)"#)
            add(#""deinit","id":\#(screen)"#)
            add(#""deinit","id":\#(screen - 1)"#)
        }
        var parent = root
        for _ in 0..<chain {
            let link = router("Link")
            add(#""attach","parent":\#(parent),"child":\#(link)"#)
            add(#""activate","id":\#(link - 1)"#)
            parent = link
        }
        add(#""end","reason":"exit""#)
        return lines.joined(separator: "\n") + "\n"
    }
}
