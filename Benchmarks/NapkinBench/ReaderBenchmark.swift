#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NapkinTrace
import NapkinTraceReader

/// Reader and analysis throughput on large generated traces of realistic
/// shapes, against `jq -c .` on the same files:
/// `napkin-bench reader [--shape ribhouse|list|all] [--events N] [--rounds N] [--keep] [--no-jq]`.
///
/// Each shape's trace is written to a temporary file first; then a child
/// process (`napkin-bench reader-measure FILE`) reads it, from the page
/// cache, alternately with the reader alone and with the reader and the
/// analysis, and reports the medians and its own peak memory, so that no
/// shape's numbers include the generator's buffers or another shape's.
/// Throughput is given per second of the process's CPU time (the targets
/// are for one core, and on a shared machine wall time also counts the
/// time other processes held the core), and per second of wall time.
/// Besides the table, each figure is printed on a line of its own,
/// `READER_<SHAPE>_<FIGURE> value`, for scripts.
enum ReaderBenchmark {
    /// The shapes of trace measured.
    enum Shape: String, CaseIterable {
        /// A RibHouse-like session, again and again (``SyntheticTrace``).
        case ribhouse
        /// A list-shaped app (``ListShapedTrace``).
        case list

        func generate(events: Int, flush: @escaping ([UInt8]) -> Void) {
            switch self {
            case .ribhouse: SyntheticTrace.generate(events: events, flush: flush)
            case .list: ListShapedTrace.generate(events: events, flush: flush)
            }
        }
    }

    /// What one child process measured on one file.
    struct Measurement {
        var events = 0
        var bytes = 0
        /// Median CPU seconds of the reader alone, and of the reader with the analysis.
        var read = 0.0, analysis = 0.0
        /// The same in wall-clock seconds.
        var readWall = 0.0, analysisWall = 0.0
        /// Median wall-clock and CPU seconds of the reader with the analysis
        /// as `napkin-inspect check` reads a large file: read ahead on a
        /// second thread (``TraceReader/readAhead(event:diagnostic:)``).
        var aheadWall = 0.0, ahead = 0.0
        var liveNodes = 0, findings = 0
        /// Peak memory of the process before reading, and at the end (KiB).
        var startKiB = 0, peakKiB = 0
    }

    static func run(shapes: [Shape], events: Int, rounds: Int, keep: Bool, jq: Bool) {
        print("Reader and analysis, one core, release build; \(rounds) rounds each, medians of CPU time (and of wall time); the file is in the page cache")
        for shape in shapes {
            let path = NSTemporaryDirectory() + "napkin-bench-\(getpid())-\(shape.rawValue).ndjson"
            defer { if !keep { unlink(path) } }
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            shape.generate(events: events) { bytes in
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            }
            close(fd)
            print("trace: \(path)\(keep ? " (kept)" : "")")
            let m = measureInChild(path, rounds: rounds) ?? {
                print("  (could not start a child process: measured in this one, the generator's memory included)")
                return measure(path, rounds: rounds)
            }()
            report(shape, m, jq: jq ? jqTime(path) : nil, jqWanted: jq)
        }
    }

