import Foundation
import NapkinTrace

/// Writes one connection's bytes to a file of its own in the `--record`
/// directory, exactly as they arrived, for `check` afterwards.
///
/// The file is named after the process once its session record has been read
/// (`rib-house-21693.ndjson`; a later part of the same process's trace after a
/// reconnection gets `-2`, `-3`, … as does any name already taken). Until
/// then the bytes wait in memory (at most ``maxWaitingBytes``; the reader
/// rejects a connection whose first line is not a record long before). A
/// connection that turns out not to be a trace leaves no file. Files are
/// created exclusively: nothing already in the directory is overwritten.
///
/// `@unchecked Sendable`: used only on the connection's reader thread (the
/// tap and the session's callbacks all run there), one call at a time.
///
/// Named for what it records: one connection's bytes, into a file (not a session's model, and no `TraceRecorder`).
final class ConnectionRecorder: @unchecked Sendable {
    /// Bytes kept before the file is named, at most.
    static let maxWaitingBytes = 1 << 20

    /// The directory.
    let directory: String
    private var waiting: [UInt8] = []
    private var fd: Int32 = -1
    private var failed = false
    /// The file written, once named.
    private(set) var path: String?

    /// A recorder for one connection into `directory`.
    init(directory: String) {
        self.directory = directory
    }

    /// Takes the bytes just read.
    func take(_ bytes: UnsafeRawBufferPointer) {
        guard !failed else { return }
        if fd >= 0 {
            Platform.writeAll(bytes, to: fd)
        } else if waiting.count + bytes.count <= Self.maxWaitingBytes {
            waiting.append(contentsOf: bytes)
        }
    }

    /// The session record was read: creates the file for `info` and writes
    /// what waited. Returns a message when the file cannot be created.
    func name(after info: SessionInfo) -> String? {
        guard fd < 0, !failed else { return nil }
        let base = Self.safeName(info.app) + "-\(info.pid)"
        for attempt in 1...1_000 {
            let candidate = directory + "/" + base + (attempt == 1 ? "" : "-\(attempt)") + ".ndjson"
            let opened = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if opened >= 0 {
                fd = opened
                path = candidate
                waiting.withUnsafeBytes { _ = Platform.writeAll($0, to: fd) }
                waiting = []
                return nil
            }
            if errno != EEXIST { break }
        }
        failed = true
        waiting = []
        return "cannot record \(info.heading) in \(directory): \(String(cString: strerror(errno)))"
    }

    /// The connection ended: closes the file (a connection that was not a trace leaves none).
    func finish() {
        if fd >= 0 { close(fd) }
        fd = -1
        waiting = []
    }

    /// `app` with anything but letters, digits, `.`, `_` and `-` replaced, at most 64 characters.
    static func safeName(_ app: String) -> String {
        let kept = app.unicodeScalars.prefix(64).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let name = String(kept)
        return name.isEmpty || name.hasPrefix(".") ? "app" + name : name
    }
}
