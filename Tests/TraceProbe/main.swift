// TraceProbe: a small traced program that the NapkinTrace tests run as a child
// process, to check what only a real process can show: what reaches the trace
// when the process returns from main, calls exit() or crashes, and that a
// broken destination (closed pipe, full disk, bad path) neither crashes nor
// stalls the app.
//
// Usage: TraceProbe MODE [ARG]
//   exit [MARKS]      run the app, write MARKS marks ("m 1"...), return from main
//   exit-call [MARKS] the same, then call exit(0) with the tree still alive
//   crash [MARKS]     run the app, flush, write MARKS marks ("early 1"...), sleep 1 s
//                     (many flush intervals), then trap
//   background [MARKS] run the app, write MARKS marks ("bg 1"...), flush as
//                     entering the background does on iOS, "flushed" on
//                     stderr, then wait to be killed (BackgroundMode.swift)
//   churn N           N create/attach/detach/release cycles of a child, as fast
//                     as possible; then "done" on stderr and exit status 0
//   bootstrap PATH    like exit, tracing to PATH via NapkinTrace.bootstrap
//   alloc N           with tracing off, heap bytes kept by N calls of the
//                     creation hook ("hook-bytes B"), the same with a recorder
//                     scope open ("recording-hook-bytes B"), N attach hooks of
//                     an untraced parent ("attach-hook-bytes B", "adopted K"),
//                     N appearance reports of an untraced view
//                     ("view-report-bytes B"), plus a control that allocates
//   emit-alloc N      heap allocations of N create/attach/detach/release
//                     cycles with tracing off ("off-allocations A"), then of N
//                     cycles recorded to an NDJSON file, the writer's work
//                     included ("on-allocations A", "events E"), after a
//                     warm-up that names every type; "unsupported" where
//                     allocations cannot be counted (RuntimeCounters)
//   flood N SIZE TAG [HUGE]
//                     N marks "TAG i xxx...", each SIZE bytes long, then HUGE
//                     marks of about 20 kB (hugeMarkText(TAG, k)), as fast as
//                     possible; then NapkinTrace.flush() (the trace is written
//                     however long a slow reader takes: only the end record is
//                     left for the exit) and return from main
//   send FILE ...     stream FILE's bytes to the socket NAPKIN_TRACE names (SendMode.swift)
//   follow FILE       stream FILE's lines as they are appended, to its end record (SendMode.swift)
//   stuck-hook [clean] a napkin whose didBecomeActive never returns, detached
//                     (with "clean": one that reads in a bound task) (StuckHookMode.swift)
//   loaded SECONDS    both cores kept busy by two threads; a root with a heartbeat
//                     napkin (a short bound task every 20 ms) and a screen whose
//                     bound task needs the main actor to finish; the screen is
//                     detached, the main thread blocked SECONDS, then the screen
//                     released; returns once the screen's task has ended; with
//                     detection on (NAPKIN_DETECT), NapkinDetector.statistics on
//                     standard output ("statistics findings=F ...")
//   detect SCENARIO [N] the in-app detector in an app that leaks routers on purpose
//                     (log|assert|blocks|throws|many|env, see DetectMode.swift)
//   retainer-stress SHAPE N
//                     N retainer searches while the app attacks them (cache|moved|mirror,
//                     see RetainerStressMode.swift); one verdict line each, then "done"
//   exit-leak HOW AFTER_MS [MODE] a retain cycle leaked, then the app ends AFTER_MS
//                     after the detach: return|exit|term (ExitLeakMode.swift)
//
// Options, before MODE, applied before anything else runs:
//   --uid N           become user (and group) N; only when run as root
//   --read-only-fd N  open /dev/null read-only as descriptor N
//
// Tracing is switched on by the caller with NAPKIN_TRACE, except in bootstrap mode.

import Napkin
import NapkinTrace
import Synchronization
import NapkinLibc

// MARK: - The app: a root, a home screen with a feed, a profile that comes and goes

final actor RootInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

/// Watches announcements for as long as it is active (a task that only ends when cancelled).
final actor HomeInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "announcements") {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}

/// Refreshes once when it becomes active (a task that completes on its own).
final actor FeedInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "refresh") {}
    }
}

final actor ProfileInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "avatar") {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
}

@MainActor final class RootView: HeadlessViewControllable {}

