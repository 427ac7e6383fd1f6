import Foundation
@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// `NAPKIN_TRACE=tcp:` and `unix:`: the socket sink, with a stand-in
/// inspector on loopback or a unix socket in a temporary directory. No
/// test measures time; waits only guard against hangs.
@Suite("Socket trace sink")
struct SocketTraceSinkTests {
    /// Fast retries and a small backlog, so that gaps happen within a test.
    static let settings = SocketTraceSink.Settings(connectTimeoutMS: 1_000, firstBackoffMS: 2, maxBackoffMS: 20, backlogCapacity: 32)

    /// Emits events through a tracer and folds the same events into the
    /// state the whole session has (the truth a part is compared with).
    final class App: @unchecked Sendable {
        // `@unchecked Sendable`: used by one test task at a time.
        let tracer: Tracer
        let sink: SocketTraceSink
        private(set) var kinds: [TraceEvent.Kind] = []

        init(_ address: TraceSocketAddress, settings: SocketTraceSink.Settings = SocketTraceSinkTests.settings) {
            sink = SocketTraceSink(address: address, settings: settings)
            tracer = Tracer(sink: sink, app: "socket-test", flushInterval: .milliseconds(2))
        }

        func emit(_ kind: TraceEvent.Kind) {
            tracer.emit(kind)
            kinds.append(kind)
        }

        /// Interactor `id - 1` and router `id`, attached under `parent` (launched without one), active and loaded.
        func screen(_ id: NodeID, _ name: String, under parent: NodeID?) {
            emit(.interactorCreated(id: id - 1, type: name + "Interactor"))
            emit(.routerCreated(id: id, type: name + "Router", interactor: id - 1, interactorType: name + "Interactor"))
            emit(parent.map { .attach(parent: $0, child: id) } ?? .launch(router: id))
            emit(.activate(interactor: id - 1))
            emit(.load(router: id))
        }

        /// Detaches router `id` from `parent`, deactivates it and releases both.
        func close(_ id: NodeID, from parent: NodeID) {
            emit(.detach(parent: parent, child: id))
            emit(.deactivate(interactor: id - 1))
            emit(.deallocated(id: id))
            emit(.deallocated(id: id - 1))
        }

        func marks(_ count: Int, _ tag: String) {
            for i in 0..<count { emit(.mark(text: "\(tag) \(i)")) }
        }

        /// The state the whole session gives, with the tracer's sequence numbers.
        var truth: TraceState {
            var state = TraceState()
            state.apply(TraceEvent(seq: 1, time: 0, kind: .sessionStart(tracer.info)))
            for (index, kind) in kinds.enumerated() { state.apply(TraceEvent(seq: UInt64(index + 2), time: 0, kind: kind)) }
            return state
        }
    }

    /// One connection's bytes, read as a trace.
    struct Part {
        var events: [TraceEvent]
        var integrity: TraceIntegrity
        var state: TraceState
        var diagnostics: [TraceDiagnostic]

        init(_ bytes: [UInt8]) throws {
            let (result, reader) = try readAll(bytes: bytes)
            events = result.events
            diagnostics = result.diagnostics
            var state = TraceState()
            for event in events { state.apply(event) }
            self.state = state
            integrity = reader.integrity.including(state)
        }

        var session: SessionInfo? {
            if case .sessionStart(let info) = events.first?.kind { info } else { nil }
        }

