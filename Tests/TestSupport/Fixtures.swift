// The hand-written fixture traces of `Tests/Fixtures/traces`, by name.

import Foundation
import NapkinTrace
import Testing

/// The hand-written traces in `Tests/Fixtures/traces` (described in the
/// README.md there; their expected findings are in `expected-findings.json`).
public enum Fixtures {
    /// `Tests/Fixtures/traces`, relative to the package's root (where the
    /// programs the tests run start).
    public static let relativeDirectory = "Tests/Fixtures/traces"

    /// `Tests/Fixtures/traces`.
    public static let directory: URL = PackagePaths.url(relativeDirectory)

    /// The suffix of a fixture's clean twin.
    public static let cleanSuffix = "-clean"

    /// The path of fixture `name` (without the `.ndjson` extension).
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name + ".ndjson").path
    }

    /// The path of fixture `name` relative to the package's root, as the
    /// programs the tests run there see it.
    public static func relativePath(_ name: String) -> String {
        relativeDirectory + "/" + name + ".ndjson"
    }

    /// The bytes of fixture `name`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Every fixture's name, sorted.
    public static func allNames() throws -> [String] {
        try PackagePaths.files(in: relativeDirectory, endingIn: ".ndjson").map { String($0.dropLast(".ndjson".count)) }
    }

    /// The events of fixture `name`, read with the library's reader, which
    /// must have nothing to say about them.
    public static func events(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [TraceEvent] {
        let (result, reader) = try readAll(path: path(name))
        #expect(reader.rejection == nil, "\(name): \(reader.rejection.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)", sourceLocation: sourceLocation)
        return result.events
    }

    /// Analyses the events of fixture `name`.
    public static func analyze(_ name: String, options: TraceAnalyzer.Options = .init(),
                               sourceLocation: SourceLocation = #_sourceLocation) throws -> AnalysisReport {
        TraceAnalyzer.analyze(try events(name, sourceLocation: sourceLocation), options: options)
    }
}
