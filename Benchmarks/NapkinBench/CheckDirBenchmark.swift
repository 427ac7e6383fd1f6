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
/// `CHECK_DIR_JOBS1_CPU_S`, `CHECK_DIR_JOBSN_CPU_S` (user and system CPU
/// seconds: the work done), `CHECK_DIR_JOBS1_CORES_USED`,
/// `CHECK_DIR_JOBSN_CORES_USED` (CPU seconds over wall seconds: how many
/// cores each kept busy on average), `CHECK_DIR_JOBS1_PEAK_MIB`,
/// `CHECK_DIR_JOBSN_PEAK_MIB`, and
/// `CHECK_DIR_SAME_OUTPUT` (1 when both printed the same bytes and exit status),
/// and `CHECK_DIR_CEILING`: the speed-up the machine offered at the same time
/// to work that needs no coordination at all (a CPU loop on one thread, then
/// on one thread per core), measured between the same rounds. On a machine
/// other work shares, both are understated; the ratio of the two says how
/// much of what was available `check` used.
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
            // A few hundred cycles (about 12 events each) more or less per trace: not all the same size.
            SyntheticTrace.generate(events: (cycles + (index % 4) * cycles / 20) * 12) { chunk in
                _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            }
            close(fd)
            bytes += ReaderBenchmark.fileSize(path)
        }
        let outputs = (one: directory + ".jobs1.out", all: directory + ".jobsN.out")
        defer { unlink(outputs.one); unlink(outputs.all) }
        // Warm the page cache, so that both contenders read from memory.
        _ = ProcessRun(inspect, ["check", "--jobs", "1", directory])

        var sequential: [ProcessRun] = [], parallel: [ProcessRun] = []
        var ceilings: [Double] = []
        for _ in 0..<rounds {
            ceilings.append(ceiling())
            sequential.append(ProcessRun(inspect, ["check", "--jobs", "1", directory], stdout: outputs.one))
            parallel.append(ProcessRun(inspect, ["check", directory], stdout: outputs.all))
        }
        let statuses = Set((sequential + parallel).map(\.status))
        let same = statuses.count == 1 && FileManager.default.contentsEqual(atPath: outputs.one, andPath: outputs.all)
        let one = median(sequential.map(\.seconds)), all = median(parallel.map(\.seconds))
        print("CHECK_DIR_TRACES \(traces)")
        print(String(format: "CHECK_DIR_MB %.1f", Double(bytes) / 1e6))
        print("CHECK_DIR_CORES \(ProcessInfo.processInfo.activeProcessorCount)")
        print("CHECK_DIR_ROUNDS \(rounds)")
        print(String(format: "CHECK_DIR_JOBS1_S %.3f", one))
        print(String(format: "CHECK_DIR_JOBSN_S %.3f", all))
        print(String(format: "CHECK_DIR_SPEEDUP %.2f", one / all))
        print(String(format: "CHECK_DIR_JOBS1_CPU_S %.3f", median(sequential.map(\.cpuSeconds))))
        print(String(format: "CHECK_DIR_JOBSN_CPU_S %.3f", median(parallel.map(\.cpuSeconds))))
        print(String(format: "CHECK_DIR_JOBS1_CORES_USED %.2f", median(sequential.map { $0.cpuSeconds / $0.seconds })))
        print(String(format: "CHECK_DIR_JOBSN_CORES_USED %.2f", median(parallel.map { $0.cpuSeconds / $0.seconds })))
        print(String(format: "CHECK_DIR_JOBS1_PEAK_MIB %.0f", sequential.map(\.peakMiB).max() ?? 0))
        print(String(format: "CHECK_DIR_JOBSN_PEAK_MIB %.0f", parallel.map(\.peakMiB).max() ?? 0))
        print("CHECK_DIR_SAME_OUTPUT \(same ? 1 : 0)")
        print(String(format: "CHECK_DIR_CEILING %.2f", median(ceilings)))
        return same && statuses.allSatisfy { $0 <= 2 }
    }

    /// How much faster one piece of CPU work per core runs on all cores at
    /// once than one after the other, right now: the most any parallel
    /// `check` could gain (at most the number of cores; less while other work
    /// holds them).
    static func ceiling() -> Double {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let iterations = 60_000_000
        let start = now()
        for _ in 0..<cores { spin(iterations) }
        let sequential = now() - start
        let parallelStart = now()
        DispatchQueue.concurrentPerform(iterations: cores) { _ in spin(iterations) }
        let parallel = now() - parallelStart
        return Double(sequential) / Double(max(parallel, 1))
    }

    /// CPU work that cannot be optimised away: a linear congruential walk.
    private static func spin(_ iterations: Int) {
        var x: UInt64 = 1
        for i in 0..<iterations { x = x &* 6_364_136_223_846_793_005 &+ UInt64(truncatingIfNeeded: i) }
        if x == 42 { print("") }
    }
}
