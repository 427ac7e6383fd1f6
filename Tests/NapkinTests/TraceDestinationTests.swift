import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

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

    @Test("a sink that owns its descriptor closes it once: a second close() or a write leaves the file that took the number alone")
    func closesOnce() throws {
        // The number a closed descriptor had goes to the next file opened; in
        // this shared process another test may take it first, so try again
        // until /dev/null gets it.
        var checked = false
        for _ in 0..<100 where !checked {
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            defer { close(fds[0]) }
            let sink = NDJSONTraceSink(fileDescriptor: fds[1], closeWhenDone: true)
            sink.close()
            let other = open("/dev/null", O_WRONLY | O_CLOEXEC)
            try #require(other >= 0)
            defer { close(other) }
            guard other == fds[1] else { continue }
            sink.close()
            #expect(fcntl(other, F_GETFD) != -1, "the second close() closed the file that took number \(other)")
            #expect(throws: TraceSinkError.self) { try sink.write(sample) }
            #expect(fcntl(other, F_GETFD) != -1)
            checked = true
        }
        #expect(checked, "no file took the closed descriptor's number in 100 tries")
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
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let sink = try TraceDestination.sink(for: directory + "/")
        try sink.write(sample)
        sink.close()
        let expected = directory + "/napkin-\(getpid()).ndjson"
        #expect(try String(contentsOfFile: expected, encoding: .utf8) == sampleText)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["napkin-\(getpid()).ndjson"])
    }

    @Test("two processes sharing a directory setting each write their own file")
    func directoryInChildren() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
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
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
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
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
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

    // MARK: - Descriptors are checked when tracing starts

    @Test("fd:0 is refused: it is standard input")
    func standardInput() {
        let text = message(of: "fd:0")
        #expect(text?.contains("standard input") == true, "\(text ?? "accepted")")
    }

    @Test("a descriptor that is not open is refused at once, not written to later")
    func descriptorNotOpen() {
        // A number no process has open.
        let text = message(of: "fd:999999")
        #expect(text?.contains("descriptor 999999 is not open") == true, "\(text ?? "accepted")")
    }

    @Test("a descriptor open for reading only is refused with the fix in the message")
    func readOnlyDescriptor() throws {
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let text = message(of: "fd:\(fd)")
        #expect(text?.contains("descriptor \(fd) is open for reading only") == true, "\(text ?? "accepted")")
        // The read end of a pipe is refused the same way.
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(message(of: "fd:\(fds[0])")?.contains("reading only") == true)
        #expect(message(of: "fd:\(fds[1])") == nil)
    }

    // MARK: - What a path names

    @Test("a directory named without the trailing / is refused, and the message says to add it")
    func directoryWithoutSlash() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let text = message(of: directory)
        #expect(text?.contains("is a directory; end the value with /") == true, "\(text ?? "accepted")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("a FIFO without a reader is refused at once: opening never waits for a reader", .enabled(if: isLinux))
    func fifoWithoutReader() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let fifo = directory + "/nobody.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        // Should the open block, the test would hang: try it on a thread of
        // its own and stop waiting after a while instead.
        let outcome = Locked<String??>(nil)
        Thread {
            let text: String?
            do {
                _ = try TraceDestination.sink(for: fifo)
                text = nil
            } catch {
                text = "\(error)"
            }
            outcome.withLock { $0 = .some(text) }
        }.start()
        let returned = await waitUntil(timeout: .seconds(20)) { outcome.withLock { $0 != nil } }
        try #require(returned, "opening a FIFO without a reader blocked")
        let text = outcome.withLock { $0 ?? nil }
        #expect(text?.contains("\(fifo) is a named pipe (FIFO) with no reader") == true, "\(text ?? "accepted")")
        #expect(text?.contains("start its reader first") == true)
    }

    @Test("a FIFO with a reader gets whole lines, and the reader sees them", .enabled(if: isLinux))
    func fifoWithReader() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let fifo = directory + "/live.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        let sink = try TraceDestination.sink(for: fifo)
        try sink.write(sample)
        sink.close()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == sampleText)
    }

    @Test("a block device is refused without being opened", .enabled(if: FileManager.default.fileExists(atPath: "/dev/loop0")))
    func blockDevice() {
        let text = message(of: "/dev/loop0")
        #expect(text?.contains("/dev/loop0 is a block device") == true, "\(text ?? "accepted")")
    }

    @Test("a socket file is refused", .enabled(if: isLinux))
    func socketFile() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/trace.sock"
        let listener = try bindUnixSocket(at: path)
        defer { close(listener) }
        let text = message(of: path)
        #expect(text?.contains("\(path) is a socket") == true, "\(text ?? "accepted")")
    }

    @Test("/dev/null takes the trace, and is not mistaken for a user's file")
    func devNull() throws {
        let sink = try TraceDestination.sink(for: "/dev/null")
        try sink.write(sample)
        sink.close()
    }

    // MARK: - Nothing a user wrote is lost

    @Test("a file whose first bytes cannot be read is never emptied (read error)", .enabled(if: isLinux))
    func unreadableFile() {
        // /proc/self/mem is a regular file that can be opened for writing and
        // whose read at offset 0 fails (EIO): the check cannot see its content.
        let text = message(of: "/proc/self/mem")
        #expect(text?.contains("could not be read to check that it is a napkin trace") == true, "\(text ?? "accepted")")
        #expect(text?.contains("not overwriting it") == true)
    }

    @Test("a symbolic link is followed: a trace behind it is replaced, the link stays a link")
    func symlinkToTrace() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let target = directory + "/runs-1.ndjson"
        let link = directory + "/latest.ndjson"
        try Data(#"{"seq":1,"t":0,"ev":"session","v":1,"app":"old","pid":1,"wall":0}"#.utf8 + [10])
            .write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "runs-1.ndjson")
        let sink = try TraceDestination.sink(for: link)
        try sink.write(sample)
        sink.close()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == sampleText)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "runs-1.ndjson")
    }

    @Test("a symbolic link to a file that is not a trace is refused; the file is left untouched")
    func symlinkToForeignFile() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let target = directory + "/notes.txt"
        let link = directory + "/trace.ndjson"
        let original = Data("my precious notes\n".utf8)
        try original.write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let text = message(of: link)
        #expect(text?.contains("not a napkin trace") == true, "\(text ?? "accepted")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == original)
    }

    @Test("a dangling symbolic link: the file it points to is created")
    func danglingSymlink() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let link = directory + "/trace.ndjson"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "new.ndjson")
        let sink = try TraceDestination.sink(for: link)
        try sink.write(sample)
        sink.close()
        #expect(try String(contentsOfFile: directory + "/new.ndjson", encoding: .utf8) == sampleText)
    }

    @Test("DIR/: a trace left by an earlier process with the same pid is replaced, anything else is refused")
    func directoryFileFromEarlierProcess() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let file = directory + "/napkin-\(getpid()).ndjson"
        let longer = sampleText + String(repeating: #"{"seq":3,"t":9,"ev":"mark","text":"old"}"# + "\n", count: 10)
        try Data(longer.utf8).write(to: URL(fileURLWithPath: file))
        let sink = try TraceDestination.sink(for: directory + "/")
        try sink.write(sample)
        sink.close()
        // Replaced, not overwritten in place: nothing of the longer old trace remains.
        #expect(try String(contentsOfFile: file, encoding: .utf8) == sampleText)

        let original = Data("not mine to overwrite\n".utf8)
        try original.write(to: URL(fileURLWithPath: file))
        let text = message(of: directory + "/")
        #expect(text?.contains("not a napkin trace") == true, "\(text ?? "accepted")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
    }

    // MARK: - No record is longer than one atomic pipe write

    /// The lines a sink wrote to a pipe, given `events` (read as they come).
    private func linesThroughPipe(_ events: [TraceEvent]) async throws -> [[UInt8]] {
        let pipe = try CLibrary.makePipe()
        let reading = readToEnd(pipe.read)
        do {
            let sink = try TraceDestination.sink(for: "fd:\(pipe.write)")
            try sink.write(events)
        } catch {
            close(pipe.write)
            throw error
        }
        close(pipe.write)
        let bytes = await reading.value
        #expect(bytes.last == 10)
        return bytes.split(separator: 10).map(Array.init)
    }

    private func parse(_ line: [UInt8]) -> TraceEvent? {
        parseEvent(String(decoding: line, as: UTF8.self))
    }

    @Test("to a pipe, a record longer than PIPE_BUF is shortened into a valid record that fits", .enabled(if: isLinux))
    func oversizedRecordToPipe() async throws {
        let text = "start " + String(repeating: "\u{e9}\"\n\u{20ac}\u{1f600}\u{1}ab", count: 1000)
        let longType = String(repeating: "VeryLongGenericTypeName<", count: 400)
        let events = [
            TraceEvent(seq: 1, time: 0, kind: .mark(text: text)),
            TraceEvent(seq: 2, time: 1, kind: .routerCreated(id: 7, type: longType, interactor: 6, interactorType: "Short")),
            TraceEvent(seq: 3, time: 2, kind: .routerCreated(id: 8, type: longType, interactor: 6, interactorType: longType)),
            TraceEvent(seq: 4, time: 3, kind: .taskStart(task: 9, owner: 6, label: text)),
            TraceEvent(seq: 5, time: 4, kind: .mark(text: "small")),
        ]
        let lines = try await linesThroughPipe(events)
        try #require(lines.count == events.count)
        let parsed = lines.map(parse)
        for (line, event) in zip(lines, parsed) {
            #expect(line.count + 1 <= 4096, "a line of \(line.count + 1) bytes")
            #expect(event != nil, "\(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        // Numbers survive; strings are a prefix of the original followed by "…".
        guard case .mark(let cut)? = parsed[0]?.kind else { Issue.record("not a mark"); return }
        #expect(cut.hasSuffix("\u{2026}") && text.hasPrefix(cut.dropLast()))
        #expect(cut.utf8.count > 1500, "cut more than needed: \(cut.utf8.count) bytes")
        guard case .routerCreated(let id, let type, let interactor, let itype)? = parsed[1]?.kind else {
            Issue.record("not a router"); return
        }
        #expect(id == 7 && interactor == 6 && itype == "Short")
        #expect(type.hasSuffix("\u{2026}") && longType.hasPrefix(type.dropLast()))
        guard case .routerCreated(_, let type2, _, let itype2)? = parsed[2]?.kind else { Issue.record("not a router"); return }
        // Two long strings share the room equally.
        #expect(type2.hasSuffix("\u{2026}") && itype2.hasSuffix("\u{2026}"))
        #expect(abs(type2.utf8.count - itype2.utf8.count) <= 1, "\(type2.utf8.count) vs \(itype2.utf8.count) bytes")
        guard case .taskStart(9, 6, let label?)? = parsed[3]?.kind else { Issue.record("not a task_start"); return }
        #expect(label.hasSuffix("\u{2026}") && text.hasPrefix(label.dropLast()))
        #expect(parsed[4]?.kind == .mark(text: "small"))
        #expect(parsed.map { $0?.seq } == [1, 2, 3, 4, 5])
    }

    @Test("to a regular file, a long record is written whole")
    func oversizedRecordToFile() throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/long.ndjson"
        let text = String(repeating: "long mark \u{1f600} ", count: 2000)
        let sink = try TraceDestination.sink(for: path)
        try sink.write([TraceEvent(seq: 1, time: 0, kind: .mark(text: text))])
        sink.close()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 20_000)
        #expect(parse(Array(bytes.dropLast()))?.kind == .mark(text: text))
    }
}

/// A Unix-domain socket bound at `path` (a socket file), for tests.
func bindUnixSocket(at path: String) throws -> Int32 {
    #if os(Linux)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { close(fd); throw TestFailure("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else { close(fd); throw TestFailure("bind \(path) failed: errno \(errno)") }
    return fd
}
