#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NapkinTrace

/// Writes a synthetic trace to standard output at a fixed event rate, in 10 ms
/// slices, and reports on standard error whether the reader kept pace: a
/// reader that falls behind fills the pipe, `write` blocks, and the feed ends
/// late. `napkin-bench feed --rate 200000 --seconds 5 | napkin-inspect live`
/// measures the live view against its 200,000 events/s target;
/// `Benchmarks/live.sh` steps the rate up to find its ceiling on a terminal.
/// With `started`, the file at that path is created when the first slice is
/// written (the trace is generated first), so that a script can tell when the
/// feed began.
enum FeedBenchmark {
    static func run(rate: Int, seconds: Int, started: String? = nil) {
        let total = rate * seconds
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total * 80)
        // The tree stays up at the end: the live view's last screen shows it.
        SyntheticTrace.generate(events: total, tearingDown: false) { chunk in bytes.append(contentsOf: chunk) }
        // Line starts, to cut the buffer into slices of whole lines.
        var lineEnds: [Int] = []
        lineEnds.reserveCapacity(total + 16)
        for (i, b) in bytes.enumerated() where b == 10 { lineEnds.append(i + 1) }
        let events = lineEnds.count
        let perSlice = max(1, rate / 100)
        if let started {
            let fd = open(started, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 { close(fd) }
        }
        let start = now()
        var written = 0
        var line = 0
        var slice = 0
        var blockedNS: UInt64 = 0
        while line < events {
            let end = min(events, line + perSlice)
            let from = line == 0 ? 0 : lineEnds[line - 1]
            let to = lineEnds[end - 1]
            let before = now()
            bytes.withUnsafeBytes { raw in
                var offset = from
                while offset < to {
                    let n = write(1, raw.baseAddress! + offset, to - offset)
                    if n <= 0 { if errno == EINTR { continue }; return }
                    offset += n
                }
            }
            blockedNS += now() - before
            written = end
            line = end
            slice += 1
            // Sleep until the next slice is due.
            let due = start + UInt64(slice) * 10_000_000
            let current = now()
            if current < due { usleep(useconds_t((due - current) / 1000)) }
        }
        let elapsed = Double(now() - start) / 1e9
        let target = Double(events) / Double(rate)
        let late = elapsed / target
        var message = "feed: \(written) events in \(String(format: "%.2f", elapsed)) s at \(rate) events/s "
        message += "(target \(String(format: "%.2f", target)) s, \(String(format: "%.2f", late))x; blocked in write \(String(format: "%.2f", Double(blockedNS) / 1e9)) s): "
        message += late <= 1.05 ? "the reader kept pace\n" : "the reader fell behind\n"
        var text = message
        text.withUTF8 { _ = write(2, $0.baseAddress!, $0.count) }
    }
}
