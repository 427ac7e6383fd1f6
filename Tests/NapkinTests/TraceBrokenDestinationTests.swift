import Foundation
import Testing
import TestSupport

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
                                      pipeOnFD3: true, closeFD3After: 8192, timeout: childHangBound)
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
                                      pipeOnFD3: true, stallFD3After: 8192, timeout: childHangBound)
        // Tracing gives up on the reader at exit (after a couple of seconds), so the app exits.
        expectSurvived(run, saying: ["tracing stopped", "fd 3", "took no data"])
    }

    @Test("the reader of standard output quits mid-run")
    func closedStdout() async throws {
        let run = try await Probe.run(["churn", cycles], environment: ["NAPKIN_TRACE": "stdout"],
                                      closeStdoutAfter: 8192, timeout: childHangBound)
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

    @Test("a descriptor that is not open (fd:9) is refused when tracing starts")
    func closedDescriptor() async throws {
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": "fd:9"], closedFDs: [9])
        expectSurvived(run, saying: ["NAPKIN_TRACE=fd:9", "descriptor 9 is not open", "tracing is off"])
    }

    @Test("fd:0, standard input, is refused")
    func standardInput() async throws {
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": "fd:0"])
        expectSurvived(run, saying: ["NAPKIN_TRACE=fd:0", "standard input", "tracing is off"])
    }

    @Test("a descriptor open for reading only is refused when tracing starts")
    func readOnlyDescriptor() async throws {
        let run = try await Probe.run(["--read-only-fd", "5", "churn", "200"], environment: ["NAPKIN_TRACE": "fd:5"])
        expectSurvived(run, saying: ["NAPKIN_TRACE=fd:5", "descriptor 5 is open for reading only", "tracing is off"])
    }

    @Test("a FIFO without a reader: the app neither blocks nor waits, tracing is off", .enabled(if: isLinux))
    func fifoWithoutReader() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let fifo = directory + "/nobody.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": fifo], timeout: .seconds(60))
        expectSurvived(run, saying: ["NAPKIN_TRACE=\(fifo)", "named pipe (FIFO) with no reader", "tracing is off"])
    }

    @Test("the reader of a FIFO stops reading but keeps it open: the app still exits", .enabled(if: isLinux))
    func stalledFIFOReader() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let fifo = directory + "/stuck.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        // The reader is given up 2 s after exit starts: the app exits. (The time
        // limit only catches a hang; a loaded machine under ThreadSanitizer can
        // take a minute for the churn itself, so no duration is asserted.)
        let run = try await Probe.run(["churn", cycles], environment: ["NAPKIN_TRACE": fifo],
                                      stallFD3After: 8192, readAlong: reader, timeout: .seconds(300))
        expectSurvived(run, saying: ["tracing stopped", fifo, "took no data"])
        let trace = WireTrace(run.fd3)
        #expect(trace.events.first?.ev == "session")
        #expect(trace.badLines.isEmpty)
    }

    @Test("a character device (/dev/null) takes the trace quietly")
    func devNull() async throws {
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": "/dev/null"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stderrLines == ["done"], "\(run.summary)")
    }

    @Test("a socket file is refused", .enabled(if: isLinux))
    func socketFile() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/trace.sock"
        let listener = try bindUnixSocket(at: path)
        defer { close(listener) }
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": path])
        expectSurvived(run, saying: ["\(path) is a socket", "tracing is off"])
    }

    @Test("a trace file the app may write but not read is left untouched")
    func writeOnlyFile() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/old.ndjson"
        // It even starts like a trace: what counts is that napkin could not check it.
        let original = Data(#"{"seq":1,"t":0,"ev":"session","v":1,"app":"old","pid":1,"wall":0}"#.utf8 + [10])
        try original.write(to: URL(fileURLWithPath: path))
        // Root reads anything: run the app as another user, who owns the file.
        let nobody: UInt32 = 65_534
        if getuid() == 0 { try #require(chown(path, nobody, nobody) == 0) }
        try #require(chmod(path, 0o200) == 0)
        let options = getuid() == 0 ? ["--uid", "\(nobody)"] : []
        let run = try await Probe.run(options + ["churn", "200"], environment: ["NAPKIN_TRACE": path])
        _ = chmod(path, 0o600)
        expectSurvived(run, saying: ["could not be read to check that it is a napkin trace", "Permission denied",
                                     "not overwriting it", "tracing is off"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test("a file whose first bytes cannot be read (a read error) is never emptied", .enabled(if: isLinux))
    func readError() async throws {
        // /proc/self/mem opens for writing but fails reading at offset 0 (EIO).
        let run = try await Probe.run(["churn", "200"], environment: ["NAPKIN_TRACE": "/proc/self/mem"])
        expectSurvived(run, saying: ["could not be read to check that it is a napkin trace", "not overwriting it",
                                     "tracing is off"])
    }

    @Test("an existing file that is not a trace is left untouched")
    func foreignFile() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
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
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
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
