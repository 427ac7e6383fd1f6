import Foundation
@testable import NapkinTrace
import Testing
import TestSupport

/// The steps of docs/contributing.md's "A new event kind" that no compiler
/// error names, checked for every ``TraceEvent/Name``: the kind's section in
/// docs/trace-format.md documents every field its records carry, and the
/// framework (or the recorder) writes it. The other steps are checked
/// elsewhere for every kind: the section itself (`TraceEncoderTests`), the
/// exact line (`TraceEncoderTests`), the sample (`WireFormatRoundTripTests`,
/// a switch), the parser's list (`TraceLineParserTests`), the counter
/// (`KindCountsTests`) and the literals (`FastPathLiteralsTests`).
@Suite("A new event kind: every step of the recipe")
struct EventKindRecipeTests {
    /// The fields every record carries, documented once at the top of the page.
    static let commonFields: Set<String> = ["seq", "t", "ev", "src", "fn"]

    /// The lines of each kind's section of docs/trace-format.md
    /// (`` ### `name`: ... `` up to the next heading), by `ev` value.
    static func sections() throws -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for line in try PackagePaths.text("docs/trace-format.md").components(separatedBy: "\n") {
            if line.hasPrefix("#") {
                current = nil
                if line.hasPrefix("### `"), let end = line.dropFirst(5).firstIndex(of: "`") {
                    current = String(line.dropFirst(5)[..<end])
                    sections[current!] = []
                }
            } else if let current {
                sections[current]?.append(line)
            }
        }
        return sections
    }

    /// The fields a section's table documents: the first cell of each row, `` | `name` | ``.
    static func documentedFields(_ section: [String]) -> [String] {
        section.compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line.dropFirst(3)[..<end])
        }
    }

    /// The field names of the encoder's line for the sample event of `name`, but the common ones.
    static func writtenFields(_ name: TraceEvent.Name) -> [String] {
        WireFormatRoundTripTests.fields(TraceEncoder.line(WireFormatRoundTripTests.event(name)))
            .map { String($0.split(separator: ":", maxSplits: 1)[0].dropFirst().dropLast()) }
            .filter { !commonFields.contains($0) }
    }

    /// The text of every Swift file below `directory` (relative to the package's root).
    static func swiftSources(in directory: String) throws -> [(path: String, text: String)] {
        let root = PackagePaths.url(directory)
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try paths.sorted().map { (directory + "/" + $0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("each kind's section in docs/trace-format.md has a row for every field its records carry, and only fields of the format",
          arguments: TraceEvent.Name.allCases)
    func fieldsDocumented(_ name: TraceEvent.Name) throws {
        let section = try #require(try Self.sections()[name.rawValue], "docs/trace-format.md has no section ### `\(name.rawValue)`: ...")
        let documented = Self.documentedFields(section)
        let written = Self.writtenFields(name)
        #expect(!written.isEmpty, "\(name.rawValue): the sample's line has no fields of its own")
        for field in written {
            #expect(documented.contains(field),
                    "docs/trace-format.md, ### `\(name.rawValue)`: no row | `\(field)` | for a field its records carry")
        }
        let known = Set(TraceField.allCases.map(\.name.description))
        for field in documented {
            #expect(known.contains(field), "docs/trace-format.md, ### `\(name.rawValue)`: `\(field)` is no field of TraceField")
        }
    }

    @Test("the framework or its recorder writes every kind: Sources/Napkin or Sources/NapkinTrace/Emit makes it (emit(.kind( or kind: .kind()",
          arguments: TraceEvent.Name.allCases)
    func emitted(_ name: TraceEvent.Name) throws {
        let caseName = try #require(Mirror(reflecting: WireFormatRoundTripTests.sample(name)).children.first?.label,
                                    "\(name): a kind without a payload")
        let sources = try Self.swiftSources(in: "Sources/Napkin") + Self.swiftSources(in: "Sources/NapkinTrace/Emit")
        #expect(sources.count > 10, "the sources were not found: \(sources.map(\.path))")
        let makers = ["emit(.\(caseName)(", "kind: .\(caseName)("]
        let emitters = sources.filter { source in makers.contains { source.text.contains($0) } }
        #expect(!emitters.isEmpty,
                "nothing in Sources/Napkin or Sources/NapkinTrace/Emit writes .\(caseName) (`\(name.rawValue)`): emit it where the framework does the transition")
    }
}
