// Running a built product of the package (napkin-inspect, rib-house) as a
// child process for the tests: its exit status, standard output and
// standard error, and a kill if it outlives its bound.

import Foundation
import TestSupport

/// What one run of a built product gave.
struct ToolRun: Sendable {
    var status: ChildProcess.Status
    var stdout: String
    var stderr: String

    /// The lines of standard error, without empty ones.
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// Runs the built product `name` with `arguments`, adding `environment` to the
    /// test's own (without its `NAPKIN_*` and `OTEL_*` variables); killed after `bound`.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                    bound: Duration = .seconds(120)) async throws -> ToolRun {
        let path = try BuiltProducts.requireExecutable(name)
        let scratch = try ScratchDirectory("tool-run")
        let out = scratch.file("stdout")
        let err = scratch.file("stderr")
        let inherited = ProcessInfo.processInfo.environment.keys.filter { $0.hasPrefix("NAPKIN_") || $0.hasPrefix("OTEL_") }
        let child = try ChildProcess.spawn([path] + arguments,
                                           environment: ChildProcess.environment(removing: Array(inherited), adding: environment),
                                           descriptors: [.reading("/dev/null"), .writing(out), .writing(err)])
        let status = try await child.wait(until: .now + bound) ?? child.kill()
        return ToolRun(status: status,
                       stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