    private static func report(_ shape: Shape, _ m: Measurement, jq: Double?, jqWanted: Bool) {
        let mb = Double(m.bytes) / 1e6
        let name = shape.rawValue.uppercased()
        print(String(format: "%@: %d events, %.1f MB; after analysis: %d live nodes, %d findings",
                     shape.rawValue, m.events, mb, m.liveNodes, m.findings))
        print(String(format: "  reader only:          %7.3f s  %7.1f MB/s  %6.2f M events/s  (wall %.3f s, %.1f MB/s)",
                     m.read, mb / m.read, Double(m.events) / m.read / 1e6, m.readWall, mb / m.readWall))
        print(String(format: "  reader + analysis:    %7.3f s  %7.1f MB/s  %6.2f M events/s  (wall %.3f s, %.1f MB/s)",
                     m.analysis, mb / m.analysis, Double(m.events) / m.analysis / 1e6, m.analysisWall, mb / m.analysisWall))
        print(String(format: "  read ahead + analysis: %6.3f s  %7.1f MB/s  %6.2f M events/s  (wall, 2 threads; CPU %.3f s) as check reads a large file",
                     m.aheadWall, mb / m.aheadWall, Double(m.events) / m.aheadWall / 1e6, m.ahead))
        print(String(format: "  peak memory:          %7.1f MiB (%.1f MiB before reading: +%.1f MiB)",
                     Double(m.peakKiB) / 1024, Double(m.startKiB) / 1024, Double(m.peakKiB - m.startKiB) / 1024))
        if let jq {
            print(String(format: "  jq -c . > /dev/null:  %7.3f s  %7.1f MB/s; reader + analysis is %.1fx faster", jq, mb / jq, jq / m.analysis))
        } else if jqWanted {
            print("  jq not found: skipped the comparison")
        }
        var lines: [(String, String)] = [
            ("EVENTS", "\(m.events)"),
            ("BYTES", "\(m.bytes)"),
            ("READ_MBPS", String(format: "%.1f", mb / m.read)),
            ("READ_EVENTS_PER_S", "\(Int(Double(m.events) / m.read))"),
            ("ANALYSIS_MBPS", String(format: "%.1f", mb / m.analysis)),
            ("ANALYSIS_EVENTS_PER_S", "\(Int(Double(m.events) / m.analysis))"),
            ("READ_WALL_MBPS", String(format: "%.1f", mb / m.readWall)),
            ("ANALYSIS_WALL_MBPS", String(format: "%.1f", mb / m.analysisWall)),
            ("AHEAD_WALL_MBPS", String(format: "%.1f", mb / m.aheadWall)),
            ("AHEAD_EVENTS_PER_S", "\(Int(Double(m.events) / m.aheadWall))"),
            ("AHEAD_CPU_S", String(format: "%.3f", m.ahead)),
            ("PEAK_KIB", "\(m.peakKiB)"),
            ("START_KIB", "\(m.startKiB)"),
        ]
        if let jq {
            lines.append(("JQ_S", String(format: "%.3f", jq)))
            lines.append(("JQ_RATIO", String(format: "%.1f", jq / m.analysis)))
        }
        for (key, value) in lines { print("READER_\(name)_\(key) \(value)") }
    }

    // MARK: - The child process

