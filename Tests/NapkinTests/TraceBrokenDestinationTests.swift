import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A closed pipe, a full disk, a bad path or a closed descriptor never crashes
/// or stalls the app: it finishes its work, exits 0, and napkin says once on
/// stderr that tracing stopped (or never started).
///
/// Each test runs the TraceProbe executable doing `churn N` (N create, attach,
/// detach, release cycles), with a timeout so a stall fails instead of hanging.
@Suite("Trace: broken destinations")
struct TraceBrokenDestinationTests {
    /// Enough cycles that the trace (megabytes) cannot fit in a pipe's buffer.
    private let cycles = "3000"

    /// The child did all its work, exited 0 and wrote exactly one napkin line.
    private func expectSurvived(_ run: ProbeResult, saying phrases: [String],
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!run.timedOut, "the app stalled\n\(run.summary)", sourceLocation: sourceLocation)
        #expect(run.exitStatus == 0, "\(run.summary)", sourceLocation: sourceLocation)
        #expect(run.stderrLines.contains("done"), "the app did not finish its work\n\(run.summary)",
                sourceLocation: sourceLocation)
        #expect(run.napkinLines.count == 1, "\(run.summary)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(run.napkinLines.first?.contains(phrase) == true, "no '\(phrase)' in\n\(run.summary)",
                    sourceLocation: sourceLocation)
        }
        // Nothing else on stderr: the one line and the probe's own "done".
        #expect(run.stderrLines.count == 2, "\(run.summary)", sourceLocation: sourceLocation)
    }

    @Test("the reader of fd 3 quits mid-run")
    func closedPipeOnFD3() async throws {
        let run = try await Probe.run(["churn", cycles], environment: ["NAPKIN_TRACE": "fd:3"],
                                      pipeOnFD3: true, closeFD3After: 8192, timeout: .seconds(120))
        expectSurvived(run, saying: ["tracing stopped", "fd 3", "Broken pipe"])
        // The trace was flowing before the reader quit.
        #expect(run.fd3.count >= 8192)
        let trace = WireTrace(run.fd3)
        #expect(trace.events.first?.ev == "session")
        #expect(trace.badLines.isEmpty)
    }

    @Test("the reader of fd 3 stops reading but keeps the pipe open: the app still exits")
    func stalledPipeOnFD3() async throws {
        let run = try await Probe.run(["churn", cycles], environment: ["NAPKIN_TRACE": "fd:3"],
                                      pipeOnFD3: true, stallFD3After: 8192, timeout: .seconds(120))
        // Tracing gives up on the reader at exit (after a couple of seconds), so the app exits.
        expectSurvived(run, saying: ["tracing stopped", "fd 3", "took no data"])
    }

    @Test("the reader of standard output quits mid-run")
    func closedStdout() async throws {
        let run = try await Probe.run(["churn", cycles], environment: ["NAPKIN_TRACE": "stdout"],
                                      closeStdoutAfter: 8192, timeout: .seconds(120))
        expectSurvived(run, saying: ["tracing stopped", "fd 1", "Broken pipe"])
        #expect(WireTrace(run.stdout).events.first?.ev == "session")
    }

    @Test("a full disk (/dev/full)", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDisk() async throws {
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": "/dev/full"])
        // The write fails with ENOSPC; the device is not mistaken for a user's file.
        expectSurvived(run, saying: ["tracing stopped", "/dev/full", "No space left on device"])
    }

    @Test("a path in a directory that does not exist")
    func unwritablePath() async throws {
        let path = "/nonexistent-napkin-dir-\(UUID().uuidString)/x.ndjson"
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": path])
        expectSurvived(run, saying: ["NAPKIN_TRACE=\(path)", "cannot open", "tracing is off"])
    }

    @Test("a descriptor that is not open (fd:9)")
    func closedDescriptor() async throws {
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": "fd:9"], closedFDs: [9])
        expectSurvived(run, saying: ["tracing stopped", "fd 9", "Bad file descriptor"])
    }

    @Test("an existing file that is not a trace is left untouched")
    func foreignFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/Package.swift"
        let original = Data("// swift-tools-version: 6.2\nimport PackageDescription\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": path])
        expectSurvived(run, saying: ["not a napkin trace", "tracing is off"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    // Relies on Linux's poll(2) on a FIFO: no hang-up before the first writer.
    @Test("a named pipe (FIFO) is written to, not read from first", .enabled(if: isLinux))
    func namedPipe() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/live.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        // The test is the reader, like `napkin-inspect live` on a FIFO.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        let run = try await Probe.run(["churn", "50"], environment: ["NAPKIN_TRACE": fifo],
                                      readAlong: reader, timeout: .seconds(60))
        #expect(!run.timedOut, "the app stalled opening the FIFO\n\(run.summary)")
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.napkinLines.isEmpty, "\(run.summary)")
        let trace = WireTrace(run.fd3)
        #expect(trace.kinds.first == "session")
        #expect(trace.kinds.last == "end")
        #expect(trace.sequenceProblem() == nil)
    }
}
