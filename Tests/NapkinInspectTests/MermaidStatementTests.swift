import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
@testable import napkin_inspect
import TestSupport

/// No text from a trace can start a Mermaid statement of its own: every line
/// of every diagram of the hostile corpus starts with one of the statements
/// the renderer writes, and every label is non-empty.
@Suite("Mermaid statements")
struct MermaidStatementTests {
    /// How each line of a diagram may start (after its indentation).
    static let starts: [String: [String]] = [
        "flowchart": [#"^flowchart TD$"#, #"^n\d+(\[|\(|\{\{)""#, #"^n\d+ --> n\d+$"#, #"^subgraph outside\["outside the tree, still alive"\]$"#,
                      #"^end$"#, #"^classDef (active|inactive|detached|warning|error|note) "#,
                      #"^class [n\d,a-zA-Z]+ (active|inactive|detached|warning|error|note)$"#, #"^traceNotes\[""#],
        "gantt": [#"^---$"#, #"^config:$"#, #"^gantt:$"#, #"^leftPadding: \d+$"#, #"^gantt$"#, #"^title [^:]+$"#, #"^dateFormat x$"#,
                  #"^axisFormat [-%A-Za-z:. ]+$"#, #"^todayMarker off$"#, #"^section [^:]+$"#,
                  #"^(launched|attached|detached \(alive\)|never attached \(alive\)|active|task( '.*')?( after cancel)?|deinit|created|nothing traced) :"#,
                  #"^#\d+;.* :(milestone, k\d+|n\d+m), "#, #"^\(empty\) :milestone, k\d+, "#],
        "sequence": [#"^sequenceDiagram$"#, #"^participant n\d+ as ."#, #"^n\d+(->>|-x)n\d+: (attach|detach)$"#, #"^Note over n\d+(,n\d+)?: ."#],
    ]

    /// Whether `statement` (a line without its indentation) starts as the renderer writes `kind` diagrams.
    static func isStatement(_ statement: Substring, of kind: String) -> Bool {
        (starts[kind] ?? []).contains { pattern in (try? Regex(pattern).prefixMatch(in: statement)) != nil }
    }

    @Test("the check itself catches a hijacked line")
    func catchesHijack() {
        #expect(!Self.isStatement("title hijacked :milestone, k0, 1, 0ms", of: "gantt"))
        #expect(!Self.isStatement("click n2 call alert() :milestone, k0, 1, 0ms", of: "gantt"))
        #expect(!Self.isStatement(" :milestone, k0, 1, 0ms", of: "gantt"))
        #expect(!Self.isStatement("click n2 call alert()", of: "flowchart"))
        #expect(Self.isStatement("#116;itle hijacked :milestone, k0, 1, 0ms", of: "gantt"))
    }

    /// The events of a hostile trace, read as the CLI reads them (diagnostics dropped).
    static func events(_ file: String) throws -> [TraceEvent] {
        try readAll(path: PackagePaths.url(HostileCorpus.directory).appendingPathComponent(file).path).0.events
    }

    @Test("every line of every diagram of every usable hostile case starts with a statement of the renderer", .dedicatedThread, .singleThreaded,
          arguments: HostileCorpus.cases.filter { $0.status["*"] != 2 })
    func statements(_ item: HostileCorpus.Case) throws {
        let events = try Self.events(item.file)
        var history = TraceHistory()
        var analyzer = TraceAnalyzer()
        for event in events {
            history.apply(event)
            analyzer.consume(event)
        }
        analyzer.finish()
        let diagrams = ["flowchart": MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings),
                        "gantt": MermaidRenderer.gantt(history), "sequence": MermaidRenderer.sequence(history)]
        for (kind, text) in diagrams {
            var inLabel = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                let statement = line.drop { $0 == " " }
                // A flowchart label may span lines: from `["` (or `("`, `{{"`) to its closing quote.
                if inLabel {
                    inLabel = !(statement.hasSuffix("\"]") || statement.hasSuffix("\")") || statement.hasSuffix("\"}}"))
                    #expect(!statement.isEmpty, "\(item.file) \(kind): an empty label line")
                    continue
                }
                let known = Self.isStatement(statement, of: kind)
                #expect(known, "\(item.file) \(kind): a line the renderer does not write: \(line.debugDescription)")
                if kind == "flowchart", statement.contains("[\"") || statement.contains("(\"") || statement.contains("{{\"") {
                    inLabel = !(statement.hasSuffix("\"]") || statement.hasSuffix("\")") || statement.hasSuffix("\"}}"))
                }
                #expect(text.utf8.count < 50_000)
            }
        }
    }

    @Test("text safe at a statement's start: keywords and dates start with an entity; empty text has a placeholder", arguments: [
        ("click n2 call alert()", "#99;lick n2 call alert()"), ("title x", "#116;itle x"), ("2024-01-01", "#50;024-01-01"),
        ("", "(empty)"), ("  \t\n ", "(empty)"), (" end ", "#101;nd"), ("%%{init}%%", "#37;#37;#123;init#125;#37;#37;"),
        ("é", "#233;"), ("\u{1B}[2J", "#91;2J"),
    ])
    func statementText(_ input: String, _ expected: String) {
        #expect(MermaidRenderer.statement(input) == expected)
    }

    @Test("labels: blank text has a placeholder, the rest is escaped", arguments: [
        ("", "(empty)"), (" ", "(empty)"), ("Box<Int>", "Box#60;Int#62;"), (" a:b ", "a#58;b"),
    ])
    func labels(_ input: String, _ expected: String) {
        #expect(MermaidRenderer.label(input) == expected)
    }
}
