import Foundation
import NapkinTrace
import Testing
import TestSupport
@testable import napkin_inspect

/// The live page (`LivePage`, the report's script plus `live.js`) in headless
/// Chromium, without its server: opened from a file it cannot connect and
/// says so; with a stand-in `EventSource` that hands it the server's messages
/// (docs/report.md, "The live page's messages") and clicks between them, it
/// follows the end, pauses, keeps the selected node and the chosen session,
/// and tells a restarted inspector. The end-to-end tests with the real server
/// are `live --web`'s.
@Suite("live page")
struct LivePageTests {
    /// One step of the stand-in event source: a message (its JSON), or a click.
    enum Step {
        /// A message of the server, as its JSON text.
        case message(String)
        /// A click on the element `selector` names.
        case click(String)
        /// A click on the tree's row of the node called `name`.
        case clickNode(String)

        /// The step as the stand-in reads it.
        var json: String {
            switch self {
            case .message(let text): #"{"message":\#(text)}"#
            case .click(let selector): #"{"click":"\#(selector)"}"#
            case .clickNode(let name): #"{"node":"\#(name)"}"#
            }
        }
    }

    /// An `EventSource` that, once the page has assigned its handler, hands
    /// it each message of `steps` and makes each click, in order.
    static func standIn(_ steps: [Step]) -> String {
        """
        <script>
        window.EventSource = function () {
          const source = this;
          this.readyState = 1;
          this.close = function () {};
          Promise.resolve().then(function () {
            for (const step of [\(steps.map(\.json).joined(separator: ",\n"))]) {
              if (step.message) source.onmessage({ data: JSON.stringify(step.message) });
              else if (step.click) document.querySelector(step.click).click();
              else for (const row of document.querySelectorAll("#tree .node")) if (row.querySelector(".name").textContent === step.node) row.click();
            }
          });
        };
        window.EventSource.CLOSED = 2;
        </script>

        """
    }

    /// The live page, with the stand-in for `steps` in its head when given, opened in Chromium: its DOM.
    static func dom(_ steps: [Step]?) async throws -> String {
        let scratch = try ScratchDirectory("live-page")
        defer { scratch.remove() }
        var page = LivePage.html(title: "a test")
        if let steps { page = page.replacingOccurrences(of: "</head>", with: standIn(steps) + "</head>") }
        let file = scratch.file("live.html")
        try page.write(toFile: file, atomically: true, encoding: .utf8)
        let dom = try await HeadlessChromium.dom(of: file, virtualTime: steps == nil ? 3_000 : nil)
        #expect(dom.contains("data-ready=\"yes\""))
        #expect(!dom.contains("class=\"js-error\""), "a script error: \(dom.components(separatedBy: "js-error").dropFirst().first?.prefix(300) ?? "")")
        return dom
    }

    /// The text of the element of id `id` in `dom` (its other attributes may follow the id), up to its first `<`.
    static func text(ofID id: String, in dom: String) -> String? {
        guard let start = dom.range(of: "id=\"\(id)\""), let end = dom[start.upperBound...].firstIndex(of: ">") else { return nil }
        return String(dom[dom.index(after: end)...].prefix { $0 != "<" })
    }

    /// The report's traces of `path` (relative to the package's root).
    static func traces(_ path: String) throws -> [ReportTrace] {
        try ReportTrace.traces(reading: PackagePaths.root.appendingPathComponent(path).path, options: TraceAnalyzer.Options(), quiet: true)
    }