        /// The marks, in order.
        var marks: [String] { events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } } }
    }

    /// Waits until the sink is connected for the `count`th time and `listener` has accepted `accepted` connections.
    static func waitForConnection(_ count: Int, accepted: Int? = nil, _ listener: TestListener, _ app: App) async -> Bool {
        await waitUntil {
            listener.connectionCount >= (accepted ?? count) && app.sink.status.connections >= count && app.sink.status.isConnected
        }
    }

    /// Waits until connection `index` has received a mark with `text`.
    static func waitForMark(_ text: String, on index: Int, _ listener: TestListener) async -> Bool {
        let needle = Array(#""text":"\#(text)""#.utf8)
        return await waitUntil {
            let bytes = listener.bytes(of: index)
            return bytes.count >= needle.count && bytes.indices.dropLast(needle.count - 1).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }

    // MARK: - Parsing

    @Test("tcp: and unix: values make a socket sink, without connecting or looking up a name")
    func recognised() throws {
        for value in ["tcp:127.0.0.1:7700", "tcp:[::1]:7700", "tcp:inspector.invalid:7700", "unix:/tmp/napkin.sock", "unix:relative.sock"] {
            let sink = try TraceDestination.sink(for: value)
            let socket = try #require(sink as? SocketTraceSink, "\(value)")
            #expect(socket.address.description == value)
            #expect(socket.status.attempts == 0, "\(value)")
            #expect(socket.status.connections == 0)
        }
    }

    @Test("a malformed tcp: or unix: value is refused with the fix in the message",
          arguments: ["tcp:", "tcp:7700", "tcp:host", "tcp:host:", "tcp:host:0", "tcp:host:70000", "tcp::7700",
                      "tcp:::1:7700", "tcp:[::1]7700", "tcp:[::1:7700", "tcp:host:77x", "unix:"])
    func malformed(value: String) {
        do {
            _ = try TraceDestination.sink(for: value)
            Issue.record("\(value) was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains(value.hasPrefix("unix") ? "unix:PATH" : "tcp:HOST:PORT") || text.contains("tcp:127.0.0.1:7700"), "\(text)")
        }
    }

    // MARK: - Connected

    @Test("a listener that is there gets the whole session: a clean trace with every event emitted")
    func wholeSession() async throws {
        let listener = try TestListener.tcp()
        defer { listener.stop() }
        let app = App(listener.address)
        app.screen(2, "Root", under: nil)
        app.screen(4, "Home", under: 2)
        app.emit(.taskStart(task: 5, owner: 3, label: "watch"))
        app.screen(7, "Profile", under: 4)
        app.close(7, from: 4)
        app.marks(500, "m")
        app.tracer.shutdown(reason: "finished")
        try #require(await waitUntil { listener.hasEnded(0) })

        #expect(listener.connectionCount == 1)
        let part = try Part(listener.bytes(of: 0))
        #expect(part.integrity.isUsable, "\(part.integrity.problems)")
        #expect(part.integrity.sessions == 1 && part.integrity.resumedParts == 0)
        #expect(part.session == app.tracer.info)
        #expect(part.events.map(\.kind) == [.sessionStart(app.tracer.info)] + app.kinds + [.sessionEnd(reason: "finished")])
        #expect(part.events.map(\.seq) == Array(1...UInt64(app.kinds.count + 2)))
        #expect(treeSummary(part.state) == treeSummary(app.truth))
        #expect(app.sink.status.part == 1 && app.sink.status.lost == 0)
    }

    // MARK: - Gaps

    @Test("with no listener emitting never waits; a late listener gets a resumed part with the whole live tree")
    func lateListener() async throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/i.sock"
        let app = App(.unix(path: path))
        // Nobody listens: the sink tries, fails, and keeps the latest events.
        app.screen(2, "Root", under: nil)
        app.screen(4, "Home", under: 2)
        app.emit(.taskStart(task: 5, owner: 3, label: "watch"))
        app.screen(7, "Profile", under: 4)
        app.screen(9, "Settings", under: 2)
        app.close(9, from: 2)
        app.marks(100, "early")
        try #require(await waitUntil { app.sink.status.attempts >= 3 && app.sink.status.backlogCount == 32 })
        #expect(app.sink.status.connections == 0)
        let lostBefore = app.sink.status.lost
        // The session record, 25 records of the tree and 100 marks: all but the last 32 discarded.
        #expect(lostBefore == UInt64(1 + app.kinds.count - 32))

        let listener = try TestListener.unix(path)
        defer { listener.stop() }
        try #require(await Self.waitForConnection(1, listener, app))
        app.screen(11, "Help", under: 4)
        app.emit(.mark(text: "later"))
        try #require(await Self.waitForMark("later", on: 0, listener))
        app.tracer.shutdown(reason: "finished")
        try #require(await waitUntil { listener.hasEnded(0) })

        let part = try Part(listener.bytes(of: 0))
        #expect(part.integrity.isUsable, "\(part.integrity.problems)")
        let session = try #require(part.session)
        #expect(session.part == 2)
        #expect(session.lost == lostBefore)
        #expect(session.app == app.tracer.info.app && session.pid == app.tracer.info.pid && session.wallClock == app.tracer.info.wallClock)
        #expect(session.resumes(app.tracer.info))
        // The replay: the live tree's records, with their original sequence numbers, then the 32 kept marks.
        let replay = part.events.dropFirst().prefix(session.replayCount)
        #expect(replay.map(\.seq) == replay.map(\.seq).sorted())
        #expect(replay.contains { $0.kind == .taskStart(task: 5, owner: 3, label: "watch") })
        #expect(!replay.contains { $0.kind == .routerCreated(id: 9, type: "SettingsRouter", interactor: 8, interactorType: "SettingsInteractor") })
        #expect(part.marks == (68..<100).map { "early \($0)" } + ["later"])
        #expect(treeSummary(part.state) == treeSummary(app.truth))
        #expect(part.state.ended)
    }

    @Test("an inspector that goes away and comes back: part 2, then part 3, each with the whole tree and its lost count")
    func inspectorRestarts() async throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/i.sock"
        var listener = try TestListener.unix(path)
        let app = App(.unix(path: path))
        app.screen(2, "Root", under: nil)
        app.screen(4, "Home", under: 2)
        app.emit(.mark(text: "one"))
        try #require(await Self.waitForMark("one", on: 0, listener))

        // The inspector quits: the sink notices at its next write (an idle
        // app is not woken to look), and keeps the latest events meanwhile.
        var parts: [Part] = [try Part(listener.bytes(of: 0))]
        var expectedLost: [UInt64] = []
        for round in 2...3 {
            listener.stop()
            parts[round - 2] = try Part(listener.bytes(of: 0))
            let lostBefore = app.sink.status.lost
            app.screen(NodeID(10 * round), "Round\(round)", under: 4)
            app.emit(.taskStart(task: NodeID(10 * round + 1), owner: NodeID(10 * round - 1), label: nil))
            app.marks(50 * round, "gap \(round)")
            try #require(await waitUntil { !app.sink.status.isConnected })
            try #require(await waitUntil { app.sink.status.lost >= lostBefore + UInt64(5 + 1 + 50 * round - 32) })
            expectedLost.append(UInt64(5 + 1 + 50 * round - 32))
            listener = try TestListener.unix(path)
            try #require(await Self.waitForConnection(round, accepted: 1, listener, app))
            app.emit(.mark(text: "round \(round)"))
            try #require(await Self.waitForMark("round \(round)", on: 0, listener))
            parts.append(try Part(listener.bytes(of: 0)))
        }
        app.tracer.shutdown(reason: "finished")
        try #require(await waitUntil { listener.hasEnded(0) })
        parts[2] = try Part(listener.bytes(of: 0))
        listener.stop()

        #expect(parts[0].session?.part == 1)
        #expect(parts[0].integrity.isUsable, "\(parts[0].integrity.problems)")
        // Part numbers count connections: a connection the stopped listener had
        // queued but never accepted is one too (reset before it carried
        // anything), so on a busy machine a number may be skipped, and the
        // events written to it are lost as well.
        var previousPart = 1
        for (index, part) in parts.enumerated().dropFirst() {
            #expect(part.integrity.isUsable, "part \(index + 1): \(part.integrity.problems)")
            let number = part.session?.part ?? 0
            #expect(number > previousPart, "part numbers only grow: \(number) after \(previousPart)")
            if number == previousPart + 1 {
                #expect(part.session?.lost == expectedLost[index - 1], "part \(index + 1)")
            } else {
                #expect((part.session?.lost ?? 0) >= expectedLost[index - 1], "part \(index + 1)")
            }
            previousPart = number
            #expect(part.state.firstUnknownID == nil)
        }
        #expect(treeSummary(parts[2].state) == treeSummary(app.truth))
        #expect(parts[2].state.isRunning(task: 21) && parts[2].state.isRunning(task: 31))
        #expect(parts[2].state.ended)
        #expect(app.sink.status.lost >= expectedLost.reduce(0, +))
    }

    @Test("an inspector that hangs up but keeps listening: the sink reconnects, part 3 has the whole tree")
    func hangUps() async throws {
        let listener = try TestListener.tcp()
        defer { listener.stop() }
        let app = App(listener.address)
        app.screen(2, "Root", under: nil)
        app.screen(4, "Home", under: 2)
        for round in 0..<3 {
            app.emit(.mark(text: "round \(round)"))
            try #require(await Self.waitForMark("round \(round)", on: round, listener))
            guard round < 2 else { break }
            let emitted = app.kinds.count
            listener.hangUp(round)
            // Hung up before the next event: an idle app is not woken to notice it, the next write does.
            try #require(await waitUntil { listener.hasEnded(round) })
            app.screen(NodeID(10 + 2 * round), "Round\(round)", under: 4)
            try #require(await Self.waitForConnection(round + 2, listener, app))
            // Whatever went to the closed connection before the sink noticed is lost, at most what was emitted since.
            #expect(app.sink.status.lost <= UInt64(app.kinds.count - emitted))
        }
        app.tracer.shutdown(reason: "finished")
        try #require(await waitUntil { listener.hasEnded(2) })
        let part = try Part(listener.bytes(of: 2))
        #expect(part.integrity.isUsable, "\(part.integrity.problems)")
        #expect(part.session?.part == 3)
        #expect(treeSummary(part.state) == treeSummary(app.truth))
        #expect(part.marks.last == "round 2")
    }

    @Test("the backlog holds at most its capacity, and at most its bytes; the oldest go first")
    func backlogBound() {
        var backlog = EventBacklog(capacity: 10, byteLimit: 1 << 20)
        var evicted: [UInt64] = []
        for seq in 1...25 as ClosedRange<UInt64> {
            backlog.append(TraceEvent(seq: seq, time: seq, kind: .mark(text: "m"))) { evicted.append($0.seq) }
            #expect(backlog.count <= 10)
        }
        #expect(evicted == Array(1...15))
        #expect(backlog.removeAll().map(\.seq) == Array(16...25))

        let text = String(repeating: "x", count: 1_000)
        var small = EventBacklog(capacity: 1_000, byteLimit: 10_000)
        evicted = []
        for seq in 1...100 as ClosedRange<UInt64> {
            small.append(TraceEvent(seq: seq, time: seq, kind: .mark(text: text))) { evicted.append($0.seq) }
            #expect(small.bytes <= 10_000)
        }
        #expect(small.count == 10_000 / EventBacklog.size(of: TraceEvent(seq: 1, time: 1, kind: .mark(text: text))))
        #expect(evicted == Array(1...UInt64(100 - small.count)))
        // A string longer than a record on a socket may be is shortened on the way in.
        var huge = EventBacklog(capacity: 10, byteLimit: 1 << 20)
        huge.append(TraceEvent(seq: 1, time: 1, kind: .mark(text: String(repeating: "y", count: 100_000)))) { _ in }
        #expect(huge.bytes <= EventBacklog.eventCost + NDJSONTraceSink.socketRecordLimit)
    }

    @Test("with no listener the sink's backlog stays within its bound however much the app emits")
    func backlogBoundInSink() async throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let directory = scratch.path
        let app = App(.unix(path: directory + "/nobody.sock"),
                      settings: .init(firstBackoffMS: 1, maxBackoffMS: 5, backlogCapacity: 100, backlogBytes: 64 << 10))
        for i in 0..<20_000 { app.tracer.emit(.mark(text: "event \(i) " + String(repeating: "z", count: i % 2_000))) }
        app.tracer.flush()
        let status = app.sink.status
        #expect(status.backlogCount <= 100)
        #expect(status.lost + UInt64(status.backlogCount) == 20_001 - app.tracer.droppedCount)
        #expect(status.connections == 0 && status.attempts >= 1)
        app.tracer.shutdown(reason: "finished")
    }

    // MARK: - The end

    @Test("at the end, one last attempt whatever the backoff: a listener that came late gets the last part")
    func lastAttempt() async throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/i.sock"
        // After the first failure, the next attempt would come only an hour later
        // (not a minute: a loaded machine running the sanitizer once held this
        // test's task back for over a minute, and the second attempt came).
        let app = App(.unix(path: path), settings: .init(firstBackoffMS: 3_600_000, maxBackoffMS: 3_600_000, backlogCapacity: 16))
        app.screen(2, "Root", under: nil)
        app.marks(40, "m")
        try #require(await waitUntil { app.sink.status.attempts == 1 && app.sink.status.backlogCount == 16 })
        let listener = try TestListener.unix(path)
        defer { listener.stop() }
        await onOwnThread("tracer-shutdown") { app.tracer.shutdown(reason: "finished") }  // it blocks: off the pool
        #expect(app.sink.status.attempts == 2)
        try #require(await waitUntil { listener.hasEnded(0) })
        let part = try Part(listener.bytes(of: 0))
        #expect(part.integrity.isUsable, "\(part.integrity.problems)")
        #expect(part.session?.part == 2)
        // The session record, the root's 5 records, 40 marks and the end record, less the 16 kept.
        #expect(part.session?.lost == UInt64(1 + 5 + 40 + 1 - 16))
        #expect(part.state.ended)
        #expect(treeSummary(part.state) == treeSummary(app.truth))
    }

    @Test("at the end with no listener, closing returns after one bounded attempt")
    func endWithoutListener() async throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let directory = scratch.path
        let app = App(.unix(path: directory + "/nobody.sock"))
        app.screen(2, "Root", under: nil)
        app.marks(100, "m")
        // A hang guard: the shutdown runs on its own thread, the test gives up waiting after 60 s.
        let done = Locked(false)
        Thread { app.tracer.shutdown(reason: "finished"); done.withLock { $0 = true } }.start()
        #expect(await waitUntil(timeout: .seconds(60)) { done.withLock { $0 } })
        #expect(!app.sink.status.isConnected)
        #expect(app.sink.status.backlogCount == 0)
    }
}
