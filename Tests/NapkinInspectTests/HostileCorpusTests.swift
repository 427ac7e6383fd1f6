import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// Every hostile input (`Tests/Fixtures/hostile`, and the big ones generated
/// here) through every subcommand, format and view, as a child process under a
/// time and a memory limit: the documented exit status (never a signal: a trap
/// is 132, 133 or 134), bounded output, no raw control character on standard
/// output or error, and JSON (SARIF too) and JUnit that parse.
@Suite("napkin-inspect: hostile input")
struct HostileCorpusTests {
    /// Each run may take this long (debug builds, a loaded 2-core machine, ThreadSanitizer).
    static let timeout: Double = 300
    /// Each run's address space, in MiB, when the build allows a limit.
    static let memoryLimit = 1_024

    @Test("the manifest names every file of the corpus, and each file exists")
    func manifest() throws {
        let folder = PackagePaths.root.appendingPathComponent(HostileCorpus.directory)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)).subtracting(["cases.json"])
        let named = HostileCorpus.cases.map(\.file)
        #expect(!named.isEmpty, "cases.json is missing or unreadable")
        #expect(Set(named) == files, "files without a case: \(files.subtracting(named)); cases without a file: \(Set(named).subtracting(files))")
        #expect(Set(named).count == named.count, "a file is listed twice")
        for item in HostileCorpus.cases {
            for variant in HostileCorpus.variants {
                #expect(item.expectedStatus(variant) != nil, "\(item.file): no status for \(variant)")
            }
        }
    }

    @Test("every case of the corpus, through every subcommand", .timeLimit(.minutes(20)), arguments: HostileCorpus.cases)
    func corpus(_ item: HostileCorpus.Case) async throws {
        try await Self.runEverywhere(item, path: HostileCorpus.directory + "/" + item.file)
    }

    @Test("generated big and strange traces, through every subcommand", .timeLimit(.minutes(20)), arguments: GeneratedTrace.allCases)
    func generated(_ trace: GeneratedTrace) async throws {
        let scratch = try ScratchDirectory("hostile-\(trace.rawValue)")
        let path = try trace.write(in: scratch)
        try await Self.runEverywhere(trace.expectations, path: path)
    }

    /// Runs `item` at `path` through every variant and checks each run.
    static func runEverywhere(_ item: HostileCorpus.Case, path: String) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for variant in HostileCorpus.variants {
                group.addTask {
                    let result = try await CLIHarness.inspect(variant.arguments + [path], timeout: timeout, memoryLimit: memoryLimit)
                    check(result, item, variant)
                }
            }
            try await group.waitForAll()
        }
    }

    /// The checks of one run.
    static func check(_ result: CLIResult, _ item: HostileCorpus.Case, _ variant: HostileCorpus.Variant) {
        let what = "\(item.file) | \(variant)"
        #expect(result.status < 128, "\(what): killed by signal \(result.status - 128) (a trap is 4, 5 or 6)\n\(result)")
        #expect(result.status == item.expectedStatus(variant), "\(what)\n\(result)")
        // An HTML report holds every node's life (up to 200,000 of them): its bound is its own.
        let maxOutput = variant.name == "report" ? 64 << 20 : item.maxOutput ?? 256 << 10
        #expect(result.stdoutData.count <= maxOutput, "\(what): \(result.stdoutData.count) bytes on stdout")
        #expect(result.stderrData.count <= 64 << 10, "\(what): \(result.stderrData.count) bytes on stderr")
        if variant.name.contains("mermaid") {
            #expect(result.stdoutData.count < 50_000, "\(what): a diagram over mermaid's 50,000-character limit")
        }
        if let problem = OutputSafety.problem(in: result.stdoutData) { Issue.record("\(what): stdout: \(problem)") }
        if let problem = OutputSafety.problem(in: result.stderrData) { Issue.record("\(what): stderr: \(problem)") }
        for line in result.stderrLines {
            #expect(line.hasPrefix("napkin-inspect: "), "\(what): a stderr line without the program name: \(line)")
        }
        if let fragment = item.stderr { #expect(result.stderr.contains(fragment), "\(what): stderr lacks \(fragment.debugDescription)\n\(result)") }
        if let fragment = item.stdout?[variant.name] {
            #expect(result.stdout.contains(fragment), "\(what): stdout lacks \(fragment.debugDescription)\n\(result)")
        }
        // A report is printed when there is one: check always has one (an unusable trace is a trace problem in it).
        switch variant.name {
        case "stats-json" where result.status == 0, "check-json", "check-sarif":
            #expect((try? JSONSerialization.jsonObject(with: result.stdoutData)) is [String: Any], "\(what): not a JSON object\n\(result)")
        case "report" where result.status == 0:
            #expect(result.stdout.hasPrefix("<!DOCTYPE html>") && result.stdout.hasSuffix("</html>\n"), "\(what): not a whole page")
        case "check-junit":
            #if canImport(FoundationXML) || os(macOS)
            #expect((try? XMLDocument(data: result.stdoutData, options: [])) != nil, "\(what): not well-formed XML\n\(result)")
            #endif
        default:
            break
        }
    }
}