@MainActor final class RootRouter: LaunchRouter<RootInteractor, RootView> {}

@MainActor final class HomeRouter: Router<HomeInteractor> {
    override func didLoad() async {
        await attachChild(FeedRouter(interactor: FeedInteractor()))
    }
}

@MainActor final class FeedRouter: Router<FeedInteractor> {}

@MainActor final class ProfileRouter: Router<ProfileInteractor> {}

/// Launches the tree, shows home (with its feed), opens and closes a profile.
/// Returns the routers the app keeps.
@MainActor
func runApp() async -> [AnyObject] {
    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root.launch()
    let home = HomeRouter(interactor: HomeInteractor())
    await root.attachChild(home)
    NapkinTrace.mark("home shown")
    do {
        let profile = ProfileRouter(interactor: ProfileInteractor())
        await home.attachChild(profile)
        await home.detachChild(profile)
    }
    await waitForQuietTrace()
    NapkinTrace.mark("profile closed")
    return [root, home]
}

/// Waits until the trace is quiet: nothing traced during three pauses of
/// 20 ms in a row (at most a minute). What the app let go (the closed
/// profile's deallocations, its task's end) is then in the trace however
/// slow the machine, so every mode's trace holds the same decided checks
/// (a mode killed right after this once left one undecided on a loaded
/// machine, where the crash mode, a second later, had it decided).
@MainActor
func waitForQuietTrace() async {
    var last = NapkinTrace.processSequenceNumber
    var still = 0
    let deadline = ContinuousClock.now + .seconds(60)
    while still < 3 && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(20))
        let now = NapkinTrace.processSequenceNumber
        still = now == last ? still + 1 : 0
        last = now
    }
}

// MARK: - A loaded machine

/// Starts a short bound task every 20 ms while active: events from other threads.
final actor HeartbeatInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "heartbeat") { [weak self] in
            while !Task.isCancelled {
                await self?.beat()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    private func beat() {
        task(named: "beat") {}
    }
}

@MainActor final class HeartbeatRouter: Router<HeartbeatInteractor> {}

/// Polls until cancelled, then tells the main actor it stopped (as a presenter
/// update would): its end needs the main actor.
final actor ScreenInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "screen-poll") {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            await MainActor.run { ScreenState.stopped = true }
        }
    }
}

@MainActor final class ScreenRouter: Router<ScreenInteractor> {}

@MainActor enum ScreenState {
    static var stopped = false
}

/// Cleared to stop the threads of ``saturateCores(_:)``.
let coresBusy = Atomic<Bool>(true)

/// Spins `threads` threads until ``coresBusy`` is cleared; returns them, to
/// be joined with ``joinThreads(_:)`` (ThreadSanitizer reports a thread
/// never joined as a leak).
func saturateCores(_ threads: Int) -> [pthread_t] {
    var started: [pthread_t] = []
    for _ in 0..<threads {
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { _ in
            var x: UInt64 = 1
            while coresBusy.load(ordering: .relaxed) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
            return UnsafeMutableRawPointer(bitPattern: UInt(truncatingIfNeeded: x | 1))
        }, nil)
        if status == 0 { started.append(thread) }
    }
    return started
}

/// Stops the threads of ``saturateCores(_:)`` and waits for them.
func joinThreads(_ threads: [pthread_t]) {
    coresBusy.store(false, ordering: .relaxed)
    for thread in threads { pthread_join(thread, nil) }
}

// MARK: - Modes

func fail(_ message: String) -> Never {
    writeStderr("TraceProbe: \(message)\n")
    exit(64)
}

/// Writes `text` to standard error, unbuffered; gives up after a second
/// without room (a test may leave standard error unread on purpose).
func writeStderr(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            var entry = pollfd(fd: 2, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, 1000) > 0 else { return }
            let n = write(2, raw.baseAddress! + offset, min(raw.count - offset, Int(PIPE_BUF)))
            if n <= 0 { return }
            offset += n
        }
    }
}

/// The arguments after the options: `arguments[1]` is the mode.
var arguments = CommandLine.arguments

@MainActor func count(_ index: Int, default value: Int) -> Int {
    guard arguments.count > index else { return value }
    guard let n = Int(arguments[index]), n >= 0 else { fail("not a count: \(arguments[index])") }
    return n
}

