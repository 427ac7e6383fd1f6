// Where the package's files are (found from this source file, never an
// absolute machine path), and the hand-written fixture traces.

import Foundation
import NapkinTrace
import Testing

/// Paths in the package, found from this source file's location
/// (`Tests/NapkinTraceTests/Support/`).
enum PackagePaths {
    /// The package's root directory.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // NapkinTraceTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // the package

    /// `path`, relative to the package's root.
    static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The text of the file at `path`, relative to the package's root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }

    /// The names of the files in the directory `path` (relative to the root) ending in `suffix`, sorted.
    static func files(in path: String, endingIn suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(path).path).filter { $0.hasSuffix(suffix) }.sorted()
    }
}

/// The hand-written traces in `Tests/Fixtures/traces` (described in the
/// README.md there; their expected findings are in `expected-findings.json`).
enum Fixtures {
    /// `Tests/Fixtures/traces`.
    static let directory: URL = PackagePaths.url("Tests/Fixtures/traces")

    /// The suffix of a fixture's clean twin.
    static let cleanSuffix = "-clean"

    /// The path of fixture `name` (without the `.ndjson` extension).
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name + ".ndjson").path
    }

    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Every fixture's name, sorted.
    static func allNames() throws -> [String] {
        try PackagePaths.files(in: "Tests/Fixtures/traces", endingIn: ".ndjson").map { String($0.dropLast(".ndjson".count)) }
    }

    /// The events of fixture `name`, read with the library's reader, which
    /// must have nothing to say about them.
    static func events(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [TraceEvent] {
        let (result, reader) = try readAll(path: path(name))
        #expect(reader.rejection == nil, "\(name): \(reader.rejection.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)", sourceLocation: sourceLocation)
        return result.events
    }

    /// Analyses the events of fixture `name`.
    static func analyze(_ name: String, options: TraceAnalyzer.Options = .init(),
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> AnalysisReport {
        TraceAnalyzer.analyze(try events(name, sourceLocation: sourceLocation), options: options)
    }
}
