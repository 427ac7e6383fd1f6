// Helpers for the Trace*Tests suites: running the TraceProbe child process,
// parsing NDJSON independently of the library's own reader, and a tiny tree
// of napkins whose type names the tests can predict.

import Foundation
import TestSupport
import Napkin
import NapkinTrace
import Synchronization

// MARK: - The TraceProbe child process

/// How one run of the TraceProbe executable ended, and what it wrote.
struct ProbeResult: Sendable {
    /// The exit status, if the child exited.
    var exitStatus: Int32?
    /// The signal that killed the child, if it was killed.
    var signal: Int32?
    /// The child did not finish in time and was killed by the test.
    var timedOut = false
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    /// What the test read from the child's fd 3, if it gave it a pipe there.
    var fd3: [UInt8] = []

    var stderrLines: [String] {
        String(decoding: stderr, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Lines on stderr from napkin's tracing (they all start with "napkin:").
    var napkinLines: [String] { stderrLines.filter { $0.hasPrefix("napkin:") } }

    var summary: String {
        "exit \(exitStatus.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-") timedOut \(timedOut)\n"
            + "stderr:\n" + String(decoding: stderr.prefix(4000), as: UTF8.self)
    }
}

/// Runs the TraceProbe executable that SwiftPM builds next to the test bundle.
enum Probe {
    /// The path of the TraceProbe executable, or `nil` if it cannot be found.
    static let executable: String? = BuiltProducts.executable("TraceProbe")

    /// Runs `TraceProbe arguments...` with `environment` added to a copy of the
    /// test's environment (without any NAPKIN_TRACE of its own).
    ///
    /// - Parameters:
    ///   - pipeOnFD3: give the child a pipe as fd 3 and read it.
    ///   - closeFD3After: close the read end of that pipe after this many bytes (the reader quits).
    ///   - closeStdoutAfter: the same for the child's standard output.
    ///   - readAlong: a descriptor the test opened (the read end of a FIFO), read
    ///     like fd 3 while the child runs and then closed; the result's `fd3`
    ///     holds what it gave.
    ///   - closedFDs: descriptors guaranteed closed in the child.
    ///   - timeout: the child is killed after this long; the result says so.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    pipeOnFD3: Bool = false, closeFD3After: Int? = nil, stallFD3After: Int? = nil,
                    closeStdoutAfter: Int? = nil,
                    readAlong: Int32? = nil, closedFDs: [Int32] = [], timeout: Duration = childHangBound) async throws -> ProbeResult {
        let path = try requireExecutable()
        let request = SpawnRequest(arguments: [path] + arguments, environment: Self.environment(adding: environment),
                                   pipeOnFD3: pipeOnFD3, closeFD3After: closeFD3After, stallFD3After: stallFD3After,
                                   closeStdoutAfter: closeStdoutAfter, readAlong: readAlong, closedFDs: closedFDs,
                                   timeout: timeout)
        // A dedicated thread waits for the child, so the test does not block a
        // thread of the cooperative pool for seconds.
        return try await onOwnThread("probe-run") { Result(catching: { try request.run() }) }.get()
    }

    /// The path of the TraceProbe executable; throws if it cannot be found.
    static func requireExecutable() throws -> String {
        try BuiltProducts.requireExecutable("TraceProbe")
    }

