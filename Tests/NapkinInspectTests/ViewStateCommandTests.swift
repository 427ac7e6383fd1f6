import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// View states end to end: the built `napkin-inspect` run on a trace with
/// `view` events (``RenderFixture/views``, written to a temporary file):
/// `tree`, `live`, the flowchart, the timeline and its Gantt chart show where
/// each router's view is, and `--view-grace` decides when
/// `view-shown-after-detach` is reported.
@Suite("view states in tree, live, mermaid, timeline; --view-grace")
struct ViewStateCommandTests {
    /// Writes ``RenderFixture/views`` to a temporary file; the directory goes
    /// away with the returned value.
    static func viewsTrace() throws -> (directory: ScratchDirectory, path: String) {
        let directory = try ScratchDirectory("views")
        return (directory, try directory.write("views.ndjson", RenderFixture.views.ndjson))
    }

    /// The rule ids of the findings `check` printed as text, in order.
    static func rules(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"), open < close,
                  line.hasPrefix("  error[") || line.hasPrefix("  warning[") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    // MARK: - tree and live

    @Test("tree: view gone on the popped router, view covered under a sheet, view shown on the detached one")
    func treeAtEnd() async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let result = try await CLIHarness.inspect(["tree", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let tree = result.stdout.components(separatedBy: "\n\nFindings so far:\n").first
        #expect(tree == """
            views (pid 9) at t=4.000s (after seq 28)
            RootRouter#2              active    4.0s
            └─ ListRouter#4           active    3.9s             view covered
               └─ DetailRouter#6      active    3.5s             view gone ! view-gone-still-attached
            Outside the tree, still alive:
              SettingsRouter#8        detached  3.7s             view shown  detached 3.0s ago ! not-deallocated
            """, "\(result)")
    }

    @Test("tree --at: the view is gone before the grace period decides; the list's view is shown again (nothing shown)")
    func treeAtMoment() async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let result = try await CLIHarness.inspect(["tree", path, "--at", "1.5s"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            "views (pid 9) at t=1.500s (after seq 26)",
            "RootRouter#2              active    1.5s",
            "└─ ListRouter#4           active    1.4s",
            "   └─ DetailRouter#6      active    1.0s             view gone",
            "Outside the tree, still alive:",
            "  SettingsRouter#8        detached  1.2s             view shown  detached 500ms ago",
        ], "\(result)")
    }

    @Test("tree --view-grace: the view grace period reaches the analysis of tree and mermaid")
    func treeViewGrace() async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let tree = try await CLIHarness.inspect(["tree", path, "--view-grace", "2s"])
        #expect(tree.status == 0, "\(tree)")
        let settings = try #require(tree.stdoutLines.first { $0.contains("SettingsRouter#8") })
        #expect(settings.hasSuffix("! not-deallocated ! view-shown-after-detach"), "\(settings)")
        let byDefault = try await CLIHarness.inspect(["tree", path])
        #expect(!byDefault.stdout.contains("view-shown-after-detach"), "\(byDefault)")

        let flowchart = try await CLIHarness.inspect(["mermaid", path, "--view-grace=2s"])
        #expect(flowchart.status == 0, "\(flowchart)")
        #expect(flowchart.stdout.contains("n8(\"SettingsRouter #35;8\ndetached, view shown\n! not-deallocated\n! view-shown-after-detach\")"), "\(flowchart)")
    }

    @Test("live FILE (not on a terminal): the final tree shows the views, and --view-grace reaches its analysis")
    func live() async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let result = try await CLIHarness.inspect(["live", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.contains("   └─ DetailRouter#6      active    3.5s             view gone ! view-gone-still-attached"), "\(result)")
        #expect(result.stdoutLines.contains("└─ ListRouter#4           active    3.9s             view covered"), "\(result)")
        #expect(!result.stdout.contains("view-shown-after-detach"), "undecided with the default 5 s: \(result)")

        let short = try await CLIHarness.inspect(["live", path, "--view-grace", "2s"])
        #expect(short.status == 0, "\(short)")
        #expect(short.stdout.contains("  error[view-shown-after-detach] SettingsRouter#8: "), "\(short)")
    }

    // MARK: - mermaid flowchart

    @Test("flowchart: the view in the label; viewGone and viewCovered classes where no finding styles the node")
    func flowchart() async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let end = try await CLIHarness.inspect(["mermaid", path])
        #expect(end.status == 0, "\(end)")
        #expect(end.stdout.contains("  n4[\"ListRouter #35;4\nactive, view covered\"]\n"), "\(end)")
        #expect(end.stdout.contains("  n6[\"DetailRouter #35;6\nactive, view gone\n! view-gone-still-attached\"]\n"), "\(end)")
        #expect(end.stdout.contains("  classDef viewCovered "), "\(end)")
        #expect(end.stdout.contains("  class n4 viewCovered\n"), "\(end)")
        #expect(end.stdout.contains("  class n6,n8 error\n"), "a finding's class wins over the view's: \(end)")

        let early = try await CLIHarness.inspect(["tree", path, "--format", "mermaid", "--at", "1.5s"])
        #expect(early.status == 0, "\(early)")
        #expect(early.stdout.contains("  n6[\"DetailRouter #35;6\nactive, view gone\"]\n"), "\(early)")
        #expect(early.stdout.contains("  classDef viewGone "), "\(early)")
        #expect(early.stdout.contains("  class n6 viewGone\n"), "\(early)")
        #expect(early.stdout.contains("    n8(\"SettingsRouter #35;8\ndetached, view shown\")\n"), "\(early)")
        #expect(early.stdout.contains("  class n2,n4 active\n"), "\(early)")
    }

    // MARK: - timeline

    @Test("timeline: a view lane under each router that reports its view, a '<' where it was removed, and its legend")
    func timeline() async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let result = try await CLIHarness.inspect(["timeline", path, "--width", "80"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        /// The lane under the row of `name`: its label and its cells, without the label column.
        func lane(under name: String) throws -> (label: String, cells: String) {
            let row = try #require(lines.firstIndex { $0.contains(name) }, "\(result)")
            let lane = lines[row + 1]
            let label = String(lane.prefix { $0 == " " }) + lane.drop { $0 == " " }.prefix { $0 != " " }
            return (label, String(lane.dropFirst(label.count).drop { $0 == " " }))
        }
        /// `cells` with each run of a character written once (`==..=` is `=.=`).
        func runs(_ cells: String) -> String {
            var out = ""
            for ch in cells where out.last != ch { out.append(ch) }
            return out
        }
        let detail = try lane(under: "DetailRouter#6")
        #expect(detail.label == "      view", "\(result)")
        #expect(runs(detail.cells) == "=<", "shown, then popped: \(result)")
        let list = try lane(under: "ListRouter#4")
        #expect(list.label == "    view")
        #expect(runs(list.cells) == "=.=.", "shown, covered by the detail, shown, covered by the sheet: \(result)")
        #expect(runs(try lane(under: "SettingsRouter#8").cells) == "=", "still shown at the end: \(result)")
        #expect(runs(try lane(under: "RootRouter#2").cells) == "=")
        #expect(lines.last == "         view: = shown  . covered  < gone (popped, dismissed)", "\(result)")

        let gantt = try await CLIHarness.inspect(["timeline", path, "--format", "mermaid"])
        #expect(gantt.status == 0, "\(gantt)")
        #expect(gantt.stdout.contains("\n    view shown :n6s0, 500, 1000\n    view gone :milestone, n6r0, 1000, 0ms\n"), "\(gantt)")
        #expect(gantt.stdout.contains("\n    view shown :n4s0, 100, 500\n    view shown :n4s1, 1000, 3000\n"), "\(gantt)")
    }

    @Test("a trace without view events: no view words, lanes or classes anywhere")
    func noViews() async throws {
        let directory = try ScratchDirectory("no-views")
        let path = try directory.write("small.ndjson", RenderFixture.small.ndjson)
        for arguments in [["tree", path], ["timeline", path], ["mermaid", path], ["mermaid", path, "--view", "timeline"], ["live", path]] {
            let result = try await CLIHarness.inspect(arguments)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.contains("view"), "\(result)")
            #expect(!result.stdout.contains("View"), "\(result)")
        }
    }

    // MARK: - check --view-grace

    @Test("check --view-grace: the settings view left on screen at 1 s is reported within 3 s, undecided with the default 5 s",
          arguments: [("2s", true), ("--view-grace=3s", true), ("3500ms", false), (nil, false)] as [(String?, Bool)])
    func checkViewGrace(_ value: String?, _ reported: Bool) async throws {
        let (directory, path) = try Self.viewsTrace()
        defer { _ = directory }
        let option = value.map { $0.hasPrefix("--") ? [$0] : ["--view-grace", $0] } ?? []
        let result = try await CLIHarness.inspect(["check", path] + option)
        #expect(result.status == 1, "\(result)")
        let expected = ["view-gone-still-attached", "not-deallocated"] + (reported ? ["view-shown-after-detach"] : [])
        #expect(Self.rules(result.stdout) == expected, "\(result)")
        if reported {
            let shownAfter = value == "2s" ? "2s" : "3s"
            #expect(result.stdout.contains("  error[view-shown-after-detach] SettingsRouter#8: it left the tree, but its view is still shown \(shownAfter) later"), "\(result)")
            #expect(!result.stdout.contains("undecided"), "\(result)")
        } else {
            #expect(result.stdout.contains("note: 1 check undecided"), "\(result)")
        }

        let json = try await CLIHarness.inspect(["check", path, "--format", "json"] + option)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        let trace = try #require((object["traces"] as? [[String: Any]])?.first)
        #expect(trace["undecided"] as? Int == (reported ? 0 : 1), "\(json)")
    }
}
