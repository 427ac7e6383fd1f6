import Foundation

/// Where `export` writes: standard output, or the file `-o FILE` names.
///
/// A file is written to a temporary file next to it, renamed over it once
/// complete: a reader (a viewer reloading it) sees the previous export or the
/// new one, never a part, and a failed export leaves the previous one as it
/// was. An existing file is replaced only when it is empty or an earlier
/// export (``ensureReplaceable(_:)``): never a trace, notes or another
/// tool's Chrome trace.
final class ExportOutput {
    /// The first bytes of every export: how an earlier one is recognised.
    /// (``ChromeTrace`` writes the first process's name first.)
    static let head = "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":"
    /// The first bytes of an OTLP export (its first request, of any signal).
    static let otlpHead = "{\"resource"

    /// `-o FILE`, or nil for standard output.
    let path: String?
    /// The descriptor written to: standard output, or the temporary file.
    private let fd: Int32
    /// The temporary file, until it is renamed over ``path`` (or removed).
    private var temporary: String?
    /// How many bytes were written.
    private(set) var byteCount = 0

    /// Output to standard output (`path` nil) or to a new temporary file
    /// next to `path` (with the permissions of the file it will replace);
    /// check `path` with ``ensureReplaceable(_:)`` first.
    init(path: String?) throws(CommandFailure) {
        self.path = path
        guard let path else {
            fd = 1
            return
        }
        (fd, temporary) = try ReplaceableFile.makeTemporary(next: path, noun: "export")
    }

    /// Removes the temporary file of an export that did not complete.
    deinit {
        guard let temporary else { return }
        close(fd)
        unlink(temporary)
    }

    /// Fails unless `-o PATH` may be written: a new file in an existing
    /// directory, an empty file, or an earlier export (it starts with
    /// ``head`` or ``otlpHead``). Called before any trace is read.
    static func ensureReplaceable(_ path: String) throws(CommandFailure) {
        try ReplaceableFile.ensureWritable(path, noun: "export") { start in
            start.isEmpty || start.starts(with: head.utf8) || start.starts(with: otlpHead.utf8)
        }
    }

    /// Writes `bytes`; a write to the file that fails (a full disk) is a
    /// failure (on standard output, a closed pipe ends the program, as usual).
    func append(_ bytes: [UInt8]) throws(CommandFailure) {
        byteCount += bytes.count
        let written = bytes.withUnsafeBytes { Platform.writeAll($0, to: fd) }
        if !written, let path {
            throw CommandFailure("cannot write the export \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Completes the export: closes the temporary file and renames it over ``path``.
    func commit() throws(CommandFailure) {
        guard let path, let temporary else { return }
        self.temporary = nil
        let closed = close(fd) == 0
        guard closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure("cannot write the export \(path): \(reason)")
        }
    }
}
