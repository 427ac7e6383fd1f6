import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// Several processes writing to one pipe never split each other's records,
/// and a destination that shares the process's standard error cannot keep
/// the process from exiting.
///
/// These tests start TraceProbe children whose standard output, standard
/// error and descriptor 3 are descriptors the test chose, so that several
/// children can share one pipe (`Probe.run` gives every child pipes of its own).
@Suite("Trace: shared pipes")
struct TraceSharedPipeTests {
    /// Marks per child: many batches, each far larger than `PIPE_BUF`.
    private let marks = 4_000
    /// Bytes per mark text: a line does not divide `PIPE_BUF` evenly.
    private let markSize = 300
    /// Marks per child too long for one atomic pipe write.
    private let hugeMarks = 3

    /// The text of TraceProbe's `k`th huge mark with `tag` (the same as its `hugeMarkText`).
    private func hugeMarkText(_ tag: String, _ k: Int) -> String {
        "\(tag) huge \(k) " + String(repeating: "\u{e9}\"\n\u{20ac}\u{1f600}ab", count: 1500)
    }

    private func regularMark(_ tag: String, _ i: Int) -> String {
        let text = "\(tag) \(i) "
        return text + String(repeating: "x", count: max(0, markSize - text.utf8.count))
    }

    @Test("two processes tracing into one pipe: every line is a whole record, every record is there",
          arguments: ["fd:3", "stdout"])
    func twoWritersOnePipe(destination: String) async throws {
        let pipe = try CLibrary.makePipe()
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(devNull >= 0)
        defer { close(devNull) }
        // A slow reader at first: both writers wait for room at the same
        // time, so their writes alternate. (The children flush before they
        // exit: what they write does not depend on how fast this reader is.)
        let reading = readToEnd(pipe.read, slowlyFor: 1 << 20)
        let tags = ["A", "B"]
        var children: [SharedChildren.Child] = []
        for tag in tags {
            children.append(try SharedChildren.spawn(
                ["flood", "\(marks)", "\(markSize)", tag, "\(hugeMarks)"],
                environment: ["NAPKIN_TRACE": destination],
                stdout: destination == "stdout" ? pipe.write : devNull,
                fd3: destination == "fd:3" ? pipe.write : nil))
        }
        close(pipe.write)
        let outcomes = try await SharedChildren.wait(children, timeout: childHangBound)
        let bytes = await reading.value
        for outcome in outcomes {
            #expect(!outcome.timedOut && outcome.exitStatus == 0, "\(outcome.summary)")
            #expect(!outcome.stderr.contains { $0.hasPrefix("napkin:") }, "\(outcome.summary)")
        }

        #expect(bytes.last == 10, "the pipe does not end with a whole line")
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).dropLast()
        var events: [TraceEvent] = []
        var broken: [String] = []
        for line in lines {
            if line.count + 1 > Platform.atomicPipeWriteSize {
                broken.append("a line of \(line.count + 1) bytes")
            }
            if let event = parseEvent(String(decoding: line, as: UTF8.self)) {
                events.append(event)
            } else {
                broken.append(String(decoding: line.prefix(120), as: UTF8.self))
            }
        }
        #expect(broken.isEmpty, "\(broken.count) broken lines, e.g. \(broken.prefix(3))")
        #expect(events.filter { if case .sessionStart = $0.kind { true } else { false } }.count == 2)
        #expect(events.filter { if case .sessionEnd(reason: "exit") = $0.kind { true } else { false } }.count == 2)
        #expect(!events.contains { if case .dropped = $0.kind { true } else { false } })

