// Temporary trace files, and errors the helpers throw.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file in the temporary directory, removed by `remove()`.
struct TemporaryFile {
    let path: String

    init(_ bytes: [UInt8] = [], name: String = "trace") throws {
        path = NSTemporaryDirectory() + "napkin-trace-\(name)-\(UUID().uuidString).ndjson"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw TestFailure("cannot create \(path)")
        }
    }

    init(_ text: String, name: String = "trace") throws {
        try self.init(Array(text.utf8), name: name)
    }

    /// Replaces the content in place (truncate and write: the same inode).
    func write(_ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { throw TestFailure("cannot open \(path)") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("short write to \(path)") }
    }

    /// Appends `text` at the end of the file.
    func append(_ text: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { throw TestFailure("cannot open \(path)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("short write to \(path)") }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `write(2)`, for types that have a `write` method of their own.
func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
