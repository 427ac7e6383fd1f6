import Foundation
import NapkinTrace

/// Finds the full path of a ``NapkinTrace/CodeLocation``'s file (`#fileID`
/// and `#line`: `Shop/ShopRouter.swift:31`), which IDEs want to show a
/// failure on that line.
///
/// First the path the process noted when it captured the line
/// (``NapkinTrace/SourcePaths``: the attach's, the detach's or the task's
/// `#filePath`, or the file a creation line was symbolicated from), when it
/// exists: it holds wherever the tests run from (`xcodebuild` on a
/// simulator runs them from `/`, the bundle outside `.build/`). Else, best
/// effort, from where the test is, and only a file that exists is taken:
///
/// 1. the test's file itself, when the location is in it;
/// 2. a file of that name next to the test's file, in the test's module;
/// 3. `Sources/MODULE/FILE` or `Tests/MODULE/FILE` of the package the test
///    belongs to (the directory above the test file's last `Tests/`), then
///    of the other package roots the library's glue knows (XCTest's:
///    `XCTestNames.packageRoots(bundlePath:currentDirectory:)`).
///
/// Otherwise there is no path: the failure still names the right file and
/// line, an IDE may just not place it in the editor.
///
/// A location that names a function (``NapkinTrace/CodeLocation/isFunction``)
/// has no file: it never has a path (its name is not looked up as one).
enum IssueLocation {
    /// The full path of `location`'s file, if one of the candidates exists,
    /// for a test declared in `test` (nil: unknown); nil for a function.
    static func filePath(of location: CodeLocation, test: TestSource?, packageRoots: [String] = [],
                         fileExists: (String) -> Bool = fileExists) -> String? {
        guard !location.isFunction else { return nil }
        if let test, location.fileID == test.fileID { return test.filePath }
        if let noted = SourcePaths.path(forFileID: location.fileID), fileExists(noted) { return noted }
        guard let module = location.module else { return nil }
        var candidates: [String] = []
        if let test, module == test.moduleName, let testDirectory = directory(of: test.filePath) {
            candidates.append("\(testDirectory)/\(location.fileName)")
        }
        var roots = test.flatMap { packageRoot(of: $0.filePath) }.map { [$0] } ?? []
        roots += packageRoots.filter { !roots.contains($0) }
        for root in roots {
            candidates.append("\(root)/Sources/\(module)/\(location.fileName)")
            candidates.append("\(root)/Tests/\(module)/\(location.fileName)")
        }
        return candidates.first(where: fileExists)
    }

    /// Whether a regular file exists at `path`.
    @Sendable static func fileExists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// `path` without its last component, if it has a directory.
    private static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    /// The directory holding the last `Tests/` directory on `path`.
    private static func packageRoot(of path: String) -> String? {
        guard let range = path.range(of: "/Tests/", options: .backwards), range.lowerBound != path.startIndex else { return nil }
        return String(path[..<range.lowerBound])
    }
}