        for tag in tags {
            let own = events.filter { if case .mark(let text) = $0.kind { text.hasPrefix("\(tag) ") } else { false } }
            let texts = own.map { if case .mark(let text) = $0.kind { text } else { "" } }
            // Every mark of the process, in order, once, whole.
            let regular = texts.filter { !$0.hasPrefix("\(tag) huge ") }
            #expect(difference(regular, (0..<marks).map { regularMark(tag, $0) }) == nil)
            #expect(zip(own, own.dropFirst()).allSatisfy { $0.seq < $1.seq })
            // The huge marks were cut to fit, each a prefix of the original ending in "…".
            let huge = texts.filter { $0.hasPrefix("\(tag) huge ") }
            try #require(huge.count == hugeMarks, "\(tag): \(huge.count) huge marks")
            for (k, text) in huge.enumerated() {
                #expect(text.hasSuffix("\u{2026}") && hugeMarkText(tag, k).hasPrefix(text.dropLast()),
                        "\(tag) huge mark \(k): \(text.prefix(40))…\(text.suffix(10))")
                #expect(text.utf8.count > 2_000, "cut more than needed: \(text.utf8.count) bytes")
            }
        }
    }

    @Test("a descriptor numbered 100 or more in this process still reaches the child as its fd 3")
    func highDescriptor() async throws {
        // A test process running the whole suite can have a hundred descriptors
        // open: the pipe's end then has a high number, where a fixed staging
        // number for the child's dup2s would overwrite it before copying it.
        let pipe = try CLibrary.makePipe()
        let high = fcntl(pipe.write, F_DUPFD_CLOEXEC, 100)
        close(pipe.write)
        try #require(high >= 100)
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(devNull >= 0)
        defer { close(devNull) }
        let reading = readToEnd(pipe.read)
        let child = try SharedChildren.spawn(["flood", "3", "40", "H", "0"], environment: ["NAPKIN_TRACE": "fd:3"],
                                             stdout: devNull, fd3: high)
        close(high)
        let outcomes = try await SharedChildren.wait([child], timeout: hangBound)
        let text = String(decoding: await reading.value, as: UTF8.self)
        #expect(outcomes.first?.exitStatus == 0, "\(outcomes.first?.summary ?? "")")
        #expect(text.contains(#""text":"H 2 "#), "the trace reached the pipe: \(text.prefix(200))")
    }

    @Test("NAPKIN_TRACE=stderr and nobody reads standard error: the app still exits")
    func stalledStandardError() async throws {
        // The read end stays open, and unread until the child is gone.
        let pipe = try CLibrary.makePipe()
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(devNull >= 0)
        defer { close(devNull) }
        let child = try SharedChildren.spawn(["churn", "3000"], environment: ["NAPKIN_TRACE": "stderr"],
                                             stdout: devNull, stderr: pipe.write, fd3: nil)
        close(pipe.write)
        // Given up 2 s after exit starts; the failure notice waits at most 250 ms
        // for room. The time limit only catches a hang (no duration is asserted:
        // under ThreadSanitizer on a loaded machine the churn itself takes a minute).
        let outcome = try #require(try await SharedChildren.wait([child], timeout: .seconds(300)).first)
        #expect(!outcome.timedOut, "the app stalled at exit")
        #expect(outcome.exitStatus == 0, "\(outcome.summary)")
        // What did get into the pipe is whole lines of the trace.
        let bytes = await readToEnd(pipe.read).value
        let trace = WireTrace(bytes)
        #expect(trace.events.first?.ev == "session")
        #expect(trace.badLines.isEmpty)
    }

    @Test("the trace's pipe and standard error both closed: no SIGPIPE, the app exits normally")
    func brokenPipesEverywhere() async throws {
        let out = try CLibrary.makePipe()
        let err = try CLibrary.makePipe()
        // Both readers are gone before the child writes anything.
        close(out.read)
        close(err.read)
        let child = try SharedChildren.spawn(["exit", "3000"], environment: ["NAPKIN_TRACE": "stdout"],
                                             stdout: out.write, stderr: err.write, fd3: nil)
        close(out.write)
        close(err.write)
        let outcome = try #require(try await SharedChildren.wait([child], timeout: .seconds(60)).first)
        #expect(!outcome.timedOut)
        #expect(outcome.signal == nil, "killed by signal \(outcome.signal ?? 0)")
        #expect(outcome.exitStatus == 0)
    }
}

/// TraceProbe children whose descriptors 1, 2 and 3 the test chooses.
enum SharedChildren {
    /// One running child.
    struct Child: Sendable {
        /// The process.
        var process: ChildProcess
        /// Where its standard error goes when the test did not choose (read after it exits).
        var stderrFile: ScratchDirectory?
    }

    /// How a child ended.
    struct Outcome: Sendable {
        var exitStatus: Int32?
        var signal: Int32?
        var timedOut = false
        var stderr: [String] = []

        var summary: String {
            "exit \(exitStatus.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-") timedOut \(timedOut)\n"
                + "stderr:\n" + stderr.prefix(20).joined(separator: "\n")
        }
    }

    /// Starts `TraceProbe arguments...` with `environment` added to the test's
    /// (without its NAPKIN_TRACE), `stdout` as its fd 1, `stderr` (or a
    /// scratch file) as its fd 2, `fd3` (if any) as its fd 3, and nothing
    /// else of the test's open.
    static func spawn(_ arguments: [String], environment: [String: String], stdout: Int32,
                      stderr: Int32? = nil, fd3: Int32?) throws -> Child {
        let path = try Probe.requireExecutable()
        let stderrFile = stderr == nil ? try ScratchDirectory("shared-stderr") : nil
        let err: ChildProcess.Descriptor = stderr.map { .copy(of: $0) } ?? .writing(stderrFile!.file("stderr"))
        let process = try ChildProcess.spawn([path] + arguments, environment: Probe.environment(adding: environment),
                                             descriptors: [.inherited, .copy(of: stdout), err] + (fd3.map { [.copy(of: $0)] } ?? []))
        return Child(process: process, stderrFile: stderrFile)
    }

    /// Waits for every child (killing those still running after `timeout`),
    /// without holding a thread while it waits.
    static func wait(_ children: [Child], timeout: Duration) async throws -> [Outcome] {
        let deadline = ContinuousClock.now + timeout
        var outcomes: [Outcome] = []
        for child in children {
            var outcome = Outcome()
            var status = try await child.process.wait(until: deadline)
            if status == nil {
                status = child.process.kill()
                outcome.timedOut = true
            }
            outcome.exitStatus = status?.code
            outcome.signal = status?.signal
            if let scratch = child.stderrFile {
                let text = (try? String(contentsOfFile: scratch.file("stderr"), encoding: .utf8)) ?? ""
                outcome.stderr = text.split(separator: "\n").map(String.init)
                scratch.remove()
            }
            outcomes.append(outcome)
        }
        return outcomes
    }
}