    /// The first `lines` lines of the not-deallocated-retained fixture (its
    /// routers attached, before any detach), then the whole of it: two
    /// snapshots of one session.
    static func snapshots(lines: Int = 21) throws -> (early: ReportTrace, late: ReportTrace) {
        let fixture = CLIHarness.fixture("not-deallocated-retained")
        let scratch = try ScratchDirectory("live-page")
        defer { scratch.remove() }
        let text = try String(contentsOf: PackagePaths.root.appendingPathComponent(fixture), encoding: .utf8)
        let early = scratch.file("early.ndjson")
        try (text.split(separator: "\n").prefix(lines).joined(separator: "\n") + "\n").write(toFile: early, atomically: true, encoding: .utf8)
        let earlyTrace = try #require(try ReportTrace.traces(reading: early, options: TraceAnalyzer.Options(), quiet: true).first)
        return (earlyTrace, try #require(try traces(fixture).first))
    }

    static func hello(_ instance: String) -> Step { .message(#"{"kind":"hello","instance":"\#(instance)","version":"\#(NapkinInspect.version)"}"#) }
    static func meta(_ traces: [ReportTrace], notes: [String]) -> Step {
        let sessions = notes.map { #"{"running":\#($0 == "running"),"note":"\#($0)"}"# }.joined(separator: ",")
        return .message(#"{"kind":"meta","meta":\#(ReportPage.meta(traces)),"sessions":[\#(sessions)]}"#)
    }
    static func trace(_ index: Int, _ trace: ReportTrace) -> Step {
        .message(#"{"kind":"trace","index":\#(index),"data":\#(ReportData.json(trace, sources: SourceRoot(directory: "/nonexistent")))}"#)
    }

    @Test("from a file, with no server: the banner says it cannot connect, the page waits, nothing breaks",
          .enabled(if: HeadlessChromium.path != nil))
    func cannotConnect() async throws {
        let dom = try await Self.dom(nil)
        let status = try #require(Self.text(ofID: "live-status", in: dom))
        #expect(status.hasPrefix("cannot connect to the inspector"), "\(status)")
        #expect(dom.contains("<p class=\"empty\">Waiting for a traced app…</p>"))
        #expect(dom.contains(#"<meta name="generator" content="napkin-inspect live">"#))
        #expect(dom.contains("connect-src 'self'"))
        #expect(dom.contains("<h1>napkin-inspect live</h1>"))
    }

    @Test("it follows the end: a new snapshot moves the moment to its end, the selected node stays selected",
          .enabled(if: HeadlessChromium.path != nil))
    func followsTheEnd() async throws {
        let (early, late) = try Self.snapshots()
        let first = try await Self.dom([Self.hello("a1"), Self.meta([early], notes: ["running"]), Self.trace(0, early)])
        #expect(Self.text(ofID: "now", in: first) == "t=22.200ms of 22.200ms")
        #expect(Self.text(ofID: "live-status", in: first) == "connected to napkin-inspect \(NapkinInspect.version)")
        #expect(first.contains("<span class=\"name\">LoggedInRouter#4</span><span class=\"state\">active</span>"))
        #expect(first.contains("(running)</option>"), "the session's note in the picker")

        let dom = try await Self.dom([Self.hello("a1"), Self.meta([early], notes: ["running"]), Self.trace(0, early),
                                      .clickNode("LoggedInRouter#4"), Self.meta([late], notes: ["ended"]), Self.trace(0, late)])
        #expect(Self.text(ofID: "now", in: dom) == "t=2.600s of 2.600s")
        #expect(Self.text(ofID: "live-mode", in: dom) == "live")
        #expect(dom.contains("<button id=\"follow\" title=\"Follow the end again (End)\" hidden=\"\">"))
        #expect(dom.contains("class=\"node detached flagged selected\""), "the selection survived the snapshot")
        #expect(Self.text(ofID: "details-name", in: dom) == "LoggedInRouter#4")
        #expect(try ReportFilterDetailsTests.details(in: dom).contains("<li>retained by: LoggedInRouter#4.interactor → LoggedInInteractor#3.router (suspect) → LoggedInRouter#4 (cycle)</li>"),
                "the node's details, drawn again from the new snapshot")
        #expect(Self.text(ofID: "findings-count", in: dom) == "(3)")
        #expect(dom.contains("(ended)</option>"))
    }

    @Test("a step back pauses: the moment stays put while snapshots arrive; follow returns to the end",
          .enabled(if: HeadlessChromium.path != nil))
    func pauseKeepsTheMoment() async throws {
        let (early, late) = try Self.snapshots()
        let start = [Self.hello("a1"), Self.meta([early], notes: ["running"]), Self.trace(0, early), .click("#prev")]
        let paused = try await Self.dom(start + [Self.trace(0, late)])
        let now = try #require(Self.text(ofID: "now", in: paused))
        #expect(now == "t=22.110ms of 2.600s", "the change before the early end, in the late snapshot: \(now)")
        #expect(Self.text(ofID: "live-mode", in: paused) == "paused at t=22.110ms")
        #expect(paused.contains("<button id=\"follow\" title=\"Follow the end again (End)\">follow</button>"))
        #expect(paused.contains("<span class=\"name\">LoggedInRouter#4</span><span class=\"state\">active</span>"), "the tree of the moment, not of the end")

        let followed = try await Self.dom(start + [Self.trace(0, late), .click("#follow")])
        #expect(Self.text(ofID: "now", in: followed) == "t=2.600s of 2.600s")
        #expect(Self.text(ofID: "live-mode", in: followed) == "live")
        #expect(followed.contains("<span class=\"name\">LoggedInRouter#4</span><span class=\"state\">detached</span>"))

        let played = try await Self.dom(start + [.click("#play"), Self.trace(0, late)])
        #expect(Self.text(ofID: "now", in: played) == "t=2.600s of 2.600s", "the play button follows again")
    }

    @Test("many sessions: the first snapshot's session is shown, and stays chosen when another session's snapshot arrives",
          .enabled(if: HeadlessChromium.path != nil))
    func keepsTheChosenSession() async throws {
        let (_, late) = try Self.snapshots()
        let other = try #require(try Self.traces(CLIHarness.exampleTrace("bug-retain-cycle")).first)
        let dom = try await Self.dom([Self.hello("a1"), Self.meta([other, late], notes: ["ended", "running"]),
                                      Self.trace(1, late), Self.trace(0, other)])
        #expect(dom.contains("<label id=\"trace-picker-box\">Session"), "two sessions: the picker shows")
        #expect(Self.text(ofID: "now", in: dom) == "t=2.600s of 2.600s", "session 1 (the fixture), not 0")
        let names = try ReportFilterDetailsTests.treeNames(in: dom)
        #expect(names.contains("ShopRouter#6") && !names.contains("LoggedInRouter#22"), "session 1's tree, not session 0's: \(names)")
    }

    @Test("a hello from another instance: the banner says the inspector restarted, the sessions start over",
          .enabled(if: HeadlessChromium.path != nil))
    func restartedInspector() async throws {
        let (early, _) = try Self.snapshots()
        let dom = try await Self.dom([Self.hello("a1"), Self.meta([early], notes: ["running"]), Self.trace(0, early), Self.hello("b2")])
        #expect(Self.text(ofID: "live-status", in: dom) == "reconnected to a restarted inspector: sessions start over")
        #expect(dom.contains("<p class=\"empty\">Waiting for a traced app…</p>"))
        #expect(try ReportFilterDetailsTests.treeNames(in: dom).isEmpty)
        #expect(Self.text(ofID: "findings", in: dom) == "")
    }
}
