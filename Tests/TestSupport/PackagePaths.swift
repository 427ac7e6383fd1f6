// Where the package's files are, found from this source file's location,
// never an absolute machine path: the documentation, fixtures and sources
// the tests read.
import Foundation

/// Paths in the package, found from this source file's location
/// (`Tests/TestSupport/`).
public enum PackagePaths {
    /// The package's root directory.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // the package

    /// `path`, relative to the package's root.
    public static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The text of the file at `path`, relative to the package's root.
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }

    /// The names of the files in the directory `path` (relative to the root) ending in `suffix`, sorted.
    public static func files(in path: String, endingIn suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(path).path).filter { $0.hasSuffix(suffix) }.sorted()
    }
}