    /// The test's environment without its NAPKIN_TRACE, with `environment`
    /// added, for a TraceProbe child (which does not symbolicate a crash).
    static func environment(adding environment: [String: String]) -> [String] {
        // A crash should not spend seconds symbolicating.
        ChildProcess.environment(removing: ["NAPKIN_TRACE"], adding: ["SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 })
    }
}

/// One run of TraceProbe: what it is started with, and how its output is read.
private struct SpawnRequest: Sendable {
    /// The path of TraceProbe, then its arguments.
    var arguments: [String]
    var environment: [String]
    var pipeOnFD3: Bool
    var closeFD3After: Int?
    /// Stop reading fd 3 after this many bytes but keep it open (a reader that hangs).
    var stallFD3After: Int?
    var closeStdoutAfter: Int?
    var readAlong: Int32?
    var closedFDs: [Int32]
    var timeout: Duration

    func run() throws -> ProbeResult {
        let out = try CLibrary.makePipe()
        let err = try CLibrary.makePipe()
        let extra = pipeOnFD3 ? try CLibrary.makePipe() : nil

        // Nothing else the test process has open (without close-on-exec) leaks
        // into the child: its descriptors are 0, 1, 2 (and 3), then its own.
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(arguments, environment: environment,
                                           descriptors: [.inherited, .copy(of: out.write), .copy(of: err.write)]
                                               + (extra.map { [.copy(of: $0.write)] } ?? []),
                                           closing: closedFDs)
        } catch {
            for fd in [out.read, out.write, err.read, err.write] + (extra.map { [$0.read, $0.write] } ?? []) { close(fd) }
            throw error
        }
        close(out.write)
        close(err.write)
        if let extra { close(extra.write) }

        var result = ProbeResult()
        var open: [(fd: Int32, stream: Int)] = [(out.read, 1), (err.read, 2)]
        if let extra { open.append((extra.read, 3)) }
        if let readAlong { open.append((readAlong, 3)) }
        let deadline = ContinuousClock.now + timeout
        var status: ChildProcess.Status?
        var buffer = [UInt8](repeating: 0, count: 65_536)

        func closeStream(_ stream: Int) {
            if let index = open.firstIndex(where: { $0.stream == stream }) {
                close(open[index].fd)
                open.remove(at: index)
            }
        }
        var stalled: [Int32] = []
        defer { for fd in stalled { close(fd) } }
        func stallStream(_ stream: Int) {
            if let index = open.firstIndex(where: { $0.stream == stream }) {
                stalled.append(open[index].fd)
                open.remove(at: index)
            }
        }

        while !open.isEmpty || status == nil {
            if status == nil { status = child.exitStatus() }
            if ContinuousClock.now > deadline {
                if status == nil { status = child.kill() }
                result.timedOut = true
                for entry in open { close(entry.fd) }
                open.removeAll()
                break
            }
            if open.isEmpty {
                usleep(10_000)
                continue
            }
            var polls = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), 50)
            if ready <= 0 { continue }
            for p in polls where p.revents != 0 {
                guard let stream = open.first(where: { $0.fd == p.fd })?.stream else { continue }
                let n = buffer.withUnsafeMutableBytes { read(p.fd, $0.baseAddress!, $0.count) }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 {
                    closeStream(stream)
                    continue
                }
                switch stream {
                case 1:
                    result.stdout.append(contentsOf: buffer[0..<n])
                    if let limit = closeStdoutAfter, result.stdout.count >= limit { closeStream(1) }
                case 2:
                    result.stderr.append(contentsOf: buffer[0..<n])
                default:
                    result.fd3.append(contentsOf: buffer[0..<n])
                    if let limit = closeFD3After, result.fd3.count >= limit { closeStream(3) }
                    if let limit = stallFD3After, result.fd3.count >= limit { stallStream(3) }
                }
            }
        }
        result.exitStatus = status?.code
        result.signal = status?.signal
        return result
    }
}

// MARK: - Reading NDJSON (with Foundation, independently of NapkinTrace's reader)

/// One parsed trace line.
struct WireEvent: Sendable, CustomStringConvertible {
    var seq: UInt64
    var time: UInt64
    var ev: String
    var numbers: [String: Int64]
    var strings: [String: String]

    subscript(number key: String) -> Int64? { numbers[key] }
    subscript(string key: String) -> String? { strings[key] }
    /// A numeric field read as an id.
    func id(_ key: String) -> UInt64 { UInt64(numbers[key] ?? -1) }

    var description: String {
        let fields = numbers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + strings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "#\(seq) \(ev) " + fields.joined(separator: " ")
    }