/// The text of the `k`th huge mark of `flood` with `tag`: about 20 kB of
/// multi-byte characters, quotes and newlines (the tests rebuild it to compare).
func hugeMarkText(_ tag: String, _ k: Int) -> String {
    "\(tag) huge \(k) " + String(repeating: "\u{e9}\"\n\u{20ac}\u{1f600}ab", count: 1500)
}

while arguments.count > 2, arguments[1].hasPrefix("--") {
    let option = arguments[1]
    guard let n = Int32(arguments[2]) else { fail("\(option) needs a number") }
    switch option {
    case "--uid":
        guard getuid() == 0 || getuid() == n else { fail("--uid needs root") }
        guard setgid(gid_t(n)) == 0, setuid(uid_t(n)) == 0 else { fail("cannot become user \(n): errno \(errno)") }
    case "--read-only-fd":
        let fd = open("/dev/null", O_RDONLY)
        guard fd >= 0, dup2(fd, n) == n else { fail("cannot open /dev/null as fd \(n)") }
        if fd != n { close(fd) }
    default:
        fail("unknown option \(option)")
    }
    arguments.removeSubrange(1...2)
}

/// Heap bytes in use, from glibc's `mallinfo2()`; `nil` where it cannot be called.
func heapBytesInUse() -> Int? {
    #if os(Linux) && arch(x86_64)
    // mallinfo2 is not in Swift's Glibc module. Its 80-byte result is returned
    // through a hidden pointer passed as the first argument (System V x86-64).
    typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallinfo2") else { return nil }
    let mallinfo2 = unsafeBitCast(symbol, to: MallInfo2.self)
    var fields: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    _ = withUnsafeMutableBytes(of: &fields) { mallinfo2($0.baseAddress!) }
    return fields.4 + fields.7 // hblkhd (mmapped) + uordblks (in use)
    #else
    return nil
    #endif
}

let mode = arguments.count > 1 ? arguments[1] : ""
/// The routers the app holds on to, alive until the process ends.
var kept: [AnyObject] = []

