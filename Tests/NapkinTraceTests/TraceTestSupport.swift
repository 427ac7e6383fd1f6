// Helpers shared by the NapkinTraceTests suites: locating the hand-written
// fixtures, reading a trace completely, temporary files, and building events.

import Foundation
import NapkinTrace
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Fixtures

/// The hand-written traces in `Tests/Fixtures/traces`.
enum Fixtures {
    /// `Tests/Fixtures/traces`, found from this source file's location.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // NapkinTraceTests
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("traces")

    /// The path of fixture `name` (without the `.ndjson` extension).
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name + ".ndjson").path
    }

    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Every fixture's name, sorted.
    static func allNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".ndjson") }
            .map { String($0.dropLast(".ndjson".count)) }
            .sorted()
    }
}

// MARK: - Reading

/// Everything a reader returned, split by kind.
struct ReadResult {
    var events: [TraceEvent] = []
    var diagnostics: [TraceDiagnostic] = []
    /// Items in the order they came.
    var items: [TraceReader.Item] = []

    var errors: [TraceDiagnostic] { diagnostics.filter { $0.severity == .error } }
    var warnings: [TraceDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    var notes: [TraceDiagnostic] { diagnostics.filter { $0.severity == .note } }
}

/// Reads every item `reader` returns.
func readAll(_ reader: TraceReader) -> ReadResult {
    var result = ReadResult()
    while let item = reader.next() {
        result.items.append(item)
        switch item {
        case .event(let event): result.events.append(event)
        case .diagnostic(let diagnostic): result.diagnostics.append(diagnostic)
        }
    }
    return result
}

/// Reads the file at `path` completely.
func readAll(path: String, options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    let reader = try TraceReader(path: path, options: options)
    return (readAll(reader), reader)
}

/// Reads `text` written to a temporary file.
func readAll(text: String, options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    try readAll(bytes: Array(text.utf8), options: options)
}

/// Reads `bytes` written to a temporary file.
func readAll(bytes: [UInt8], options: TraceReader.Options = .init()) throws -> (ReadResult, TraceReader) {
    let file = try TemporaryFile(bytes)
    defer { file.remove() }
    return try readAll(path: file.path, options: options)
}

/// Analyses the events of fixture `name` (read with the library's reader).
func analyzeFixture(_ name: String, options: TraceAnalyzer.Options = .init()) throws -> AnalysisReport {
    let (result, reader) = try readAll(path: Fixtures.path(name))
    #expect(reader.rejection == nil, "\(name): \(reader.rejection.map { "\($0)" } ?? "")")
    #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
    return TraceAnalyzer.analyze(result.events, options: options)
}

// MARK: - Temporary files

/// A file in the temporary directory, removed by `remove()`.
struct TemporaryFile {
    let path: String

    init(_ bytes: [UInt8] = [], name: String = "trace") throws {
        path = NSTemporaryDirectory() + "napkin-trace-\(name)-\(UUID().uuidString).ndjson"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw TestFailure("cannot create \(path)")
        }
    }

    init(_ text: String, name: String = "trace") throws {
        try self.init(Array(text.utf8), name: name)
    }

    /// Replaces the content in place (truncate and write: the same inode).
    func write(_ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { throw TestFailure("cannot open \(path)") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("short write to \(path)") }
    }

    /// Appends `text` at the end of the file.
    func append(_ text: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { throw TestFailure("cannot open \(path)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("short write to \(path)") }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `write(2)`, for types that have a `write` method of their own.
func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Building events

/// Builds a trace event by event with increasing sequence numbers; time
/// advances by `step` ns per event unless given.
struct TraceBuilder {
    private(set) var events: [TraceEvent] = []
    private(set) var seq: UInt64 = 0
    private(set) var time: UInt64 = 0
    var step: UInt64 = 1_000_000

    init(app: String = "test") {
        add(.sessionStart(SessionInfo(app: app, pid: 1, wallClock: 1_700_000_000_000_000_000)), at: 0)
    }

    /// Appends `kind`, at `time` if given (else `step` after the previous event).
    @discardableResult
    mutating func add(_ kind: TraceEvent.Kind, at time: UInt64? = nil) -> TraceEvent {
        seq += 1
        self.time = time ?? (seq == 1 ? 0 : self.time + step)
        let event = TraceEvent(seq: seq, time: self.time, kind: kind)
        events.append(event)
        return event
    }

    /// Lets `ns` of trace time pass before the next event.
    mutating func wait(_ ns: UInt64) { time += ns }

    /// Creates an interactor `id - 1` and router `id` of types `<name>Interactor` / `<name>Router`.
    mutating func router(_ id: NodeID, _ name: String) {
        add(.interactorCreated(id: id - 1, type: name + "Interactor"))
        add(.routerCreated(id: id, type: name + "Router", interactor: id - 1, interactorType: name + "Interactor"))
    }

    /// Creates and launches root router `id` (interactor `id - 1`), activated and loaded.
    mutating func root(_ id: NodeID, _ name: String = "Root") {
        router(id, name)
        add(.launch(router: id))
        add(.activate(interactor: id - 1))
        add(.load(router: id))
    }

    /// Attaches router `child` (interactor `child - 1`) to `parent`, activates and loads it.
    mutating func attach(_ child: NodeID, to parent: NodeID) {
        add(.attach(parent: parent, child: child))
        add(.activate(interactor: child - 1))
        add(.load(router: child))
    }

    /// Detaches router `child` from `parent` and deactivates its interactor.
    mutating func detach(_ child: NodeID, from parent: NodeID) {
        add(.detach(parent: parent, child: child))
        add(.deactivate(interactor: child - 1))
    }

    /// Deallocates router `id` and its interactor `id - 1`.
    mutating func release(_ id: NodeID) {
        add(.deallocated(id: id))
        add(.deallocated(id: id - 1))
    }

    /// Folds every event up to `seq` into a fresh state.
    func state(upTo seq: UInt64 = .max) -> TraceState {
        var state = TraceState()
        for event in events where event.seq <= seq { state.apply(event) }
        return state
    }
}
