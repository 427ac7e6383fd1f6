import Napkin
import NapkinTrace
import Synchronization
import Testing
import TestSupport

/// Counts hook calls; shared by the tests' interactors.
final class HookLog: Sendable {
    private let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func count(_ entry: String) -> Int { all.filter { $0 == entry }.count }
}

/// An interactor that logs its hooks as "<name>+" / "<name>-".
final actor TestInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let name: String
    nonisolated let log: HookLog
    var resignDelay: Duration?
    var activeDelay: Duration?
    /// How many times each hook yields (lets other work interleave; stress tests).
    var hookYields = 0

    init(_ name: String, log: HookLog = HookLog()) {
        self.name = name
        self.log = log
    }

    func setDelays(active: Duration?, resign: Duration?) {
        activeDelay = active
        resignDelay = resign
    }

    func setHookYields(_ count: Int) {
        hookYields = count
    }

    func didBecomeActive() async {
        log.add("\(name)+")
        if let activeDelay { try? await Task.sleep(for: activeDelay) }
        for _ in 0..<hookYields { await Task.yield() }
    }

    func willResignActive() async {
        log.add("\(name)-")
        if let resignDelay { try? await Task.sleep(for: resignDelay) }
        for _ in 0..<hookYields { await Task.yield() }
    }
}

/// A plain router whose `didLoad` can attach permanent children.
@MainActor
final class TestRouter: Router<TestInteractor> {
    var onLoad: (@MainActor (TestRouter) async -> Void)?
    private(set) var didLoadCount = 0

    convenience init(_ name: String, log: HookLog = HookLog()) {
        self.init(interactor: TestInteractor(name, log: log))
    }

    override func didLoad() async {
        didLoadCount += 1
        interactor.log.add("\(interactor.name).load")
        await onLoad?(self)
    }
}

/// A root that can be launched headless.
@MainActor
final class TestView: HeadlessViewControllable {}

@MainActor
final class TestRootRouter: LaunchRouter<TestInteractor, TestView> {
    /// Runs inside `didLoad` (nothing is logged unless it logs).
    var onLoad: (@MainActor (TestRootRouter) async -> Void)?

    convenience init(_ name: String = "root", log: HookLog = HookLog()) {
        self.init(interactor: TestInteractor(name, log: log), viewController: TestView())
    }

    override func didLoad() async {
        await onLoad?(self)
    }
}

/// Polls `condition` on the main actor until it holds or `timeout` passes;
/// returns whether it held. For effects that happen asynchronously (an
/// isolated deinit, a Task spawned by a deinit); never a timing assertion.
@MainActor
func eventually(timeout: Duration = hangBound, _ condition: @MainActor () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}

/// A one-shot signal a test can wait on.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withLock { $0.open } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

/// Waits (cooperatively) until the current task is cancelled.
func waitForCancellation() async {
    while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// Runs `work` in a new main-actor task and returns whether it finished
/// within `timeout`, so that a regression that hangs fails instead of
/// stopping the suite (a hung `work` stays suspended). A bound against
/// hanging, never a timing assertion.
@MainActor
func completes(within timeout: Duration = hangBound, _ work: @escaping @MainActor () async -> Void) async -> Bool {
    let done = Gate()
    Task { @MainActor in
        await work()
        done.open()
    }
    return await eventually(timeout: timeout) { done.isOpen }
}

/// A test (or suite) that misuses the router tree on purpose: misuses are
/// warnings, not assertion failures, for its task and the tasks it creates
/// (`RouterMisuse.withReporting`), and the warning lines are dropped (the
/// test checks the outcome; `RouterMisuseTests` checks the lines). Without
/// it a debug build would stop at the misuse (`docs/lifecycle.md`, 3.7).
struct RouterMisuseWarns: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it marks.
    var isRecursive: Bool { true }

    /// Runs the test with misuse reported as dropped warnings.
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await RouterMisuse.withReporting(.warning) {
            try await RouterMisuse.$warningSink.withValue({ _ in }) { try await function() }
        }
    }
}

extension Trait where Self == RouterMisuseWarns {
    /// The test misuses the router tree on purpose (see ``RouterMisuseWarns``).
    static var routerMisuseWarns: Self { Self() }
}
