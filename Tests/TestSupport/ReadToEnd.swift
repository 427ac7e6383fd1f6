// Reading what a child process writes into a pipe, on a thread of its own
// started at once, while the test waits for it without holding a thread of
// the pool.
import Foundation

/// Reads `fd` to its end on a thread of its own, then closes it; the task's
/// value is every byte read.
///
/// - Parameter slowlyFor: read the first this many bytes 4 kB at a time,
///   pausing 1 ms after each read, so that writers keep finding the pipe
///   full and wait for room side by side: their writes then alternate.
///   After that, read as fast as possible (a reader slowed down for long
///   on a busy machine would be given up by exiting writers).
public func readToEnd(_ fd: Int32, slowlyFor slowBytes: Int = 0) -> Task<[UInt8], Never> {
    // The thread starts now, not when a thread of the pool gets to a task:
    // on a starved pool the writers would otherwise find no reader for long.
    let result = PipeReadResult()
    let thread = Thread {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        while true {
            let slow = bytes.count < slowBytes
            let n = read(fd, &buffer, slow ? 4096 : buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if slow { usleep(1_000) }
        }
        close(fd)
        result.finish(bytes)
    }
    thread.name = "test-read-to-end"
    thread.start()
    return Task { await result.value }
}

/// The bytes a reading thread hands to the task waiting for them, whichever
/// comes first. The lock guards both stored properties.
private final class PipeReadResult: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8]?
    private var waiter: CheckedContinuation<[UInt8], Never>?

    /// Called once by the thread, with everything it read.
    func finish(_ read: [UInt8]) {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: read)
        } else {
            bytes = read
            lock.unlock()
        }
    }

    /// The bytes, once the thread is done.
    var value: [UInt8] {
        get async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if let bytes {
                    lock.unlock()
                    continuation.resume(returning: bytes)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }
}
