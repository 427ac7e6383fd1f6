import Foundation
import NapkinTrace

/// Where the results of `check --format sarif` point: a source file found
/// under the source root (`--source-root`), or a trace file, as SARIF
/// artifact locations.
///
/// Every relative URI is relative to the source root (the base id
/// `%SRCROOT%`), which is the repository's root when `check` runs there, as
/// GitHub code scanning reads paths; a file outside it gets an absolute
/// `file://` URI. Paths are made absolute and `.`, `..` resolved by their
/// text alone (links are not followed), and percent-encoded: forward slashes
/// stay, anything outside a URI path's characters (a space, `%`, `#`, `?`,
/// `:`, non-ASCII, controls) becomes `%XX`.
struct SARIFLocator {
    /// Looks the source files up.
    let sources: SourceRoot
    /// The source root as absolute path components.
    private let root: [String]
    /// The current directory, against which relative trace paths are read.
    private let currentDirectory: String

    /// The characters a URI path keeps as they are (RFC 3986 unreserved, sub-delims, `@` and `/`).
    private static let pathCharacters: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=@/")
        return set
    }()

    /// Points at files under `sources`, reading relative paths against the current directory.
    init(sources: SourceRoot, currentDirectory: String = FileManager.default.currentDirectoryPath) {
        self.sources = sources
        self.currentDirectory = currentDirectory
        self.root = Self.components(sources.directory, in: currentDirectory)
    }

    /// `originalUriBaseIds`: `%SRCROOT%`, the source root as a `file://` URI ending in `/`.
    var baseIDs: [String: SARIF.ArtifactLocation] {
        [SARIF.sourceRootBaseID: SARIF.ArtifactLocation(
            uri: Self.fileURI(root) + (root.isEmpty ? "" : "/"),
            description: SARIF.Message(text: "The source root (check --source-root, the current directory by default).")
        )]
    }

    /// `location`'s line in its file, when the source root holds that file;
    /// nil for a function (no file, no line: never a region at line 0).
    func code(_ location: CodeLocation) -> SARIF.PhysicalLocation? {
        guard !location.isFunction, let path = sources.path(of: location) else { return nil }
        return SARIF.PhysicalLocation(artifactLocation: SARIF.ArtifactLocation(uri: Self.encode(path), uriBaseId: SARIF.sourceRootBaseID),
                                      region: SARIF.Region(startLine: max(1, location.line)))
    }

    /// `location`'s `#fileID` read as a path under the source root: a guess
    /// for a file the source root does not hold; nil for a function, whose
    /// name is no path.
    func guess(_ location: CodeLocation) -> SARIF.PhysicalLocation? {
        guard !location.isFunction else { return nil }
        return SARIF.PhysicalLocation(artifactLocation: SARIF.ArtifactLocation(uri: Self.encode(location.fileID), uriBaseId: SARIF.sourceRootBaseID),
                                      region: SARIF.Region(startLine: max(1, location.line)))
    }

    /// A function as a SARIF logical location (``SARIF/LogicalLocation``):
    /// `fullyQualifiedName` the function without its module
    /// (`LoggedInBuilder.build(withListener:)`), `name` its last component
    /// (`build(withListener:)`), `kind` `function`; nil for a line.
    static func logical(_ location: CodeLocation) -> SARIF.LogicalLocation? {
        guard let qualified = location.function else { return nil }
        let parameters = qualified.firstIndex(of: "(") ?? qualified.endIndex
        let name = qualified[..<parameters].lastIndex(of: ".").map { String(qualified[qualified.index(after: $0)...]) } ?? qualified
        return SARIF.LogicalLocation(name: name, fullyQualifiedName: qualified, kind: "function")
    }

    /// Line `line` of the file at `path` (relative to the current directory,
    /// or absolute), whether or not it exists.
    func file(_ path: String, line: UInt) -> SARIF.PhysicalLocation {
        let parts = Self.components(path, in: currentDirectory)
        let artifact: SARIF.ArtifactLocation
        if parts.count > root.count, Array(parts.prefix(root.count)) == root {
            artifact = SARIF.ArtifactLocation(uri: Self.encode(parts.dropFirst(root.count).joined(separator: "/")), uriBaseId: SARIF.sourceRootBaseID)
        } else {
            artifact = SARIF.ArtifactLocation(uri: Self.fileURI(parts))
        }
        return SARIF.PhysicalLocation(artifactLocation: artifact, region: SARIF.Region(startLine: max(1, line)))
    }

    /// Whether `path` names a regular file that exists (not a directory, not standard input's `-`).
    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// The components of `path` made absolute against `directory`, without `.`, `..` or empty ones.
    static func components(_ path: String, in directory: String) -> [String] {
        let full = path.hasPrefix("/") ? path : directory + "/" + path
        var parts: [String] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts
    }

    /// `file:///a/b` for the components `a`, `b`.
    static func fileURI(_ parts: [String]) -> String {
        "file://" + encode("/" + parts.joined(separator: "/"))
    }

    /// `path` percent-encoded for a URI (UTF-8), slashes kept.
    static func encode(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? ""
    }
}
