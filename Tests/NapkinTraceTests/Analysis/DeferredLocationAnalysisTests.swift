@testable import NapkinTrace
import Testing
import TestSupport

/// A recording read as recorded (`TraceRecorder.eventsAsRecorded`) carries
/// creation lines not worked out yet (`DeferredCodeLocation`): the analysis
/// keeps them unread and works out only the lines a finding names, so a
/// verdict with no finding costs no symbolication.
@Suite("Deferred creation lines in the analysis")
struct DeferredLocationAnalysisTests {
    /// Deferred locations that count how often they are worked out.
    final class Answers: Sendable {
        let computed = Locked(0)

        /// A deferred location that works out to `location` (nil: to nothing).
        func deferred(_ location: CodeLocation?) -> CodeLocation {
            CodeLocation(deferred: DeferredCodeLocation { [computed] in
                computed.withLock { $0 += 1 }
                return location
            })
        }

        var count: Int { computed.withLock { $0 } }
    }

    /// `count` LoggedIn routers, each made from its own deferred location
    /// (what `answer` gives), all alive at the end unless `released`.
    static func logins(_ count: Int, released: Bool, _ answer: (Int) -> CodeLocation) -> [TraceEvent] {
        var b = TraceBuilder()
        b.root(2)
        for k in 0..<count {
            let id = NodeID(10 + 2 * k)
            b.add(.interactorCreated(id: id - 1, type: "LoggedInInteractor"))
            b.add(.routerCreated(id: id, type: "LoggedInRouter", interactor: id - 1, interactorType: "LoggedInInteractor"),
                  location: answer(k))
            if released { b.release(id) }
        }
        b.add(.sessionEnd(reason: "exit"))
        return b.events
    }

    @Test("no finding: not one creation line is worked out")
    func cleanReadsNothing() {
        let answers = Answers()
        let line = CodeLocation(fileID: "App/LoggedInBuilder.swift", line: 22)
        let events = Self.logins(5, released: true) { _ in answers.deferred(line) }
        let report = TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInRouter": 1]))
        #expect(report.isClean, "\(report)")
        #expect(answers.count == 0, "a clean verdict worked out \(answers.count) lines")
    }

    @Test("a finding works out the lines it names; two stacks through one builder are one line, counted together")
    func findingReadsItsLines() throws {
        let answers = Answers()
        let line = CodeLocation(fileID: "App/LoggedInBuilder.swift", line: 22)
        // Five creations, from two call stacks (two deferred answers) that come to the same line.
        let first = answers.deferred(line), second = answers.deferred(line)
        let events = Self.logins(5, released: false) { $0 < 2 ? first : second }
        let report = TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInRouter": 4]))
        let finding = try #require(report.findings.first, "\(report)")
        #expect(finding.message.hasSuffix("over the budget of 4; created at App/LoggedInBuilder.swift:22 (5)"), "\(finding.message)")
        #expect(finding.locations.map(\.description) == ["App/LoggedInBuilder.swift:22 (created)"])
        #expect(answers.count == 2, "each answer worked out once: \(answers.count)")
    }

    @Test("a deferred line that comes to nothing: the finding names no line, as for a record without one")
    func nothing() throws {
        let answers = Answers()
        let events = Self.logins(2, released: false) { _ in answers.deferred(nil) }
        let report = TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInRouter": 1]))
        let finding = try #require(report.findings.first, "\(report)")
        #expect(finding.message == "2 alive at once (#10, #12), over the budget of 1", "\(finding.message)")
        #expect(finding.locations.isEmpty)
    }

    @Test("the table keeps a deferred location unread, once per answer, apart from the lines it knows")
    func table() {
        let answers = Answers()
        var table = CodeLocationTable()
        let known = CodeLocation(fileID: "App/A.swift", line: 3)
        let later = answers.deferred(known)
        let index = table.index(of: later)
        #expect(index != 0 && table.index(of: later) == index, "the same answer, the same index")
        #expect(table.index(of: answers.deferred(known)) != index, "another answer, another index")
        let plain = table.index(of: known)
        #expect(plain != index && table.count == 3)
        #expect(answers.count == 0, "kept unread")
        #expect(table[index] == known && table[plain] == known)
        #expect(answers.count == 1, "read back: worked out")
        #expect(table[index | 5_000] == nil && table[CodeLocationTable.deferredBit] == nil)
    }

    @Test("bounded: past the limit of deferred locations kept unread, a new one is worked out at once and kept by value")
    func tableBounded() {
        let answers = Answers()
        var table = CodeLocationTable()
        let kept = (0..<CodeLocationTable.deferredLimit).count { k in
            table.index(of: answers.deferred(CodeLocation(fileID: "App/A.swift", line: UInt(k + 1)))) & CodeLocationTable.deferredBit != 0
        }
        #expect(kept == CodeLocationTable.deferredLimit && answers.count == 0)
        let known = CodeLocation(fileID: "App/B.swift", line: 7)
        let index = table.index(of: answers.deferred(known))
        #expect(answers.count == 1 && index & CodeLocationTable.deferredBit == 0 && table[index] == known)
        #expect(table.index(of: known) == index, "kept by value: the same line, the same index")
        #expect(table.index(of: answers.deferred(nil)) == 0, "one that comes to nothing: no location")
    }
}
