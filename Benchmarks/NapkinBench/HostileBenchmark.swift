#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs every `napkin-inspect` command on every ``HostileShapes`` trace and
/// prints time and peak memory of each run, next to the normal shape:
/// `napkin-bench hostile [--events N]` (release build; the `napkin-inspect`
/// binary next to this one is used).
enum HostileBenchmark {
    /// The commands measured, as arguments before the trace path.
    static let commands: [[String]] = [
        ["check"], ["stats"], ["tree"], ["timeline"], ["mermaid"], ["live"], ["report", "-o", "-"], ["export"],
    ]

    /// Returns false when a run ended otherwise than with 0, 1 or 2 (a crash,
    /// a signal) or could not start, so that CI fails on it.
    static func run(events: Int) -> Bool {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let inspect = directory + "/napkin-inspect"
        guard FileManager.default.isExecutableFile(atPath: inspect) else {
            print("napkin-inspect not found next to napkin-bench (\(inspect)): build it first (swift build -c release)")
            return false
        }
        var crashed: [String] = []
        print("Hostile shapes, about \(events) events each; each cell: seconds / peak memory (MiB) of napkin-inspect CMD FILE")
        let header = "shape".padding(toLength: 15, withPad: " ", startingAt: 0) + "  events     MB  "
            + commands.map { $0[0].padding(toLength: 14, withPad: " ", startingAt: 0) }.joined()
        print(header)
        for shape in HostileShapes.all(events: events) {
            let path = NSTemporaryDirectory() + "napkin-hostile-\(getpid())-\(shape.name).ndjson"
            defer { unlink(path) }
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var writer = TraceWriter { bytes in _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } }
            shape.write(&writer)
            writer.finish()
            close(fd)
            let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
            var row = shape.name.padding(toLength: 15, withPad: " ", startingAt: 0)
            row += String(format: "%8d %6.1f  ", writer.count, size)
            for command in commands {
                let (seconds, peak, status) = measure(inspect, command + [path])
                if status > 2 { crashed.append("\(command[0]) on \(shape.name): status \(status)") }
                let cell = status > 2 ? "STATUS \(status)" : String(format: "%.2fs/%.0f", seconds, peak)
                row += cell.padding(toLength: 14, withPad: " ", startingAt: 0)
            }
            print(row)
        }
        print("(every command must finish with 0, 1 or 2; a status above 2 is a crash or a signal)")
        for failure in crashed { print("FAILED: \(failure)") }
        return crashed.isEmpty
    }

    /// Runs `program` with `arguments`, output discarded; returns wall seconds, peak RSS in MiB and the exit status.
    static func measure(_ program: String, _ arguments: [String]) -> (Double, Double, Int32) {
        let run = ProcessRun(program, arguments)
        return (run.seconds, run.peakMiB, run.status)
    }
}
