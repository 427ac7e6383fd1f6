import Foundation
import NapkinTrace
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the value of NAPKIN_TRACE selects where the trace goes.
@Suite("NAPKIN_TRACE destinations")
struct TraceDestinationTests {
    private let sample = [
        TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: "dest", pid: 1, wallClock: 0))),
        TraceEvent(seq: 2, time: 5, kind: .mark(text: "hello")),
    ]
    private let sampleText = #"{"seq":1,"t":0,"ev":"session","v":1,"app":"dest","pid":1,"wall":0}"# + "\n"
        + #"{"seq":2,"t":5,"ev":"mark","text":"hello"}"# + "\n"

    private func message(of value: String) -> String? {
        do {
            _ = try TraceDestination.sink(for: value)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("fd:N writes NDJSON to that open descriptor and leaves it open")
    func fileDescriptor() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let sink = try TraceDestination.sink(for: "fd:\(fds[1])")
        try sink.write(sample)
        sink.close()
        // The descriptor belongs to whoever opened it: still open after close().
        #expect(fcntl(fds[1], F_GETFD) != -1)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == sampleText)
    }

    @Test("a malformed fd:N is refused with the fix in the message",
          arguments: ["fd:", "fd:x", "fd:3x", "fd:-1", "fd: 3", "fd:99999999999"])
    func badFileDescriptor(value: String) {
        let text = message(of: value)
        #expect(text?.contains("fd:N") == true, "\(value): \(text ?? "accepted")")
    }

    @Test("stdout, - and stderr name the standard streams")
    func standardStreams() throws {
        #expect(try TraceDestination.sink(for: "stdout") is NDJSONTraceSink)
        #expect(try TraceDestination.sink(for: "-") is NDJSONTraceSink)
        #expect(try TraceDestination.sink(for: "stderr") is NDJSONTraceSink)
    }

    @Test("NAPKIN_TRACE=stdout puts the whole trace on standard output")
    func stdoutInChild() async throws {
        let run = try await Probe.run(["exit", "3"], environment: ["NAPKIN_TRACE": "stdout"], timeout: .seconds(60))
        #expect(run.exitStatus == 0, "\(run.summary)")
        let trace = WireTrace(run.stdout)
        #expect(trace.badLines.isEmpty && trace.unterminatedTail == nil)
        #expect(trace.kinds.first == "session")
        #expect(trace.kinds.last == "end")
        #expect(trace.marks == ["home shown", "profile closed", "m 1", "m 2", "m 3"])
        #expect(run.napkinLines.isEmpty, "\(run.summary)")
    }

    @Test("NAPKIN_TRACE=stderr puts the whole trace on standard error")
    func stderrInChild() async throws {
        let run = try await Probe.run(["exit", "2"], environment: ["NAPKIN_TRACE": "stderr"], timeout: .seconds(60))
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stdout.isEmpty)
        let trace = WireTrace(run.stderr)
        #expect(trace.badLines.isEmpty, "\(run.summary)")
        #expect(trace.kinds.first == "session")
        #expect(trace.kinds.last == "end")
        #expect(trace.marks == ["home shown", "profile closed", "m 1", "m 2"])
    }

    @Test("a path ending in / is a directory: the trace goes to napkin-<pid>.ndjson inside it")
    func directory() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sink = try TraceDestination.sink(for: directory + "/")
        try sink.write(sample)
        sink.close()
        let expected = directory + "/napkin-\(getpid()).ndjson"
        #expect(try String(contentsOfFile: expected, encoding: .utf8) == sampleText)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["napkin-\(getpid()).ndjson"])
    }

    @Test("two processes sharing a directory setting each write their own file")
    func directoryInChildren() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        async let first = Probe.run(["exit", "1"], environment: ["NAPKIN_TRACE": directory + "/"], timeout: .seconds(60))
        async let second = Probe.run(["exit", "1"], environment: ["NAPKIN_TRACE": directory + "/"], timeout: .seconds(60))
        let runs = try await [first, second]
        for run in runs { #expect(run.exitStatus == 0, "\(run.summary)") }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        try #require(files.count == 2, "\(files)")
        for file in files {
            let trace = try WireTrace(contentsOf: directory + "/" + file)
            // The file is named after the pid its session record carries.
            let pid = try #require(trace.events.first?[number: "pid"])
            #expect(file == "napkin-\(pid).ndjson")
            #expect(trace.kinds.last == "end")
        }
    }

    @Test("a directory that does not exist is refused with the fix in the message")
    func missingDirectory() {
        let text = message(of: "/nonexistent-napkin-dir-\(UUID().uuidString)/")
        #expect(text?.contains("does not exist") == true, "\(text ?? "accepted")")
    }

    @Test("any other value is a file path: created, or replaced if it holds a napkin trace")
    func filePath() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/run.ndjson"
        for _ in 0..<2 { // the second round replaces the first round's trace
            let sink = try TraceDestination.sink(for: path)
            try sink.write(sample)
            sink.close()
            #expect(try String(contentsOfFile: path, encoding: .utf8) == sampleText)
        }
        // An empty file is fair game too.
        let empty = directory + "/empty.ndjson"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let sink = try TraceDestination.sink(for: empty)
        try sink.write(sample)
        sink.close()
        #expect(try String(contentsOfFile: empty, encoding: .utf8) == sampleText)
    }

    @Test("an existing file that is not a napkin trace is refused and left untouched")
    func foreignFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/notes.txt"
        let original = Data("my precious notes\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        let text = message(of: path)
        #expect(text?.contains("not a napkin trace") == true, "\(text ?? "accepted")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test("a path in a directory that does not exist is refused")
    func unopenablePath() {
        let text = message(of: "/nonexistent-napkin-dir-\(UUID().uuidString)/x.ndjson")
        #expect(text?.contains("cannot open") == true, "\(text ?? "accepted")")
    }
}
