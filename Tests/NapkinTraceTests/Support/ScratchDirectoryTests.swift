import Foundation
import Testing
import TestSupport

/// ``ScratchDirectory`` (Tests/TestSupport), the one home of the tests'
/// scratch files: files written, rewritten in place and appended to; a
/// short path for unix sockets; everything gone when it is removed.
@Suite("TestSupport: scratch directories")
struct ScratchDirectoryTests {
    @Test("write, replace in place (the same inode, shorter content) and append; remove takes everything")
    func files() throws {
        let scratch = try ScratchDirectory("scratch-test")
        let path = try scratch.write("a.ndjson", "first line\n")
        #expect(path == scratch.file("a.ndjson") && path.hasPrefix(scratch.path + "/"))
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        try scratch.replace("a.ndjson", bytes: Array("new\n".utf8))
        try scratch.append("a.ndjson", "more\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\nmore\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode, "replaced, not rewritten in place")
        #expect(try scratch.write("b", bytes: [0, 255]) == scratch.file("b"))
        scratch.remove()
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
        #expect(throws: (any Error).self) { try scratch.append("a.ndjson", "gone") }
    }

    @Test("two directories never share a path, and a short one leaves room for a unix socket path")
    func paths() throws {
        let one = try ScratchDirectory(), two = try ScratchDirectory()
        defer { one.remove(); two.remove() }
        #expect(one.path != two.path)
        let short = try ScratchDirectory(short: true)
        defer { short.remove() }
        #expect(short.file("inspector.sock").utf8.count <= 40, "\(short.path)")
        #expect(FileManager.default.fileExists(atPath: short.path))
    }
}
