/// The full path of each source file the traced code named by `#fileID`
/// (`Shop/ShopRouter.swift` → `/Users/me/Shop/Sources/Shop/ShopRouter.swift`),
/// as the process that compiled it saw it: what a failure needs for Xcode's
/// issue navigator to open it, whatever the working directory (`xcodebuild`
/// on a simulator runs tests from `/`, with the bundle outside `.build/`).
///
/// The framework notes a pair where it captures a line with tracing on
/// (`#fileID` and `#filePath` of an attach, a detach, a task's start; the
/// file a creation line was symbolicated from); the test support looks a
/// location's file up here first (`NapkinTesting`'s `IssueLocation`). One
/// entry per file: a call for a file already noted is a lock and a set
/// lookup keyed by the literal's address, no allocation. Only the path the
/// compiler or the debug information gave is kept; whether it exists is the
/// reader's check.
package enum SourcePaths {
    private struct Table {
        /// Addresses of `#fileID` literals already noted.
        var seen: Set<UInt> = []
        /// Full path by file id.
        var paths: [String: String] = [:]
    }

    private static let table = Locked(Table())

    /// The most files kept (a process names as many as it has sources).
    static let capacity = 100_000

    /// Notes that `fileID` is the file at `filePath` (both the compiler's literals).
    package static func note(_ fileID: StaticString, _ filePath: StaticString) {
        guard fileID.hasPointerRepresentation, filePath.hasPointerRepresentation else { return }
        let key = UInt(bitPattern: fileID.utf8Start)
        let known = table.withLock { t in
            if t.seen.contains(key) { return true }
            t.seen.insert(key)
            return false
        }
        if known { return }
        note(fileID.description, filePath.description)
    }

    /// Notes that `fileID` is the file at `path`.
    package static func note(_ fileID: String, _ path: String) {
        guard path.hasPrefix("/") else { return }
        table.withLock { t in
            guard t.paths[fileID] == nil, t.paths.count < capacity else { return }
            t.paths[fileID] = path
        }
    }

    /// The full path noted for `fileID`, if any.
    package static func path(forFileID fileID: String) -> String? {
        table.withLock { $0.paths[fileID] }
    }
}
