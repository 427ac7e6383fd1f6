@testable import NapkinTesting
import NapkinTrace
import Testing

/// Under `napkin-inspect check -- swift test` the process trace has every
/// test's objects: each test's tally counts its own (made inside its scope,
/// or a task of one of its interactors), and its wait is woken by its own
/// events only. The events are fed to ``ScopeTallies/note(_:)`` as the
/// process tracer feeds them (ids far above what a test run hands out).
@Suite("ScopeTallies: each test's own objects in the process trace", .timeLimit(.minutes(1)))
struct ScopeTalliesTests {
    static let hour = Duration.seconds(3600)
    static let wait = VerdictWait(grace: hour, viewGrace: hour, pollInterval: hour)
    static let base: NodeID = 1 << 60

    @Test("made inside the scope, or a task of the scope's interactor started anywhere: counted there; gone: uncounted")
    func attribution() {
        let mine = ScopeActivity()
        let other = ScopeActivity()
        let (router, interactor, task, foreign) = (Self.base + 1, Self.base + 2, Self.base + 3, Self.base + 4)
        ScopeTallies.withScope(mine) {
            ScopeTallies.note(.interactorCreated(id: interactor, type: "I"))
            ScopeTallies.note(.routerCreated(id: router, type: "R", interactor: interactor, interactorType: "I"))
        }
        ScopeTallies.withScope(other) { ScopeTallies.note(.routerCreated(id: foreign, type: "R", interactor: 0, interactorType: "")) }
        // Started outside any scope (an interactor's hook), by an interactor of `mine`.
        ScopeTallies.note(.taskStart(task: task, owner: interactor, label: nil))
        #expect(mine.made == 3 && mine.pending == 3)
        #expect(other.made == 1 && other.pending == 1)
        let otherGeneration = other.generation
        ScopeTallies.note(.taskEnd(task: task, outcome: .completed))
        ScopeTallies.note(.deallocated(id: router))
        ScopeTallies.note(.deallocated(id: interactor))
        #expect(mine.pending == 0 && mine.made == 3)
        #expect(other.generation == otherGeneration, "another test's events do not wake this one")
        ScopeTallies.note(.deallocated(id: foreign))
        #expect(other.pending == 0)
    }

    @Test("under check: the wait ends with the deinit of the test's last object, while a busy neighbour's object lives on")
    func quietOnOwnObjects() async throws {
        let mine = ScopeActivity()
        let neighbour = ScopeActivity()
        let clock = AppTimeClock(pause: Self.hour, waking: mine)
        let (router, other) = (Self.base + 11, Self.base + 12)
        ScopeTallies.withScope(mine) { ScopeTallies.note(.routerCreated(id: router, type: "R", interactor: 0, interactorType: "")) }
        ScopeTallies.withScope(neighbour) { ScopeTallies.note(.routerCreated(id: other, type: "R", interactor: 0, interactorType: "")) }
        let release = Task.detached {
            // The neighbour keeps the process trace busy, then this test's router goes.
            for _ in 0..<50 { ScopeTallies.note(.load(router: other)) }
            ScopeTallies.note(.deallocated(id: router))
        }
        try await Self.wait.quiet(scope: mine, clock: clock)
        await release.value
        #expect(mine.pending == 0)
        #expect(clock.ticks == 0, "woken by the deinit, not by a tick")
        #expect(neighbour.pending == 1, "the neighbour's router is still alive: the wait did not wait for it")
        #expect(neighbour.events == 51)
        ScopeTallies.note(.deallocated(id: other))
    }

    @Test("under check: nothing pending when the test returns: no wait, no clock")
    func nothingPending() async throws {
        let mine = ScopeActivity()
        let clock = AppTimeClock(pause: Self.hour, waking: mine)
        try await Self.wait.quiet(scope: mine, clock: clock)
        #expect(clock.ticks == 0)
    }
}
