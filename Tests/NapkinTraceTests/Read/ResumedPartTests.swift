@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// How the reader takes a session resumed after a gap (a socket sink that
/// reconnected): a new session whose replay may skip sequence numbers and
/// time, and is not damage when well-formed; and what is damage in it.
@Suite("Reading resumed parts")
struct ResumedPartTests {
    static let wall: Int64 = 1_700_000_000_000_000_000

    static func line(_ seq: UInt64, _ t: UInt64, _ kind: TraceEvent.Kind) -> String {
        TraceEncoder.line(TraceEvent(seq: seq, time: t, kind: kind))
    }

    static func resumed(_ seq: UInt64, _ t: UInt64, part: Int, lost: UInt64, replay: Int) -> String {
        line(seq, t, .sessionStart(SessionInfo(app: "test", pid: 1, wallClock: wall, part: part, lost: lost, replayCount: replay)))
    }

    /// Part 1 of a small app (root 2, home 4 with a task 5, profile 7 that
    /// comes and goes), cut off after seq 16; then part 2: the resumed record,
    /// the replay of the live tree, and what follows.
    static func twoParts(replay: Int = 9, firstAfter: UInt64 = 40) -> [String] {
        var lines = [
            line(1, 0, .sessionStart(SessionInfo(app: "test", pid: 1, wallClock: wall))),
            line(2, 10, .interactorCreated(id: 1, type: "RootInteractor")),
            line(3, 20, .routerCreated(id: 2, type: "RootRouter", interactor: 1, interactorType: "RootInteractor")),
            line(4, 30, .launch(router: 2)),
            line(5, 40, .activate(interactor: 1)),
            line(6, 50, .interactorCreated(id: 3, type: "HomeInteractor")),
            line(7, 60, .routerCreated(id: 4, type: "HomeRouter", interactor: 3, interactorType: "HomeInteractor")),
            line(8, 70, .attach(parent: 2, child: 4)),
            line(9, 80, .activate(interactor: 3)),
            line(10, 90, .taskStart(task: 5, owner: 3, label: "watch")),
            line(11, 100, .interactorCreated(id: 6, type: "ProfileInteractor")),
            line(12, 110, .routerCreated(id: 7, type: "ProfileRouter", interactor: 6, interactorType: "ProfileInteractor")),
            line(13, 120, .attach(parent: 4, child: 7)),
            line(14, 130, .activate(interactor: 6)),
            line(15, 140, .mark(text: "profile shown")),
            line(16, 150, .detach(parent: 4, child: 7)),
        ]
        // The gap: 17...39 never arrived (the profile went away, a settings screen came).
        lines += [
            resumed(1, 10, part: 2, lost: 23, replay: replay),
            line(2, 10, .interactorCreated(id: 1, type: "RootInteractor")),
            line(3, 20, .routerCreated(id: 2, type: "RootRouter", interactor: 1, interactorType: "RootInteractor")),
            line(4, 30, .launch(router: 2)),
            line(5, 40, .activate(interactor: 1)),
            line(6, 50, .interactorCreated(id: 3, type: "HomeInteractor")),
            line(7, 60, .routerCreated(id: 4, type: "HomeRouter", interactor: 3, interactorType: "HomeInteractor")),
            line(8, 70, .attach(parent: 2, child: 4)),
            line(9, 80, .activate(interactor: 3)),
            line(10, 90, .taskStart(task: 5, owner: 3, label: "watch")),
            line(firstAfter, 5_000, .interactorCreated(id: 12, type: "SettingsInteractor")),
            line(firstAfter + 1, 5_010, .routerCreated(id: 13, type: "SettingsRouter", interactor: 12, interactorType: "SettingsInteractor")),
            line(firstAfter + 2, 5_020, .attach(parent: 4, child: 13)),
            line(firstAfter + 3, 5_030, .sessionEnd(reason: "exit")),
        ]
        return lines
    }

    static func read(_ lines: [String]) throws -> (ReadResult, TraceIntegrity, TraceState) {
        let (result, reader) = try readAll(text: lines.joined(separator: "\n") + "\n")
        var state = TraceState()
        for event in result.events { state.apply(event) }
        return (result, reader.integrity.including(state), state)
    }

    @Test("a resumed part is a new session: clean, counted, noted, and its state is the replayed tree")
    func cleanResumedPart() throws {
        let (result, integrity, state) = try Self.read(Self.twoParts())
        #expect(integrity.isUsable, "\(integrity.problems)")
        #expect(integrity.sessions == 2)
        #expect(integrity.resumedParts == 1)
        #expect(integrity.eventsLostInGaps == 23)
        #expect(result.notes.contains { $0.message.contains("part 2, 23 events lost") }, "\(result.notes)")
        #expect(!result.notes.contains { $0.message.contains("concatenated") })
        #expect(state.session?.part == 2)
        #expect(state.session?.lost == 23)
        #expect(state.session?.replayCount == 9)
        #expect(state.ended)
        #expect(state.roots == [2])
        #expect(state[4]?.children == [13])
        #expect(state.isRunning(task: 5))
        #expect(state[7] == nil)          // the profile, gone in the gap, is not in part 2
        #expect(state.firstUnknownID == nil)
    }

