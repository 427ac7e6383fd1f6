import Foundation
import NapkinTrace
import Testing
import TestSupport
@testable import napkin_inspect

/// The report's embedded data against its documentation: every field the
/// Swift encoder writes is listed in docs/report.md, "The embedded data",
/// and every field listed there is written.
@Suite("report schema")
struct ReportSchemaTests {
    /// The fields docs/report.md lists, as `PATH.field` (`trace-N.nodes.created`,
    /// `trace-N.findings[].at`): each `### `PATH`` heading of the section
    /// "The embedded data", then the first column of the table under it.
    static func documentedFields() throws -> Set<String> {
        let page = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/report.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "\n## The embedded data\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var fields: Set<String> = []
        var path: String?
        for line in MarkdownDocuments.lines(section) where line.kind == .prose {
            if line.text.hasPrefix("### `") {
                path = line.text.dropFirst(5).prefix { $0 != "`" }.description
            } else if let path, line.text.hasPrefix("| `") {
                fields.insert(path + "." + line.text.dropFirst(3).prefix { $0 != "`" })
            }
        }
        return fields
    }

    /// The fields of `value` (parsed JSON) found at `path`, as `PATH.field`:
    /// an object's keys, then what lies under them; an array of objects is `PATH[]`.
    static func fields(of value: Any, at path: String) -> Set<String> {
        var found: Set<String> = []
        if let object = value as? [String: Any] {
            for (key, member) in object {
                found.insert(path + "." + key)
                found.formUnion(fields(of: member, at: path + "." + key))
            }
        } else if let array = value as? [Any] {
            for element in array where element is [String: Any] {
                found.formUnion(fields(of: element, at: path + "[]"))
            }
        }
        return found
    }

    /// The report of bug-retain-cycle (findings with code locations, tasks,
    /// views, marks), given a problem so that it has a note too.
    static func examplePage() throws -> String {
        let path = PackagePaths.root.appendingPathComponent(CLIHarness.exampleTrace("bug-retain-cycle")).path
        var traces = try ReportTrace.traces(reading: path, options: TraceAnalyzer.Options(), quiet: true)
        traces[0].problems = ["gap: a made-up problem"]
        return ReportPage.html(traces, sources: SourceRoot(directory: "/nonexistent"))
    }

    @Test("docs/report.md lists exactly the fields the encoder writes")
    func documentedSchemaMatchesEncoder() throws {
        let html = try Self.examplePage()
        let meta = try ReportCommandTests.embedded("report-meta", in: html)
        let trace = try ReportCommandTests.embedded("trace-0", in: html)
        let written = Self.fields(of: meta, at: "report-meta").union(Self.fields(of: trace, at: "trace-N"))
        let documented = try Self.documentedFields()
        #expect(documented.count > 80, "the section was not found or not read: \(documented.sorted())")
        #expect(written.subtracting(documented).isEmpty, "written, not documented: \(written.subtracting(documented).sorted())")
        #expect(documented.subtracting(written).isEmpty, "documented, not written: \(documented.subtracting(written).sorted())")
    }

    @Test("the schema's tables are written whole: every column as long as the others")
    func tablesHaveEqualColumns() throws {
        let trace = try ReportCommandTests.embedded("trace-0", in: try Self.examplePage())
        let tables: [(String, [String])] = [
            ("nodes", ReportSchema.Node.allCases.map(\.rawValue)),
            ("attachments", ReportSchema.Attachment.allCases.map(\.rawValue)),
            ("active", ReportSchema.Span.allCases.map(\.rawValue)),
            ("shown", ReportSchema.ShownSpan.allCases.map(\.rawValue)),
            ("viewRemovals", ReportSchema.ViewRemoval.allCases.map(\.rawValue)),
            ("tasks", ReportSchema.Task.allCases.map(\.rawValue)),
            ("marks", ReportSchema.Mark.allCases.map(\.rawValue)),
        ]
        let nodes = try #require((trace["nodes"] as? [String: [Int]])?["id"]?.count)
        for (name, columns) in tables {
            let table = try #require(trace[name] as? [String: [Any]], "\(name)")
            #expect(Set(table.keys) == Set(columns), "\(name)")
            let lengths = Set(table.values.map(\.count))
            #expect(lengths.count == 1 && lengths.first! > 0, "\(name): columns of lengths \(lengths)")
            if let owners = table["node"] as? [Int] {
                #expect(owners == owners.sorted() && owners.allSatisfy { (0..<nodes).contains($0) }, "\(name): rows in node order")
            }
        }
    }

    @Test("ready texts: the findings' moments, the header, the notes and the tree's words come from napkin-inspect")
    func readyTexts() throws {
        let html = try Self.examplePage()
        let trace = try ReportCommandTests.embedded("trace-0", in: html)
        let findings = try #require(trace["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        for finding in findings {
            let time = try #require(finding["time"] as? Int)
            #expect(finding["at"] as? String == TimeFormat.point(UInt64(time)))
        }
        #expect(trace["endText"] as? String == "5.246s")
        #expect((trace["facts"] as? String)?.hasPrefix("rib-house (pid ") == true)
        #expect((trace["verdict"] as? [String: String]) == ["text": "trace damaged", "tone": "bad"])
        #expect((trace["notes"] as? [[String: String]])?.first == ["tone": "problem", "text": "The trace cannot be trusted: gap: a made-up problem"])
        let words = try #require(try ReportCommandTests.embedded("report-meta", in: html)["words"] as? [String: Any])
        #expect((words["views"] as? [String: String])?["gone"] == NodeStatus.words(for: .removed))
        #expect((words["states"] as? [String: String])?["detached"] == NodeStatus.State.detached.rawValue)
        #expect(words["task"] as? String == "task" && words["tasks"] as? String == "tasks")
        #expect(html.contains("<template id=\"help-not-deallocated\"><details class=\"help\"><summary>"))
        #expect(html.components(separatedBy: "<template id=\"help-not-deallocated\">").count == 2, "once per rule")
    }
}
