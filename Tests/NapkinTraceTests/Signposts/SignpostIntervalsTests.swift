import NapkinTrace
import Testing
import TestSupport

/// Which lifecycle event begins and which ends each signpost interval
/// (``SignpostIntervals``), through the seam Apple's signposter sits behind,
/// and the tracer's switch: events reach the signposts as they are emitted.
@Suite("signpost intervals")
struct SignpostIntervalsTests {
    /// Feeds `kinds` to fresh intervals; returns what the signposter got.
    static func signposts(_ kinds: [TraceEvent.Kind]) -> [String] {
        let recording = RecordingSignposter()
        let intervals = SignpostIntervals(emitter: RecordingEmitter(recording))
        for kind in kinds { intervals.observe(kind) }
        return recording.lines
    }

    @Test("a router's attach, its interactor's activation, a task and a view make nested intervals, ended in order")
    func lifecycle() {
        let lines = Self.signposts([
            .routerCreated(id: 1, type: "RootRouter", interactor: 2, interactorType: "RootInteractor"),
            .launch(router: 1),
            .activate(interactor: 2),
            .routerCreated(id: 3, type: "ChildRouter", interactor: 4, interactorType: "ChildInteractor"),
            .attach(parent: 1, child: 3),
            .activate(interactor: 4),
            .taskStart(task: 5, owner: 4, label: "load"),
            .view(router: 3, appearance: .shown),
            .view(router: 3, appearance: .covered),
            .taskEnd(task: 5, outcome: .cancelled),
            .deactivate(interactor: 4),
            .detach(parent: 1, child: 3),
            .mark(text: "done"),
        ])
        #expect(lines == [
            "begin Router attached RootRouter #1",
            "begin Interactor active RootInteractor #2",
            "begin Router attached ChildRouter #3",
            "begin Interactor active ChildInteractor #4",
            "begin Bound task ChildInteractor load #5",
            "begin View visible ChildRouter #3",
            "end View visible ChildRouter #3",
            "end Bound task ChildInteractor load #5",
            "end Interactor active ChildInteractor #4",
            "end Router attached ChildRouter #3",
            "event Mark #0 done",
        ])
    }

    @Test("a repeated begin and an end without a begin send nothing; a view shown again begins again")
    func wellFormedPairs() {
        let lines = Self.signposts([
            .routerCreated(id: 1, type: "R", interactor: 2, interactorType: "I"),
            .deactivate(interactor: 2),
            .activate(interactor: 2),
            .activate(interactor: 2),
            .view(router: 1, appearance: .removed),
            .view(router: 1, appearance: .shown),
            .view(router: 1, appearance: .shown),
            .view(router: 1, appearance: .removed),
            .view(router: 1, appearance: .shown),
        ])
        #expect(lines == ["begin Interactor active I #2", "begin View visible R #1", "end View visible R #1", "begin View visible R #1"])
    }

    @Test("a deallocation ends what its object left open, and the session's end ends the rest")
    func deallocationAndEnd() {
        let lines = Self.signposts([
            .routerCreated(id: 1, type: "Leaky", interactor: 2, interactorType: "LeakyInteractor"),
            .launch(router: 1),
            .activate(interactor: 2),
            .view(router: 1, appearance: .shown),
            .deallocated(id: 1),
            .sessionEnd(reason: "exit"),
        ])
        #expect(lines == [
            "begin Router attached Leaky #1",
            "begin Interactor active LeakyInteractor #2",
            "begin View visible Leaky #1",
            "end Router attached Leaky #1",
            "end View visible Leaky #1",
            "end Interactor active LeakyInteractor #2",
        ])
    }

    @Test("a finding is an event naming its rule, type and message")
    func finding() {
        let recording = RecordingSignposter()
        let intervals = SignpostIntervals(emitter: RecordingEmitter(recording))
        let finding = Finding(rule: .notDeallocated, subject: .router, type: "LoggedInRouter", id: 7, seqs: [3], time: 0,
                              message: "was not deallocated")
        intervals.found(finding)
        #expect(recording.lines == ["event Finding #7 not-deallocated: LoggedInRouter: was not deallocated"])
    }

    @Test("a tracer with signposts sends each event as it is emitted, and its end closes what is open")
    func tracerSeam() {
        let recording = RecordingSignposter()
        let tracer = Tracer(sink: nil, signposts: SignpostIntervals(emitter: RecordingEmitter(recording)))
        tracer.emit(.interactorCreated(id: 1, type: "I"))
        tracer.emit(.activate(interactor: 1))
        #expect(recording.lines == ["begin Interactor active I #1"], "signposted on emit, not when the writer runs")
        tracer.shutdown(reason: "finished")
        #expect(recording.lines == ["begin Interactor active I #1", "end Interactor active I #1"])
    }

    @Test("NAPKIN_SIGNPOSTS: on and dynamic-tracing, poi and points-of-interest, off and empty; anything else is refused")
    func environment() throws {
        #expect(try NapkinSignposts.category(fromEnvironment: "on") == .dynamicTracing)
        #expect(try NapkinSignposts.category(fromEnvironment: "dynamic-tracing") == .dynamicTracing)
        #expect(try NapkinSignposts.category(fromEnvironment: "poi") == .pointsOfInterest)
        #expect(try NapkinSignposts.category(fromEnvironment: "points-of-interest") == .pointsOfInterest)
        #expect(try NapkinSignposts.category(fromEnvironment: "off") == nil)
        #expect(try NapkinSignposts.category(fromEnvironment: "") == nil)
        #expect(throws: TraceSinkError.self) { try NapkinSignposts.category(fromEnvironment: "yes") }
    }
}
