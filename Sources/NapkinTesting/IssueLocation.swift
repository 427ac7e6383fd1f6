import Foundation
import NapkinTrace
import Testing

/// Turns a ``NapkinTrace/CodeLocation`` (`#fileID` and `#line`: `Shop/ShopRouter.swift:31`)
/// into a Swift Testing `SourceLocation`, which also wants the file's full
/// path (IDEs use it to show the issue on that line).
///
/// The trace knows the module and the file name only, so the path is found
/// from the test's own file, best effort, and only a file that exists is
/// taken:
///
/// 1. the test's file itself, when the location is in it;
/// 2. a file of that name next to the test's file, in the test's module;
/// 3. `Sources/MODULE/FILE` or `Tests/MODULE/FILE` of the package the test
///    belongs to (the directory above the test file's last `Tests/`).
///
/// Otherwise the path is the file id itself: the issue still names the
/// right file and line, an IDE may just not place it in the editor.
enum IssueLocation {
    /// The source location for `location`, for a test declared at `testLocation`.
    static func sourceLocation(of location: CodeLocation, testLocation: SourceLocation,
                               fileExists: (String) -> Bool = fileExists) -> SourceLocation {
        let path = filePath(of: location, testLocation: testLocation, fileExists: fileExists) ?? location.fileID
        return SourceLocation(fileID: location.fileID, filePath: path, line: Int(clamping: location.line), column: 1)
    }

    /// The full path of `location`'s file, if one of the candidates exists.
    static func filePath(of location: CodeLocation, testLocation: SourceLocation,
                         fileExists: (String) -> Bool = fileExists) -> String? {
        if location.fileID == testLocation.fileID { return path(of: testLocation) }
        guard let module = location.module else { return nil }
        var candidates: [String] = []
        let testDirectory = directory(of: path(of: testLocation))
        if module == testLocation.moduleName, let testDirectory {
            candidates.append("\(testDirectory)/\(location.fileName)")
        }
        if let root = packageRoot(of: path(of: testLocation)) {
            candidates.append("\(root)/Sources/\(module)/\(location.fileName)")
            candidates.append("\(root)/Tests/\(module)/\(location.fileName)")
        }
        return candidates.first(where: fileExists)
    }

    /// The path of `location`'s file: `SourceLocation.filePath`, public from
    /// Swift 6.3 (Xcode 26.4); Swift 6.2's Testing has it as `_filePath`.
    static func path(of location: SourceLocation) -> String {
        #if compiler(>=6.3)
        return location.filePath
        #else
        return location._filePath
        #endif
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
