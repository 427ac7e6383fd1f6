import Foundation
import Testing
import TestSupport

/// The report's filter and node details, shared with the live page, in
/// headless Chromium: the address opens them as a user's hand would
/// (`#filter=TEXT` types into the box, `#node=ID` clicks the tree's row,
/// `#finding=K` clicks a finding).
@Suite("report filter and node details")
struct ReportFilterDetailsTests {
    /// The timeline's row labels in `dom`, top to bottom.
    static func rowLabels(in dom: String) -> [String] {
        dom.components(separatedBy: "class=\"rowlabel\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// The names of the tree's rows in `dom`, top to bottom.
    static func treeNames(in dom: String) throws -> [String] {
        let tree = try #require(dom.components(separatedBy: "<div id=\"tree\">").dropFirst().first?.components(separatedBy: "</section>").first)
        return tree.components(separatedBy: "<span class=\"name\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    /// The node details panel of `dom`, from its heading to the panel's end.
    static func details(in dom: String) throws -> String {
        try #require(dom.components(separatedBy: "id=\"details-panel\">").dropFirst().first?.components(separatedBy: "</section>").first)
    }

    @Test("the filter keeps the matching nodes and their ancestors in the tree, only the matching rows on the timeline",
          .enabled(if: HeadlessChromium.path != nil))
    func filterHidesRows() async throws {
        let (dir, out) = try await ReportCommandTests.report(CLIHarness.exampleTrace("bug-retain-cycle"))
        defer { dir.remove() }
        let all = try await HeadlessChromium.dom(of: out)
        let everyRow = try Self.treeNames(in: all)
        #expect(everyRow.contains("LoggedInRouter#22") && everyRow.count == 8, "\(everyRow)")

        // `loggedin` (any case): the LoggedIn router, under the root, the only ancestor kept.
        let filtered = try await HeadlessChromium.dom(of: out, fragment: "t=1500000000&filter=loggedin")
        #expect(!filtered.contains("class=\"js-error\""))
        let names = try Self.treeNames(in: filtered)
        #expect(names == ["LaunchNapkinRouter#2", "LoggedInRouter#6"], "\(names)")
        let rows = Self.rowLabels(in: filtered)
        #expect(!rows.isEmpty && rows.allSatisfy { $0.hasPrefix("LoggedIn") }, "\(rows)")
        #expect(Self.rowLabels(in: all).count > rows.count)

        // `#id`: one node.
        let byID = try await HeadlessChromium.dom(of: out, fragment: "filter=%2322")
        #expect(try Self.treeNames(in: byID) == ["LoggedInRouter#22"])
        #expect(Self.rowLabels(in: byID) == ["LoggedInRouter#22"], "\(Self.rowLabels(in: byID))")

        let none = try await HeadlessChromium.dom(of: out, fragment: "filter=nothing-is-called-this")
        #expect(none.contains("No node alive at this moment matches the filter “nothing-is-called-this”."))
        #expect(Self.rowLabels(in: none).isEmpty)
    }

    @Test("a selected node's details: its creation, attachments, and its finding's retained by: path",
          .enabled(if: HeadlessChromium.path != nil))
    func nodeDetails() async throws {
        let (dir, out) = try await ReportCommandTests.report(CLIHarness.fixture("not-deallocated-retained"))
        defer { dir.remove() }
        let nothing = try Self.details(in: try await HeadlessChromium.dom(of: out))
        #expect(nothing.contains("Select a node"), "\(nothing)")

        let dom = try await HeadlessChromium.dom(of: out, fragment: "node=4")
        #expect(!dom.contains("class=\"js-error\""))
        let details = try Self.details(in: dom)
        #expect(details.contains("<span id=\"details-name\">LoggedInRouter#4</span>"))
        #expect(details.contains("<dt>created</dt><dd>t=20.000ms (seq 8)</dd>"))
        #expect(details.contains("<dt>interactor</dt><dd>#3</dd>"))
        #expect(details.contains("<dt>deinit</dt><dd>none written: alive at the end</dd>"))
        #expect(details.contains("<li>attached to RootRouter#2: 20.100ms → 600.000ms (579.900ms) (seq 9 → 22)</li>"))
        #expect(details.contains("<li>20.110ms → 600.010ms (579.900ms) (seq 10 → 23)</li>"), "the interactor's active span")
        #expect(details.contains("error [not-deallocated] at t=1.600s: detached, but still alive"))
        #expect(details.contains("<li>retained by: LoggedInRouter#4.interactor → LoggedInInteractor#3.router (suspect) → LoggedInRouter#4 (cycle)</li>"))
        #expect(!details.contains("ShopRouter#6"), "another node's finding")
    }

    @Test("a finding's subject links to its node: selected in the tree, its details shown, the moment the finding's",
          .enabled(if: HeadlessChromium.path != nil))
    func findingSubjectSelectsNode() async throws {
        let (dir, out) = try await ReportCommandTests.report(CLIHarness.exampleTrace("bug-retain-cycle"))
        defer { dir.remove() }
        let end = try await HeadlessChromium.dom(of: out)
        #expect(end.contains("<button class=\"subject\" type=\"button\" title=\"Select LoggedInRouter#22 and show the moment of this finding\">LoggedInRouter#22</button>"))
        // The subject's click, from the address: `#finding=` clicks the item the subject is in.
        let dom = try await HeadlessChromium.dom(of: out, fragment: "finding=1")
        #expect(ReportCommandTests.text(ofID: "tree-at", in: dom) == "at t=4.893s")
        #expect(dom.contains("class=\"node detached flagged selected\""))
        let details = try Self.details(in: dom)
        let subject = try #require(dom.components(separatedBy: "data-finding=\"1\"").dropFirst().first?
            .components(separatedBy: "class=\"subject\"").dropFirst().first?.components(separatedBy: ">").dropFirst().first?.prefix { $0 != "<" })
        #expect(details.contains("<span id=\"details-name\">\(subject)</span>"), "\(subject): \(details.prefix(300))")
        #expect(details.contains("Examples/RibHouse/"), "the finding's lines")
    }
}
