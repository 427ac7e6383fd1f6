// Reading what a child process writes into a pipe, on a thread of its own,
// while the test waits for it without holding a thread of the pool.
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
    Task {
        await onOwnThread("test-read-to-end") {
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
            return bytes
        }
    }
}
