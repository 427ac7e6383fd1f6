#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `check DIR` on a directory of independent traces, one after the other
/// (`--jobs 1`) and on every core (the default), timed alternately in the same
/// run: `napkin-bench check-dir [--traces N] [--cycles N] [--rounds N]`
/// (release build; the `napkin-inspect` next to this binary is used).
///
/// Prints `KEY value` lines for the benchmark table: `CHECK_DIR_TRACES`,
/// `CHECK_DIR_MB`, `CHECK_DIR_CORES`, `CHECK_DIR_JOBS1_S`, `CHECK_DIR_JOBSN_S`
/// (medians, wall seconds), `CHECK_DIR_SPEEDUP` (the first over the second),
/// `CHECK_DIR_JOBS1_PEAK_MIB`, `CHECK_DIR_JOBSN_PEAK_MIB`, and
/// `CHECK_DIR_SAME_OUTPUT` (1 when both printed the same bytes and exit status).
/// On a machine other work shares, the speed-up is understated.
enum CheckDirBenchmark {
    /// Returns false when `napkin-inspect` is missing, a run crashed, or the two outputs differ.
    static func run(traces: Int, cycles: Int, rounds: Int) -> Bool {
        let inspect = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/napkin-inspect"
        guard FileManager.default.isExecutableFile(atPath: inspect) else {
            print("napkin-inspect not found next to napkin-bench (\(inspect)): build it first (swift build -c release)")
            return false
        }
        let directory = NSTemporaryDirectory() + "napkin-check-dir-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var bytes = 0
        for index in 1...traces {
            let path = directory + String(format: "/trace-%03d.ndjson", index)
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var buffer: [UInt8] = []
            // A few hundred cycles more or less per trace: not all the same size.
            SyntheticTrace.generate(cycles: cycles + (index % 4) * cycles / 20, into: &buffer) { chunk in
                _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            }
            close(fd)
            bytes += ReaderBenchmark.fileSize(path)
        }
        let outputs = (one: directory + ".jobs1.out", all: directory + ".jobsN.out")
        defer { unlink(outputs.one); unlink(outputs.all) }
        // Warm the page cache, so that both contenders read from memory.
        _ = HostileBenchmark.measure(inspect, ["check", "--jobs", "1", directory])

        var sequential: [Double] = [], parallel: [Double] = []
        var peaks = (one: 0.0, all: 0.0)
        var statuses: Set<Int32> = []
        for _ in 0..<rounds {
            let (t1, peak1, status1) = HostileBenchmark.measure(inspect, ["check", "--jobs", "1", directory], stdout: outputs.one)
            let (tN, peakN, statusN) = HostileBenchmark.measure(inspect, ["check", directory], stdout: outputs.all)
            sequential.append(t1)
            parallel.append(tN)
            peaks = (max(peaks.one, peak1), max(peaks.all, peakN))
            statuses.formUnion([status1, statusN])
        }
        let same = statuses.count == 1 && FileManager.default.contentsEqual(atPath: outputs.one, andPath: outputs.all)
        let one = median(sequential), all = median(parallel)
        print("CHECK_DIR_TRACES \(traces)")
        print(String(format: "CHECK_DIR_MB %.1f", Double(bytes) / 1e6))
        print("CHECK_DIR_CORES \(ProcessInfo.processInfo.activeProcessorCount)")
        print("CHECK_DIR_ROUNDS \(rounds)")
        print(String(format: "CHECK_DIR_JOBS1_S %.3f", one))
        print(String(format: "CHECK_DIR_JOBSN_S %.3f", all))
        print(String(format: "CHECK_DIR_SPEEDUP %.2f", one / all))
        print(String(format: "CHECK_DIR_JOBS1_PEAK_MIB %.0f", peaks.one))
        print(String(format: "CHECK_DIR_JOBSN_PEAK_MIB %.0f", peaks.all))
        print("CHECK_DIR_SAME_OUTPUT \(same ? 1 : 0)")
        return same && statuses.allSatisfy { $0 <= 2 }
    }
}