switch mode {
case "exit", "exit-call":
    kept = await runApp()
    let marks = count(2, default: 0)
    for i in 0..<marks { NapkinTrace.mark("m \(i + 1)") }
    if mode == "exit-call" {
        exit(0)
    }

case "crash":
    kept = await runApp()
    // The creation lines of the routers just made are worked out off the main
    // thread, and the records after them wait for that (docs/tracing.md,
    // "Delivery"): written here first, so that what follows is the guarantee
    // under test, every event older than the flush interval survives a crash.
    NapkinTrace.flush()
    let marks = count(2, default: 100)
    for i in 0..<marks { NapkinTrace.mark("early \(i + 1)") }
    try? await Task.sleep(for: .seconds(1))
    NapkinTrace.mark("late")
    fatalError("TraceProbe: deliberate crash")

case "background":
    kept = await backgroundMode(marks: count(2, default: 100))

case "churn":
    let cycles = count(2, default: 1000)
    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root.launch()
    for _ in 0..<cycles {
        let profile = ProfileRouter(interactor: ProfileInteractor())
        await root.attachChild(profile)
        await root.detachChild(profile)
    }
    kept = [root]
    writeStderr("done\n")

case "bootstrap":
    guard arguments.count > 2 else { fail("bootstrap needs a path") }
    do {
        NapkinTrace.bootstrap(try NDJSONTraceSink(path: arguments[2]))
    } catch {
        fail("\(error)")
    }
    kept = await runApp()
    NapkinTrace.mark("bootstrapped")

case "alloc":
    let calls = count(2, default: 100_000)
    // Resolve the environment first: the one-time read of NAPKIN_TRACE allocates.
    guard TraceContext.current() == nil else { fail("alloc needs tracing off (unset NAPKIN_TRACE)") }
    guard let start = heapBytesInUse() else {
        print("unsupported")
        exit(0)
    }
    var traced = 0
    for _ in 0..<calls where TraceContext.current() != nil { traced += 1 }
    let hook = heapBytesInUse()! - start
    // A recorder scope active elsewhere sends the hook down its slower path
    // (a task-local read): still nothing kept, still off here.
    TraceContext.beginRecording()
    let recordingStart = heapBytesInUse()!
    for _ in 0..<calls where TraceContext.current() != nil { traced += 1 }
    let recordingHook = heapBytesInUse()! - recordingStart
    TraceContext.endRecording()
    // The attach hook of an untraced parent, on children that stay alive: an
    // adoption would leave a trace binding in each. One warm-up round first.
    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    let children = (0..<1_000).map { _ in ProfileRouter(interactor: ProfileInteractor()) }
    for child in children { root.traceAttach(of: child) }
    let attachStart = heapBytesInUse()!
    for _ in 0..<max(1, calls / children.count) {
        for child in children { root.traceAttach(of: child) }
    }
    let attachHook = heapBytesInUse()! - attachStart
    let adopted = children.filter { $0.tracer != nil || $0.traceID != 0 }.count
    kept = [root] + children
    // An untraced view reporting its appearance: no entry to find, nothing kept.
    for _ in 0..<100 { root.viewControllable.reportAppearance(.shown) } // warm-up
    let viewStart = heapBytesInUse()!
    for call in 0..<calls { root.viewControllable.reportAppearance(call % 2 == 0 ? .shown : .covered) }
    let viewReports = heapBytesInUse()! - viewStart
    // A control that does allocate, so a reading of 0 means something.
    var boxes: [[Int]] = []
    boxes.reserveCapacity(100)
    let controlStart = heapBytesInUse()!
    for i in 0..<100 { boxes.append([i, i, i, i]) }
    let control = heapBytesInUse()! - controlStart
    print("calls \(calls)")
    print("traced \(traced)")
    print("hook-bytes \(hook)")
    print("recording-hook-bytes \(recordingHook)")
    print("attach-hook-bytes \(attachHook)")
    print("adopted \(adopted)")
    print("view-report-bytes \(viewReports)")
    print("control-bytes \(control) \(boxes.count)")

case "emit-alloc":
    kept = await emitAllocations(cycles: count(2, default: 10_000))

case "flood":
    let marks = count(2, default: 1000)
    let size = count(3, default: 100)
    guard arguments.count > 4 else { fail("flood needs a tag") }
    let tag = arguments[4]
    let huge = count(5, default: 0)
    for i in 0..<marks {
        let text = "\(tag) \(i) "
        NapkinTrace.mark(text + String(repeating: "x", count: max(0, size - text.utf8.count)))
    }
    for k in 0..<huge { NapkinTrace.mark(hugeMarkText(tag, k)) }
    NapkinTrace.flush()

case "loaded":
    let seconds = count(2, default: 3)
    let spinners = saturateCores(2)
    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root.launch()
    await root.attachChild(HeartbeatRouter(interactor: HeartbeatInteractor()))
    var screen: ScreenRouter? = ScreenRouter(interactor: ScreenInteractor())
    await root.attachChild(screen!)
    try? await Task.sleep(for: .milliseconds(100))
    await root.detachChild(screen!)
    // The main thread is blocked right after the detach, before the release.
    let until = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < until {}
    screen = nil
    for _ in 0..<400 where !ScreenState.stopped { try? await Task.sleep(for: .milliseconds(25)) }
    joinThreads(spinners)
    kept = [root]
    writeStderr(ScreenState.stopped ? "done\n" : "screen task still running\n")
    if NapkinDetector.isEnabled { writeStdout(statisticsLine()) }

case "stuck-hook":
    await stuckHookMode(clean: arguments.count > 2 && arguments[2] == "clean")

case "send":
    sendMode(arguments)

case "detect":
    await detectMode(arguments)

case "follow":
    followMode(arguments)

case "connections":
    connectionsMode(arguments)

case "retainer-stress":
    await retainerStressMode(arguments)

case "exit-leak":
    await exitLeakMode(arguments)

default:
    fail("usage: TraceProbe [--uid N] [--read-only-fd N] exit|exit-call|crash|background [MARKS] | churn N | bootstrap PATH | alloc N | flood N SIZE TAG [HUGE] | loaded SECONDS | send FILE [DELAY_MS [HOLD_MS [STATUS]]] | follow FILE | connections N HOLD_MS | stuck-hook [clean] | detect log|assert|blocks|throws|many|env [N] | retainer-stress cache|moved|mirror N | exit-leak return|exit|term AFTER_MS [log|assert|quiet]")
}
