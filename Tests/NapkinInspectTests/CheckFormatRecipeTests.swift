import Foundation
@testable import napkin_inspect
import Testing
import TestSupport

/// The steps of docs/contributing.md's "A new `check --format`" that no
/// compiler error names, checked for every case of ``CheckCommand/Format``:
/// its renderer's file, its documentation in docs/check-output.md, its end
/// to end test, its hostile-corpus variant and its `--jobs` case. (The
/// parser, `--help` and the "must be one of" error list every case without a
/// change; `ArgumentParserTests` pins that list.)
@Suite("A new check --format: every step of the recipe")
struct CheckFormatRecipeTests {
    /// The default format: the one `check` writes without `--format`.
    static let defaultFormat = CheckCommand.Format.allCases[0]

    /// The lines of docs/check-output.md.
    static func documentation() throws -> [String] {
        try PackagePaths.text("docs/check-output.md").components(separatedBy: "\n")
    }

    @Test("each format has its renderer, Sources/napkin-inspect/Render/Check/Check<Format>Report.swift, and each such file is a format's",
          arguments: CheckCommand.Format.allCases)
    func renderer(_ format: CheckCommand.Format) throws {
        let files = try PackagePaths.files(in: "Sources/napkin-inspect/Render/Check", endingIn: "Report.swift")
            .filter { $0.hasPrefix("Check") }
        let own = files.filter { $0.lowercased() == "check\(format.rawValue)report.swift" }
        #expect(own.count == 1, "no renderer Sources/napkin-inspect/Render/Check/Check\(format.rawValue)Report.swift (in any case: CheckJSONReport.swift) for --format \(format.rawValue)")
        let formats = Set(CheckCommand.Format.allCases.map { "check\($0.rawValue)report.swift" })
        #expect(files.filter { !formats.contains($0.lowercased()) } == [], "a Check…Report.swift renderer of no CheckCommand.Format case")
    }

    @Test("docs/check-output.md has a section for each format, and Running it lists every format, in order",
          arguments: CheckCommand.Format.allCases)
    func documented(_ format: CheckCommand.Format) throws {
        let lines = try Self.documentation()
        let heading = "## \(format.rawValue)" + (format == Self.defaultFormat ? " (default)" : "")
        #expect(lines.contains(heading), "docs/check-output.md has no section \"\(heading)\"")
        let choices = CheckCommand.Format.allCases.map(\.rawValue).joined(separator: "|")
        #expect(lines.contains { $0.contains("`--format \(choices)`") }, "docs/check-output.md, Running it: the options do not say `--format \(choices)`")
    }

    @Test("each format is tested end to end: CheckFormatsTests.swift or a Check<Format>Tests.swift of its own runs check --format with it",
          arguments: CheckCommand.Format.allCases.filter { $0 != defaultFormat })
    func testedEndToEnd(_ format: CheckCommand.Format) throws {
        let files = try PackagePaths.files(in: "Tests/NapkinInspectTests", endingIn: "Tests.swift")
            .filter { $0 == "CheckFormatsTests.swift" || $0.lowercased() == "check\(format.rawValue)tests.swift" }
        let texts = try files.map { try PackagePaths.text("Tests/NapkinInspectTests/" + $0) }
        let spellings = [#""--format", "\#(format.rawValue)""#, #""--format=\#(format.rawValue)""#]
        #expect(texts.contains { text in spellings.contains { text.contains($0) } },
                "no end-to-end test of check --format \(format.rawValue) in \(files)")
    }

    @Test("every hostile input runs through each format: HostileCorpus.variants has check (the default) and check-FORMAT for the others",
          arguments: CheckCommand.Format.allCases)
    func hostileVariant(_ format: CheckCommand.Format) {
        let name = format == Self.defaultFormat ? "check" : "check-\(format.rawValue)"
        let variant = HostileCorpus.variants.first { $0.name == name }
        let arguments = format == Self.defaultFormat ? ["check"] : ["check", "--format", format.rawValue]
        #expect(variant?.arguments == arguments, "HostileCorpus.variants has no \(name) variant running \(arguments.joined(separator: " "))")
    }

    @Test("check --jobs is tested in every format: CheckJobsTests.formats lists each, in order")
    func jobsCase() {
        #expect(CheckJobsTests.formats == CheckCommand.Format.allCases.map(\.rawValue),
                "CheckJobsTests.formats must list every check --format")
    }
}
