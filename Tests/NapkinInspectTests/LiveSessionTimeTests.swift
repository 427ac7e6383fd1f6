import NapkinTrace
import Testing
@testable import napkin_inspect

/// ``LiveSession/passTime(at:)``: while the app is quiet, trace time passes
/// from the last event's time by the wall-clock time since that event arrived
/// (the clocks here are made up: nothing waits).
@Suite("live session: trace time while the app is quiet")
struct LiveSessionTimeTests {
    static let ms: UInt64 = 1_000_000

    /// A live session that read a root's launch at 0 ms and a mark at 5 ms, the mark arriving at wall time `wall`.
    static func session(markArrivingAt wall: UInt64, isLive: Bool = true) -> LiveSession {
        var fixture = RenderFixture(app: "quiet")
        fixture.launch(2, "RootRouter", at: 0)
        fixture.add(5, .mark(text: "step"))
        let session = LiveSession(number: 1, sourceName: "test", isLive: isLive, analysis: TraceAnalyzer.Options())
        for event in fixture.events { session.consume(.event(event), at: wall) }
        return session
    }

    static func time(_ session: LiveSession) -> UInt64 { session.withState { $0.analyzer.state.time } }

    @Test("from the last event's time, by the wall-clock time since it arrived, at every look")
    func fromTheLastEvent() {
        let wall = 1_000 * Self.ms
        let session = Self.session(markArrivingAt: wall)
        session.passTime(at: wall + 30 * Self.ms)
        #expect(Self.time(session) == 35 * Self.ms)
        // A later look counts from the event again, not from the previous look.
        session.passTime(at: wall + 50 * Self.ms)
        #expect(Self.time(session) == 55 * Self.ms)
        // Not before the event arrived (another thread's clock may lag a little).
        session.passTime(at: wall - 1)
        #expect(Self.time(session) == 55 * Self.ms)
    }

    @Test("an event older than the time already passed: time passes on from the analysis's time then")
    func olderEventAfterALook() {
        let wall = 1_000 * Self.ms
        let session = Self.session(markArrivingAt: wall)
        session.passTime(at: wall + 50 * Self.ms)
        #expect(Self.time(session) == 55 * Self.ms)
        session.consume(.event(TraceEvent(seq: 100, time: 20 * Self.ms, kind: .mark(text: "late"))), at: wall + 60 * Self.ms)
        #expect(Self.time(session) == 55 * Self.ms, "the analysis never goes back in time")
        session.passTime(at: wall + 70 * Self.ms)
        #expect(Self.time(session) == 65 * Self.ms)
        // Events after that look count from their own arrival.
        session.consume(.event(TraceEvent(seq: 101, time: 80 * Self.ms, kind: .mark(text: "next"))), at: wall + 90 * Self.ms)
        session.passTime(at: wall + 95 * Self.ms)
        #expect(Self.time(session) == 85 * Self.ms)
    }

    @Test("no time passes for a file or pipe read to its end, or once the input ended")
    func notWhenNotLive() {
        let wall = 1_000 * Self.ms
        let file = Self.session(markArrivingAt: wall, isLive: false)
        file.passTime(at: wall + 30 * Self.ms)
        #expect(Self.time(file) == 5 * Self.ms)
        let ended = Self.session(markArrivingAt: wall)
        ended.finish(rejection: nil, integrity: nil)
        ended.passTime(at: wall + 30 * Self.ms)
        #expect(Self.time(ended) == 5 * Self.ms)
    }
}
