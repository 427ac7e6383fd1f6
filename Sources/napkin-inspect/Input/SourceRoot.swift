import Foundation
import NapkinTrace

/// Finds the files a trace's code locations name under a directory
/// (`--source-root DIR`, the current directory by default): a `#fileID`
/// (`Module/File.swift`) names a module and a file name, not a path, so the
/// file is looked up by name, and when several files have that name, by the
/// module's name among the folders of its path.
///
/// The directory is read once, the first time a location is asked for,
/// skipping hidden folders (`.git`, `.build`) and stopping after
/// ``maxEntries`` entries, so a huge tree (or a link loop) costs a bounded walk. A location that
/// is not found (or is ambiguous) is shown as its `#fileID`, and
/// ``unresolved`` lists them for one note.
///
/// A location that names a function (``CodeLocation/isFunction``: a
/// creation recorded on a device, `RibHouse/LoggedInBuilder.build(withListener:)`)
/// names no file: it is never looked up as a path (a function's name is no
/// file name, and `LoggedInBuilder.build(withListener:)` could not be told
/// from a file of that name), never counted as unresolved (the note would
/// ask for a source root that cannot help), and shown as it is, without a line.
final class SourceRoot {
    /// The most directory entries visited (files and folders, Swift or not).
    static let maxEntries = 500_000
    /// The directory, as given.
    let directory: String
    private var filesByName: [String: [String]]?
    private var resolved: [String: String?] = [:]
    /// The `#fileID`s that were asked for and not found, in order.
    private(set) var unresolved: [String] = []

    /// Looks under `directory` (not read until needed).
    init(directory: String) {
        self.directory = directory
    }

    /// The path of `location`'s file relative to the directory (as a
    /// repository-relative path when the directory is the repository's
    /// root), or nil when no single file matches; always nil for a function.
    func path(of location: CodeLocation) -> String? {
        guard !location.isFunction else { return nil }
        let id = location.fileID
        if let known = resolved[id] { return known }
        let found = find(location)
        resolved[id] = found
        if found == nil { unresolved.append(id) }
        return found
    }

    /// `path:line` when the file is found, `Module/File.swift:line`
    /// otherwise; a function as it is, `Module/Type.function(label:)`.
    func display(_ location: CodeLocation) -> String {
        guard !location.isFunction else { return location.description }
        return "\(path(of: location) ?? location.fileID):\(location.line)"
    }

    /// The note for standard error when some locations were not found, if any.
    var unresolvedNote: String? {
        guard !unresolved.isEmpty else { return nil }
        let shown = unresolved.prefix(3).joined(separator: ", ") + (unresolved.count > 3 ? ", …" : "")
        return "note: \(unresolved.count) source file\(unresolved.count == 1 ? "" : "s") named by the trace not found under '\(directory)' (\(shown)): shown by their #fileID; point --source-root at the app's repository"
    }

    private func find(_ location: CodeLocation) -> String? {
        let candidates = index()[location.fileName] ?? []
        if candidates.count == 1 { return candidates[0] }
        guard let module = location.module else { return nil }
        let inModule = candidates.filter { $0.split(separator: "/").dropLast().contains { $0 == module } }
        return inModule.count == 1 ? inModule[0] : nil
    }

    private func index() -> [String: [String]] {
        if let filesByName { return filesByName }
        var files: [String: [String]] = [:]
        var count = 0
        let manager = FileManager.default
        if let walk = manager.enumerator(atPath: directory) {
            while let relative = walk.nextObject() as? String, count < Self.maxEntries {
                count += 1
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    walk.skipDescendants()
                    continue
                }
                if name.hasSuffix(".swift") { files[name, default: []].append(relative) }
            }
        }
        filesByName = files
        return files
    }
}
