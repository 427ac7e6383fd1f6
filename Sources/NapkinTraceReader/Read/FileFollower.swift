import NapkinTrace
import Synchronization

/// Set from any thread to make a following reader give up waiting.
final class StopSignal: Sendable {
    /// Whether ``TraceReader/stop()`` was called.
    let flag = Atomic<Bool>(false)
}

/// Where a ``TraceReader`` gets its bytes: a descriptor, read to its end or,
/// when following a file, like `tail -F`: at the end it waits and looks
/// again, and notices when the file was truncated or replaced.
struct FileFollower {
    /// What one call to ``read(into:count:)`` produced.
    enum Chunk {
        /// This many bytes (more than zero) were read.
        case bytes(Int)
        /// The input ended (or, followed, could not be followed: no path).
        case end
        /// ``TraceReader/stop()`` was called.
        case stopped
        /// Reading failed.
        case failed(Platform.SystemError)
        /// The followed file was truncated or replaced: what was read before
        /// is void, and reading starts over from its first byte. The note
        /// says which.
        case restarted(TraceDiagnostic)
    }

    /// The descriptor being read (a new one after the file was replaced).
    private(set) var fd: Int32
    /// The followed path; `nil` when reading a descriptor given by the caller.
    let path: String?
    /// Whether the reader opened `fd` (and closes it).
    let ownsDescriptor: Bool
    /// Wait for more at the end of the file instead of ending.
    let follow: Bool
    /// How long to wait between looks at a followed file.
    let pollInterval: Duration
    /// Set by ``TraceReader/stop()``.
    let stop: StopSignal
    /// Sees every chunk read (``TraceReader/Options/tap``).
    let tap: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    /// The inode of what `fd` reads, to notice a replaced file.
    private var inode: UInt64

    init(fd: Int32, path: String?, owns: Bool, follow: Bool, pollInterval: Duration, stop: StopSignal,
         tap: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil) {
        (self.fd, self.path, ownsDescriptor) = (fd, path, owns)
        (self.follow, self.pollInterval, self.stop, self.tap) = (follow, pollInterval, stop, tap)
        inode = FileFollower.inode(of: fd)
    }

    /// Closes the descriptor if the reader opened it.
    func release() {
        if ownsDescriptor { Platform.closeDescriptor(fd) }
    }

    /// Reads up to `count` bytes into `buffer`, waiting for more at the end of
    /// a followed file.
    mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Chunk {
        while true {
            if stop.flag.load(ordering: .relaxed) { return .stopped }
            switch Platform.readSome(fd, into: buffer, count: count) {
            case .bytes(let n):
                tap?(UnsafeRawBufferPointer(start: buffer, count: n))
                return .bytes(n)
            case .interrupted:
                continue
            case .wouldBlock:
                Platform.waitUntilReadable(fd, timeoutMS: 100)
                continue
            case .failed(let error):
                return .failed(error)
            case .nothing:
                // End of file.
                guard follow, path != nil else { return .end }
                switch waitForMore() {
                case .stop: return .stopped
                case .readAgain: continue
                case .restart(let note): return .restarted(note)
                }
            }
        }
    }

    private enum Wait {
        case stop
        case readAgain
        case restart(TraceDiagnostic)
    }

    /// At the end of a followed file: waits, and notices truncation and replacement.
    private mutating func waitForMore() -> Wait {
        guard let path else { return .stop }
        let (seconds, attos) = pollInterval.components
        let micros = seconds * 1_000_000 + attos / 1_000_000_000_000
        Platform.sleep(microseconds: Int(max(1_000, min(micros, 1_000_000))))
        if stop.flag.load(ordering: .relaxed) { return .stop }
        if let facts = Platform.fileFacts(atPath: path), facts.inode != inode {
            if let newFD = try? Platform.openForReading(path) {
                if ownsDescriptor { Platform.closeDescriptor(fd) }
                fd = newFD
                inode = FileFollower.inode(of: newFD)
                return .restart(TraceDiagnostic(.note, line: nil, "\(path) was replaced; following the new file"))
            }
            return .readAgain
        }
        if let own = Platform.fileFacts(of: fd), Platform.currentOffset(of: fd) > own.size {
            Platform.rewind(fd)
            return .restart(TraceDiagnostic(.note, line: nil, "\(path) was truncated; reading it from the start"))
        }
        return .readAgain
    }

    private static func inode(of fd: Int32) -> UInt64 {
        Platform.fileFacts(of: fd)?.inode ?? 0
    }
}
