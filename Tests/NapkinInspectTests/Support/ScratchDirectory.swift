import Foundation

/// A uniquely named temporary directory, removed when the value goes away.
final class ScratchDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "scratch") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-e2e-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to a file in the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Writes `bytes` to a file in the directory and returns its path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
