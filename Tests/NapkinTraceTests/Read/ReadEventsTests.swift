import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// `TraceReader.read(event:diagnostic:)`, the fast way through a trace, hands
/// out exactly what a loop over `next()` does, in the same order, and leaves
/// the reader in the same state, on every trace in the repository, on cut
/// and damaged ones, and when it is stopped part way.
@Suite("Reading with read(event:diagnostic:)")
struct ReadEventsTests {
    /// The items `read(event:diagnostic:)` hands out for `bytes`, and the reader.
    static func readFast(_ bytes: [UInt8], options: TraceReader.Options = .init(), stopAfter: Int = .max) throws
        -> ([TraceReader.Item], TraceReader) {
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: bytes)
        let reader = try TraceReader(path: file, options: options)
        var items: [TraceReader.Item] = []
        var events = 0
        reader.read(event: { event in
            items.append(.event(event))
            events += 1
            return events < stopAfter
        }, diagnostic: { items.append(.diagnostic($0)) })
        return (items, reader)
    }

    /// Checks that both ways of reading `bytes` agree.
    static func expectSame(_ bytes: [UInt8], _ name: String, options: TraceReader.Options = .init(),
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (slow, slowReader) = try readAll(bytes: bytes, options: options)
        let (fast, fastReader) = try readFast(bytes, options: options)
        #expect(fast == slow.items, "\(name)", sourceLocation: sourceLocation)
        #expect(fastReader.eventCount == slowReader.eventCount && fastReader.lineCount == slowReader.lineCount
                && fastReader.byteCount == slowReader.byteCount && fastReader.invalidLineCount == slowReader.invalidLineCount
                && fastReader.unknownFieldCount == slowReader.unknownFieldCount && fastReader.unknownKinds == slowReader.unknownKinds
                && fastReader.endedMidLine == slowReader.endedMidLine, "\(name)", sourceLocation: sourceLocation)
        #expect(fastReader.integrity == slowReader.integrity, "\(name)", sourceLocation: sourceLocation)
        #expect(fastReader.rejection?.message == slowReader.rejection?.message, "\(name)", sourceLocation: sourceLocation)
    }

    /// Every trace file of the repository, by name.
    static func repositoryFiles() throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        for directory in ["Tests/Fixtures/traces", "Tests/Fixtures/hostile", "Tests/Fixtures/fuzz", "Examples/traces"] {
            for name in try PackagePaths.files(in: directory, endingIn: "") where !name.hasSuffix(".sh") {
                files.append((directory + "/" + name, Array(try Data(contentsOf: PackagePaths.url(directory + "/" + name)))))
            }
        }
        return files
    }

    @Test("every trace file of the repository, whole, and with small buffers", .dedicatedThread, .singleThreaded)
    func repository() throws {
        var small = TraceReader.Options(maxLineLength: 64)
        small.readChunk = 4096
        var chunked = TraceReader.Options()
        chunked.readChunk = 4096
        for (name, bytes) in try Self.repositoryFiles() {
            try Self.expectSame(bytes, name)
            try Self.expectSame(bytes, name + " (small buffers)", options: small)
            try Self.expectSame(bytes, name + " (small reads)", options: chunked)
        }
    }

    @Test("cut at every line, and with a line damaged in the middle", .dedicatedThread, .singleThreaded)
    func cutAndDamaged() throws {
        let bytes = Array(try Data(contentsOf: PackagePaths.url("Examples/traces/clean.ndjson")))
        let ends = bytes.indices.filter { bytes[$0] == 10 }
        for end in ends.prefix(40) {
            try Self.expectSame(Array(bytes[...end]), "cut after byte \(end)")
            try Self.expectSame(Array(bytes[..<end]), "cut before byte \(end)")
        }
        var damaged = bytes
        for k in stride(from: 3, to: damaged.count, by: 997) { damaged[k] = UInt8(ascii: "#") }
        try Self.expectSame(damaged, "damaged")
    }

    @Test("a long generated trace, read in small chunks, with CRLF endings, and with lines at the length limit", .dedicatedThread, .singleThreaded)
    func generated() throws {
        var bytes: [UInt8] = []
        var seq: UInt64 = 1
        TraceEncoder.append(TraceEvent(seq: seq, time: 0, kind: .sessionStart(SessionInfo(app: "t", pid: 1, wallClock: 0))), to: &bytes)
        for k in 0..<3_000 {
            seq += 1
            let kind: TraceEvent.Kind = k % 3 == 0 ? .interactorCreated(id: UInt64(k + 1), type: String(repeating: "T", count: k % 70))
                : k % 3 == 1 ? .mark(text: "step \(k)") : .deallocated(id: UInt64(k))
            TraceEncoder.append(TraceEvent(seq: seq, time: UInt64(k) * 1_000, kind: kind), to: &bytes)
        }
        var crlf: [UInt8] = []
        for b in bytes { if b == 10 { crlf.append(13) }; crlf.append(b) }
        var chunked = TraceReader.Options()
        chunked.readChunk = 4096
        var limit = TraceReader.Options(maxLineLength: 100)
        limit.readChunk = 4096
        for options in [TraceReader.Options(), chunked, limit] {
            try Self.expectSame(bytes, "generated", options: options)
            try Self.expectSame(crlf, "generated, CRLF", options: options)
        }
    }

    @Test("stopped part way: the events so far, then next() goes on from there", .dedicatedThread, .singleThreaded)
    func stopped() throws {
        let bytes = Array(try Data(contentsOf: PackagePaths.url("Examples/traces/clean.ndjson")))
        let (all, _) = try readAll(bytes: bytes)
        for stop in [1, 2, 10, 100] {
            let scratch = try ScratchDirectory("trace")
            defer { scratch.remove() }
            let file = try scratch.write("trace.ndjson", bytes: bytes)
            let reader = try TraceReader(path: file)
            var items: [TraceReader.Item] = []
            var events = 0
            reader.read(event: { event in
                items.append(.event(event))
                events += 1
                return events < stop
            }, diagnostic: { items.append(.diagnostic($0)) })
            #expect(events == min(stop, all.events.count))
            while let item = reader.next() { items.append(item) }
            #expect(items == all.items, "stopped after \(stop) events")
        }
    }

    @Test("an error thrown by a handler stops reading and comes out")
    func throwing() throws {
        struct Stop: Error {}
        let bytes = Array(try Data(contentsOf: PackagePaths.url("Examples/traces/clean.ndjson")))
        let scratch = try ScratchDirectory("trace")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", bytes: bytes)
        let reader = try TraceReader(path: file)
        var events = 0
        #expect(throws: Stop.self) {
            try reader.read(event: { _ throws(Stop) in
                events += 1
                if events == 5 { throw Stop() }
                return true
            }, diagnostic: { _ throws(Stop) in })
        }
        #expect(events == 5)
    }
}
