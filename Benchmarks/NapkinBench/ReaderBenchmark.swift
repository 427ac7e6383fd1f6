#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NapkinTrace

/// Reader and analysis throughput on a large synthetic trace, against `jq -c .`.
enum ReaderBenchmark {
    static func run(cycles: Int, keep: Bool) {
        let path = NSTemporaryDirectory() + "napkin-bench-\(getpid()).ndjson"
        defer { if !keep { unlink(path) } }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var buffer: [UInt8] = []
        SyntheticTrace.generate(cycles: cycles, into: &buffer) { bytes in
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        }
        close(fd)
        let size = fileSize(path)
        print("trace: \(path)\(keep ? " (kept)" : "")")
        print("  \(cycles) napkin lifecycles, \(String(format: "%.1f", Double(size) / 1e6)) MB")

        // Warm the page cache so every contender reads from memory.
        _ = readOnly(path)

        let rounds = 3
        var readTimes: [Double] = []
        var analysisTimes: [Double] = []
        var events = 0
        var liveNodes = 0
        var findings = 0
        for _ in 0..<rounds {
            let (t1, n) = readOnly(path)
            readTimes.append(t1)
            events = n
            let (t2, alive, found) = readAndAnalyze(path)
            analysisTimes.append(t2)
            liveNodes = alive
            findings = found
        }
        let read = median(readTimes), analysis = median(analysisTimes)
        print("  \(events) events; after analysis: \(liveNodes) live nodes in the model, \(findings) findings")
        print(String(format: "  reader only:          %7.3f s  %7.1f MB/s  %6.2f M events/s", read, Double(size) / read / 1e6, Double(events) / read / 1e6))
        print(String(format: "  reader + analysis:    %7.3f s  %7.1f MB/s  %6.2f M events/s", analysis, Double(size) / analysis / 1e6, Double(events) / analysis / 1e6))
        print("  peak memory of this process: \(maxRSS() / 1024) MiB (the generator's buffers included)")
        // `key value` lines for Benchmarks/all.sh (the synthetic trace is its RibHouse-like shape).
        let mb = Double(size) / 1e6
        print("READER_RIBHOUSE_EVENTS \(events)")
        print("READER_RIBHOUSE_BYTES \(size)")
        print(String(format: "READER_RIBHOUSE_READ_MBPS %.1f", mb / read))
        print("READER_RIBHOUSE_READ_EVENTS_PER_S \(Int(Double(events) / read))")
        print(String(format: "READER_RIBHOUSE_ANALYSIS_MBPS %.1f", mb / analysis))
        print("READER_RIBHOUSE_ANALYSIS_EVENTS_PER_S \(Int(Double(events) / analysis))")
        print("READER_RIBHOUSE_PEAK_KIB \(maxRSS())")
        if let jq = jqTime(path) {
            print(String(format: "  jq -c . > /dev/null:  %7.3f s  %7.1f MB/s", jq, Double(size) / jq / 1e6))
            print(String(format: "  ratio: reader + analysis is %.1fx faster than jq -c .", jq / analysis))
            print(String(format: "READER_RIBHOUSE_JQ_RATIO %.1f", jq / analysis))
        } else {
            print("  jq not found: skipped the comparison")
        }
    }

    static func readOnly(_ path: String) -> (Double, Int) {
        let start = now()
        let reader = try! TraceReader(path: path)
        var count = 0
        while let item = reader.next() {
            if case .event = item { count += 1 }
        }
        return (Double(now() - start) / 1e9, count)
    }

    static func readAndAnalyze(_ path: String) -> (Double, Int, Int) {
        let start = now()
        let reader = try! TraceReader(path: path)
        var analyzer = TraceAnalyzer()
        while let item = reader.next() {
            if case .event(let event) = item { analyzer.consume(event) }
        }
        analyzer.finish()
        return (Double(now() - start) / 1e9, analyzer.state.nodeCount, analyzer.findings.count)
    }

    static func jqTime(_ path: String) -> Double? {
        let candidates: [String] = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"]
        guard let jq = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: jq)
        process.arguments = ["-c", ".", path]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let start = now()
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return Double(now() - start) / 1e9
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// CPU time (user + system) of this process so far, in nanoseconds.
func cpuTime() -> UInt64 {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
    return ns(usage.ru_utime) + ns(usage.ru_stime)
}

/// Peak resident memory of this process, in KiB.
func maxRSS() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    #if canImport(Darwin)
    return Int(usage.ru_maxrss) / 1024
    #else
    return Int(usage.ru_maxrss)
    #endif
}