    /// Parses one NDJSON line; `nil` if it is not a JSON object with seq, t and ev.
    init?(line: some StringProtocol) {
        guard let data = String(line).data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let seq = (object["seq"] as? NSNumber)?.uint64Value,
              let time = (object["t"] as? NSNumber)?.uint64Value,
              let ev = object["ev"] as? String else { return nil }
        self.seq = seq
        self.time = time
        self.ev = ev
        var numbers: [String: Int64] = [:]
        var strings: [String: String] = [:]
        for (key, value) in object where !["seq", "t", "ev"].contains(key) {
            if let string = value as? String {
                strings[key] = string
            } else if let number = value as? NSNumber {
                numbers[key] = number.int64Value
            }
        }
        self.numbers = numbers
        self.strings = strings
    }
}

/// A whole NDJSON trace, split into lines and parsed.
struct WireTrace: Sendable {
    var events: [WireEvent] = []
    /// 1-based numbers of lines (other than a last line without newline) that did not parse.
    var badLines: [Int] = []
    /// The text after the last newline, if any (a line cut short by a crash).
    var unterminatedTail: String?

    init(_ bytes: [UInt8]) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if let last = lines.last, last.isEmpty {
            lines.removeLast()
        } else if let last = lines.popLast() {
            unterminatedTail = String(decoding: last, as: UTF8.self)
        }
        for (index, line) in lines.enumerated() {
            if let event = WireEvent(line: String(decoding: line, as: UTF8.self)) {
                events.append(event)
            } else {
                badLines.append(index + 1)
            }
        }
    }

    init(contentsOf path: String) throws {
        self.init(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    var kinds: [String] { events.map(\.ev) }
    var marks: [String] { events.filter { $0.ev == "mark" }.compactMap { $0[string: "text"] } }

    /// Sequence numbers increase by one, except across the numbers a `dropped`
    /// record accounts for; returns a description of the first violation.
    func sequenceProblem() -> String? {
        var missing = Set<UInt64>()
        var previous: UInt64 = 0
        var expectedMissing = Set<UInt64>()
        for event in events {
            if event.seq <= previous { return "seq \(event.seq) after \(previous)" }
            for s in (previous + 1)..<event.seq { missing.insert(s) }
            if event.ev == "dropped" {
                let first = event.id("first"), last = event.id("last")
                guard first <= last, UInt64(event[number: "count"] ?? -1) == last - first + 1 else {
                    return "inconsistent dropped record \(event)"
                }
                for s in first...last { expectedMissing.insert(s) }
            }
            previous = event.seq
        }
        return missing == expectedMissing ? nil
            : "missing seqs \(missing.sorted().prefix(10)) but dropped records cover \(expectedMissing.sorted().prefix(10))"
    }
}

// MARK: - A small tree of napkins with predictable type names

/// An interactor that, when `bindsTask` is set, starts a bound task named
/// "watch" on activation that runs until it is cancelled.
final actor TraceTestInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let bindsTask: Bool

    init(bindsTask: Bool = false) {
        self.bindsTask = bindsTask
    }

    func didBecomeActive() async {
        guard bindsTask else { return }
        task(named: "watch") {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}

@MainActor final class TraceTestView: HeadlessViewControllable {}

@MainActor final class TraceTestRootRouter: LaunchRouter<TraceTestInteractor, TraceTestView> {
    convenience init() {
        self.init(interactor: TraceTestInteractor(), viewController: TraceTestView())
    }
}

@MainActor final class TraceTestRouter: Router<TraceTestInteractor> {
    /// Routers to attach in `didLoad` (permanent children).
    var attachOnLoad: [TraceTestRouter] = []

    convenience init(bindsTask: Bool = false) {
        self.init(interactor: TraceTestInteractor(bindsTask: bindsTask))
    }

    override func didLoad() async {
        for child in attachOnLoad { await attachChild(child) }
        attachOnLoad = []
    }
}

// MARK: - Odds and ends

/// `nil` if the lists are equal, else a short description of the first
/// difference (long lists make unreadable failure messages).
func difference(_ actual: [String], _ expected: [String]) -> String? {
    if actual == expected { return nil }
    let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actual.count, expected.count)
    let near = { (list: [String]) in list[index..<min(list.count, index + 3)].joined(separator: " | ") }
    return "\(actual.count) vs \(expected.count) items; first difference at \(index): [\(near(actual))] vs [\(near(expected))]"
}

#if os(Linux)
let isLinux = true
#else
let isLinux = false
#endif


