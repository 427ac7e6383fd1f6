import Foundation
@testable import NapkinTrace
import Testing
import TestSupport

/// How long a record may be on a socket sink's own connection: one limit on
/// every platform, not `PIPE_BUF` (512 bytes on Apple platforms, 4 KiB on
/// Linux), since nothing else writes to the connection.
@Suite("Socket record limit")
struct SocketRecordLimitTests {
    /// About 9 KiB of type name, as deeply nested generics spell out: longer
    /// than `PIPE_BUF` on every platform, shorter than the socket limit.
    static let longName = "Screen<" + String(repeating: "Nested<Generic<Büro, \"Ω\">>, ", count: 300) + ">"

    @Test("a record longer than 4 KiB (Linux's PIPE_BUF) reaches the listener whole; one past 16 KiB is shortened to fit")
    func longRecordsOverASocket() async throws {
        #expect(Self.longName.utf8.count > 8_000 && Self.longName.utf8.count < NDJSONTraceSink.socketRecordLimit - 1_000)
        let listener = try TestListener.tcp()
        defer { listener.stop() }
        let sink = SocketTraceSink(address: listener.address, settings: SocketTraceSinkTests.settings)
        let tracer = Tracer(sink: sink, app: "socket-limit", flushInterval: .milliseconds(2))
        let huge = String(repeating: "é", count: 20_000)   // 40 kB of UTF-8
        tracer.emit(.interactorCreated(id: 1, type: Self.longName))
        tracer.emit(.mark(text: Self.longName))
        tracer.emit(.mark(text: huge))
        tracer.shutdown(reason: "finished")
        try #require(await waitUntil { listener.hasEnded(0) })

        let bytes = listener.bytes(of: 0)
        let lines = bytes.split(separator: 10)
        #expect(lines.allSatisfy { $0.count + 1 <= NDJSONTraceSink.socketRecordLimit })
        #expect(lines.contains { $0.count + 1 > Platform.atomicPipeWriteSize })
        let (result, _) = try readAll(bytes: bytes)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let kinds = result.events.map(\.kind)
        #expect(kinds.contains(.interactorCreated(id: 1, type: Self.longName)))
        #expect(kinds.contains(.mark(text: Self.longName)))
        let shortened = kinds.compactMap { kind -> String? in
            if case .mark(let text) = kind, text != Self.longName { text } else { nil }
        }
        #expect(shortened.count == 1)
        #expect(shortened.first.map { $0.hasSuffix(RecordFitting.ellipsis) && huge.hasPrefix($0.dropLast()) } == true)
        #expect(shortened.first.map { $0.utf8.count > NDJSONTraceSink.socketRecordLimit / 2 } == true)
    }

    @Test("a retained record too long for a pipe keeps every path, each cut at its end, and its numbers")
    func retainedRecordFitted() {
        let long = String(repeating: "Store.screens[0] → ", count: 200) + "HomeRouter#4"
        let paths = ["RootInteractor#1.store (suspect) → HomeRouter#4", long, long + " (cycle)"]
        let event = TraceEvent(seq: 9, time: 1, kind: .retained(id: 4, retainers: Retainers(
            paths: paths, found: 3, total: 4, note: String(repeating: "n", count: 3_000))))
        let fitted = RecordFitting.fitted(event, limit: 4_096)
        #expect(RecordFitting.encodedLength(fitted) <= 4_096)
        guard case .retained(let id, let retainers) = fitted.kind else {
            Issue.record("not a retained record: \(fitted)")
            return
        }
        #expect(id == 4 && retainers.found == 3 && retainers.total == 4)
        #expect(retainers.paths.count == 3)
        #expect(retainers.paths.first == paths[0])
        #expect(retainers.paths.dropFirst().allSatisfy { $0.hasSuffix(RecordFitting.ellipsis) && long.hasPrefix($0.dropLast()) })
        #expect(retainers.note?.hasSuffix(RecordFitting.ellipsis) == true)
    }

    @Test("the socket limit is the same on every platform, whatever PIPE_BUF is, and within the inspector's 64 KiB lines")
    func limitDoesNotDependOnPipeBuf() {
        #expect(NDJSONTraceSink.socketRecordLimit == 16_384)
        #expect(NDJSONTraceSink.socketRecordLimit > Platform.atomicPipeWriteSize)
        #expect(NDJSONTraceSink.socketRecordLimit * 4 <= 64 << 10)
        // The backlog of a sink waiting for its inspector keeps such a record whole too.
        var backlog = EventBacklog(capacity: 4, byteLimit: 1 << 20)
        backlog.append(TraceEvent(seq: 2, time: 1, kind: .mark(text: Self.longName))) { _ in }
        #expect(backlog.removeAll().map(\.kind) == [.mark(text: Self.longName)])
    }
}
