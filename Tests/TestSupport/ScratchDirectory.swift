// Scratch files: a uniquely named temporary directory per test, the files
// the test writes in it, and its removal.
import Foundation

/// A uniquely named temporary directory, removed by ``remove()`` or when
/// the value goes away (hold it to the end of the test: `defer { scratch.remove() }`).
public final class ScratchDirectory: Sendable {
    /// The directory.
    public let url: URL
    /// The directory's path.
    public var path: String { url.path }

    /// Creates the directory, named after `label`. With `short`, it is
    /// directly in `/tmp` with an 8-character name, so that a unix socket
    /// path in it fits (about 100 bytes at the most).
    public init(_ label: String = "scratch", short: Bool = false) throws {
        url = short
            ? URL(fileURLWithPath: "/tmp/napkin-\(UUID().uuidString.prefix(8))")
            : FileManager.default.temporaryDirectory.appendingPathComponent("napkin-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of the file `name` in the directory (which may not exist yet).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to the file `name` in the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }

    /// Writes `bytes` to the file `name` in the directory and returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Replaces the content of the file `name` in place (truncate and write:
    /// the same inode, as a writer that starts over does).
    public func replace(_ name: String, bytes: [UInt8]) throws {
        try writeAll(bytes, to: file(name), flags: O_WRONLY | O_TRUNC)
    }

    /// Appends `text` at the end of the file `name`.
    public func append(_ name: String, _ text: String) throws {
        try writeAll(Array(text.utf8), to: file(name), flags: O_WRONLY | O_APPEND)
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }

    /// Opens `path` with `flags` and writes `bytes` with one `write(2)`.
    private func writeAll(_ bytes: [UInt8], to path: String, flags: Int32) throws {
        let fd = open(path, flags)
        guard fd >= 0 else { throw TestFailure("cannot open \(path)") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { CLibrary.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("short write to \(path)") }
    }
}