    @Test("the same records without the resumed record are damage: a gap nothing accounts for")
    func withoutResumedRecord() throws {
        var lines = Self.twoParts()
        let index = try #require(lines.firstIndex { $0.contains(#""part":2"#) })
        lines.remove(at: index)
        let (_, integrity, _) = try Self.read(lines)
        #expect(!integrity.isUsable)
        #expect(integrity.problems.contains { $0.kind == .sequenceOutOfOrder })
    }

    @Test("past the replay and the record after it, the usual checks are back")
    func allowanceEnds() throws {
        // A replay count of 8 (of 9): the allowance ends with the last replayed
        // record, so the jump from seq 10 to 40 after it is a gap nothing accounts for.
        let (_, short, _) = try Self.read(Self.twoParts(replay: 8))
        #expect(short.problems.map(\.kind) == [.sequenceGap], "\(short.problems)")
        let (_, exact, _) = try Self.read(Self.twoParts(replay: 9))
        #expect(exact.isUsable)
        // A longer count than the replay is harmless: the records after it only increase too.
        let (_, long, _) = try Self.read(Self.twoParts(replay: 12))
        #expect(long.isUsable)
    }

    @Test("in a replay, sequence numbers must still increase and time must not go backwards")
    func replayOrder() throws {
        var backwards = Self.twoParts()
        let seq9 = try #require(backwards.lastIndex { $0.hasPrefix(#"{"seq":9,"#) })
        backwards.swapAt(seq9, seq9 - 1)
        let (_, outOfOrder, _) = try Self.read(backwards)
        #expect(outOfOrder.problems.contains { $0.kind == .sequenceOutOfOrder }, "\(outOfOrder.problems)")

        var earlier = Self.twoParts()
        let last = try #require(earlier.lastIndex { $0.hasPrefix(#"{"seq":40,"#) })
        earlier[last] = Self.line(40, 5, .interactorCreated(id: 12, type: "SettingsInteractor"))
        let (_, timeBack, _) = try Self.read(earlier)
        #expect(timeBack.problems.map(\.kind) == [.timeBackwards], "\(timeBack.problems)")
    }

    @Test("a long gap between a replayed record and the next is no time jump")
    func noTimeJumpAcrossGap() throws {
        var lines = Self.twoParts()
        let day: UInt64 = 30 * 3600 * 1_000_000_000
        for seq: UInt64 in 40...43 {
            let index = try #require(lines.lastIndex { $0.hasPrefix(#"{"seq":\#(seq),"#) })
            lines[index] = lines[index].replacingOccurrences(of: #""t":\#(5_000 + (seq - 40) * 10)"#, with: #""t":\#(day + seq)"#)
        }
        let (_, integrity, _) = try Self.read(lines)
        #expect(integrity.isUsable, "\(integrity.problems)")
    }

    @Test("the analyzer takes a resumed part as a session of its own, from its replay")
    func analysis() throws {
        let (result, _, _) = try Self.read(Self.twoParts())
        var analyzer = TraceAnalyzer()
        for event in result.events { analyzer.consume(event) }
        let findings = analyzer.finish()
        #expect(analyzer.sessionCount == 2)
        // Part 1 ends cut short with the profile detached and alive: undecided, not a leak.
        #expect(findings.isEmpty, "\(findings)")
        #expect(analyzer.state.session?.isResumed == true)
        #expect(analyzer.state.nodeCount == 6)
    }

    @Test("part, lost and replay read back by the general parser; absent, the record starts part 1")
    func fields() throws {
        let info = SessionInfo(app: "app", pid: 7, wallClock: -5, part: 3, lost: 12_345, replayCount: 678)
        let event = TraceEvent(seq: 41, time: 99, kind: .sessionStart(info))
        let line = TraceEncoder.line(event)
        #expect(line == #"{"seq":41,"t":99,"ev":"session","v":1,"app":"app","pid":7,"wall":-5,"part":3,"lost":12345,"replay":678}"#)
        var parser = TraceLineParser()
        #expect(parser.parse(line) == .event(event))
        let old = #"{"seq":1,"t":0,"ev":"session","v":1,"app":"app","pid":7,"wall":-5}"#
        guard case .event(let parsed) = parser.parse(old), case .sessionStart(let first) = parsed.kind else {
            Issue.record("not a session record")
            return
        }
        #expect(first.part == 1 && first.lost == 0 && first.replayCount == 0 && !first.isResumed)
        #expect(first.partSummary == nil)
        // Part 1 is written as before: no part, lost or replay field.
        let partOne = TraceEncoder.line(TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: "app", pid: 7, wallClock: -5))))
        #expect(partOne == old)
        #expect(info.partSummary == "part 3, 12345 events lost")
        #expect(SessionInfo(app: "a", pid: 1, wallClock: 0, part: 2).partSummary == "part 2, no events lost")
        #expect(info.resumes(SessionInfo(app: "app", pid: 7, wallClock: -5)))
        #expect(!info.resumes(SessionInfo(app: "app", pid: 8, wallClock: -5)))
        #expect(!SessionInfo(app: "app", pid: 7, wallClock: -5).resumes(info))
    }
}
