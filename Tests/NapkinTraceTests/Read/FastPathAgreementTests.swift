import Foundation
@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// The fast path against the general parser, line by line: wherever the
/// fast path gives an event, the general parser gives the same one (so
/// taking the fast path never changes what a line means), on every line of
/// every trace in the repository and on lines mutated byte by byte, read
/// alone and followed in memory by other bytes (as in the reader's buffer).
@Suite("Fast path agrees with the general parser")
struct FastPathAgreementTests {
    /// What the fast path and the general parser made of one line, read with `tail` after it in memory.
    struct Outcome {
        var fast: TraceEvent?
        var general: TraceLineParser.Result
        var combined: TraceLineParser.Result
    }

    /// Parses `line` both ways; `parser` keeps its caches from line to line, as the reader's does.
    static func outcome(_ line: [UInt8], tail: [UInt8], _ parser: inout TraceLineParser) -> Outcome {
        let bytes = line + tail
        return bytes.withUnsafeBufferPointer { buffer in
            let exact = UnsafeBufferPointer(rebasing: buffer[0..<line.count])
            let fast = parser.fastEvent(exact, readable: bytes.count)
            var general = TraceLineParser()
            return Outcome(fast: fast, general: general.parseGeneral(exact), combined: parser.parse(exact, readable: bytes.count))
        }
    }

    /// Checks one line; returns whether the fast path took it.
    @discardableResult
    static func check(_ line: [UInt8], _ parser: inout TraceLineParser, tails: [[UInt8]] = allTails,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var took = false
        for tail in tails {
            let o = outcome(line, tail: tail, &parser)
            let text = String(decoding: line, as: UTF8.self)
            if let fast = o.fast {
                took = true
                #expect(o.general == .event(fast), "fast path: \(fast), general: \(o.general), line: \(text)", sourceLocation: sourceLocation)
            }
            #expect(o.combined == o.general, "line: \(text)", sourceLocation: sourceLocation)
        }
        return took
    }

    /// What may follow a line in memory: nothing, other bytes, the next line.
    static let allTails = LineCursorTests.tails + [Array(#"{"seq":12,"t":3}"#.utf8)]
    /// A few of them, for the many mutated lines.
    static let someTails = [[], Array("9999999999999999".utf8)] as [[UInt8]]

    /// Every line of every trace file in the repository.
    static func repositoryLines() throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for directory in ["Tests/Fixtures/traces", "Tests/Fixtures/hostile", "Tests/Fixtures/fuzz", "Examples/traces"] {
            for name in try PackagePaths.files(in: directory, endingIn: "") where !name.hasSuffix(".md") && !name.hasSuffix(".sh") {
                let data = try Data(contentsOf: PackagePaths.url(directory + "/" + name))
                lines += data.split(separator: 10, omittingEmptySubsequences: false).map { Array($0) }
            }
        }
        return lines
    }

    /// Lines the encoder writes, with numbers of every length the fast path handles, and beyond.
    static func encoderLines() -> [[UInt8]] {
        let numbers: [UInt64] = [0, 1, 9, 10, 12_345_678, 99_999_999, 100_000_000, 1_234_567_890_123, 9_999_999_999_999_999,
                                 10_000_000_000_000_000, 999_999_999_999_999_999, 9_999_999_999_999_999_999, .max]
        var lines: [[UInt8]] = []
        for name in TraceEvent.Name.allCases {
            for number in numbers {
                let id = max(1, number)
                var event = WireFormatRoundTripTests.event(name)
                event.seq = number
                event.time = number
                switch event.kind {
                case .attach: event.kind = .attach(parent: id, child: id)
                case .deallocated: event.kind = .deallocated(id: id)
                case .taskStart(_, _, let label): event.kind = .taskStart(task: id, owner: id, label: label)
                default: break
                }
                lines.append(Array(TraceEncoder.line(event).utf8))
            }
        }
        return lines
    }

    @Test("every line of every trace in the repository, and encoder lines with numbers of every length", .dedicatedThread, .singleThreaded)
    func repository() throws {
        var parser = TraceLineParser()
        var taken = 0
        let lines = try Self.repositoryLines() + Self.encoderLines()
        for line in lines where Self.check(line, &parser) { taken += 1 }
        #expect(taken > lines.count / 2, "the fast path takes most lines (\(taken) of \(lines.count))")
    }

    @Test("lines mutated byte by byte: replaced, deleted, inserted, cut", .dedicatedThread, .singleThreaded)
    func mutations() throws {
        let interesting: [UInt8] = Array("\"\\,:}{0 9a-.e".utf8) + [0x00, 0x0D, 0x1F, 0x7F, 0xC3, 0xFF]
        let encoded = Self.encoderLines()
        var samples = stride(from: 0, to: encoded.count, by: 9).map { encoded[$0] }
        let records = try Self.repositoryLines().filter { $0.first == UInt8(ascii: "{") }
        samples += stride(from: 0, to: records.count, by: max(1, records.count / 20)).map { records[$0] }
        var parser = TraceLineParser()
        for line in samples {
            for position in 0..<line.count {
                Self.check(Array(line[..<position]), &parser, tails: Self.someTails)
                var deleted = line
                deleted.remove(at: position)
                Self.check(deleted, &parser, tails: Self.someTails)
                for byte in interesting {
                    var replaced = line
                    replaced[position] = byte
                    Self.check(replaced, &parser, tails: Self.someTails)
                    var inserted = line
                    inserted.insert(byte, at: position)
                    Self.check(inserted, &parser, tails: Self.someTails)
                }
            }
        }
    }

    @Test("names and locations come from the cache exactly as they were first read")
    func cachedValues() {
        var parser = TraceLineParser()
        let names = ["HomeRouter", "LoggedInInteractor", "Generic<Int, [String]>Router", "Ünïcode", String(repeating: "N", count: 80)]
        for round in 0..<3 {
            for (k, name) in names.enumerated() {
                let event = TraceEvent(seq: UInt64(round * 10 + k), time: 5, kind: .routerCreated(id: 2, type: name, interactor: 1, interactorType: name + "I"),
                                       location: CodeLocation(fileID: "App/\(name).swift", line: UInt(k + 1)))
                #expect(parser.parse(TraceEncoder.line(event)) == .event(event))
            }
        }
    }
}