    /// Runs `napkin-bench reader-measure PATH --rounds N` and reads its figures.
    private static func measureInChild(_ path: String, rounds: Int) -> Measurement? {
        guard let executable = Bundle.main.executablePath else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["reader-measure", path, "--rounds", "\(rounds)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var values: [String: String] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let events = values["EVENTS"].flatMap(Int.init), let bytes = values["BYTES"].flatMap(Int.init),
              let read = values["READ_S"].flatMap(Double.init), let analysis = values["ANALYSIS_S"].flatMap(Double.init),
              let readWall = values["READ_WALL_S"].flatMap(Double.init), let analysisWall = values["ANALYSIS_WALL_S"].flatMap(Double.init),
              let ahead = values["AHEAD_S"].flatMap(Double.init), let aheadWall = values["AHEAD_WALL_S"].flatMap(Double.init),
              let live = values["LIVE_NODES"].flatMap(Int.init), let findings = values["FINDINGS"].flatMap(Int.init),
              let start = values["START_KIB"].flatMap(Int.init), let peak = values["PEAK_KIB"].flatMap(Int.init) else { return nil }
        return Measurement(events: events, bytes: bytes, read: read, analysis: analysis, readWall: readWall,
                           analysisWall: analysisWall, aheadWall: aheadWall, ahead: ahead, liveNodes: live, findings: findings,
                           startKiB: start, peakKiB: peak)
    }

    /// The child's side: measures `path` and prints `KEY value` lines.
    static func measureAndPrint(_ path: String, rounds: Int) {
        let m = measure(path, rounds: rounds)
        print("EVENTS \(m.events)")
        print("BYTES \(m.bytes)")
        print("READ_S \(m.read)")
        print("ANALYSIS_S \(m.analysis)")
        print("READ_WALL_S \(m.readWall)")
        print("ANALYSIS_WALL_S \(m.analysisWall)")
        print("AHEAD_S \(m.ahead)")
        print("AHEAD_WALL_S \(m.aheadWall)")
        print("LIVE_NODES \(m.liveNodes)")
        print("FINDINGS \(m.findings)")
        print("START_KIB \(m.startKiB)")
        print("PEAK_KIB \(m.peakKiB)")
    }

    /// Reads `path` `rounds` times with the reader alone and as many with
    /// the analysis, alternately (after one read to warm the page cache).
    static func measure(_ path: String, rounds: Int) -> Measurement {
        var m = Measurement()
        m.startKiB = peakOfThisImage()
        m.bytes = fileSize(path)
        _ = readOnly(path)
        var reads: [Double] = [], analyses: [Double] = [], readWalls: [Double] = [], analysisWalls: [Double] = []
        var aheads: [Double] = [], aheadWalls: [Double] = []
        for _ in 0..<max(1, rounds) {
            var cpu = processCPUTime()
            let (t1, n) = readOnly(path)
            reads.append(Double(processCPUTime() - cpu) / 1e9)
            readWalls.append(t1)
            m.events = n
            cpu = processCPUTime()
            let (t2, alive, found, _) = readAndAnalyze(path)
            analyses.append(Double(processCPUTime() - cpu) / 1e9)
            analysisWalls.append(t2)
            cpu = processCPUTime()
            let (t3, _, _, _) = readAndAnalyze(path, readingAhead: true)
            aheads.append(Double(processCPUTime() - cpu) / 1e9)
            aheadWalls.append(t3)
            m.liveNodes = alive
            m.findings = found
        }
        m.read = median(reads)
        m.analysis = median(analyses)
        m.readWall = median(readWalls)
        m.analysisWall = median(analysisWalls)
        m.ahead = median(aheads)
        m.aheadWall = median(aheadWalls)
        m.peakKiB = peakOfThisImage()
        return m
    }

    /// Peak resident memory (KiB) since this program started. On Linux,
    /// `getrusage`'s figure carries over from the parent across `exec` (a
    /// child would report the generator's buffers), so it is read from
    /// `/proc/self/status` (`VmHWM`), which starts over with the program.
    static func peakOfThisImage() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            return kib
        }
        #endif
        return maxRSS()
    }

    static func readOnly(_ path: String) -> (Double, Int) {
        let start = now()
        let reader = try! TraceReader(path: path)
        var count = 0
        // As `napkin-inspect` reads (TraceInput.read).
        reader.read(event: { _ in
            count += 1
            return true
        }, diagnostic: { _ in })
        return (Double(now() - start) / 1e9, count)
    }

    static func readAndAnalyze(_ path: String, readingAhead: Bool = false) -> (Double, Int, Int, Int) {
        let start = now()
        let reader = try! TraceReader(path: path)
        var analyzer = TraceAnalyzer()
        var count = 0
        // As `napkin-inspect check` reads (TraceInput.read, CheckedTrace):
        // a large file on a machine with more than one core, read ahead.
        if readingAhead {
            reader.readAhead(event: { event in
                count += 1
                analyzer.consume(event)
                return true
            }, diagnostic: { _ in })
        } else {
            reader.read(event: { event in
                count += 1
                analyzer.consume(event)
                return true
            }, diagnostic: { _ in })
        }
        analyzer.finish()
        return (Double(now() - start) / 1e9, analyzer.state.nodeCount, analyzer.findings.count, count)
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

/// CPU time of this process so far, in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`).
func processCPUTime() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
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
