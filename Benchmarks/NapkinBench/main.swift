#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NapkinTrace

// Temporary entry; replaced by the full benchmark driver.
let args = CommandLine.arguments
if args.count >= 4 && args[1] == "generate" {
    let cycles = Int(args[2])!
    let fd = open(args[3], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var out: [UInt8] = []
    SyntheticTrace.generate(cycles: cycles, into: &out) { bytes in
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    }
    close(fd)
} else if args.count >= 3 && args[1] == "read" {
    let start = MonotonicClockBench.now()
    let reader = try TraceReader(path: args[2])
    var events = 0
    var diags = 0
    while let item = reader.next() {
        switch item {
        case .event: events += 1
        case .diagnostic: diags += 1
        }
    }
    let elapsed = Double(MonotonicClockBench.now() - start) / 1e9
    print("events \(events) diags \(diags) bytes \(reader.byteCount) \(Double(reader.byteCount) / elapsed / 1e6) MB/s")
}

enum MonotonicClockBench {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
