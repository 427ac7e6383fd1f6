import Napkin

/// PitBoard has nowhere to route; the protocol is its router's seam.
@MainActor
protocol PitBoardRouting: ViewableRouting, Sendable {}

/// What PitBoard tells its parent (nothing yet: the board only displays).
protocol PitBoardListener: AnyObject, Sendable {}

/// What the interactor shows on the pit board.
protocol PitBoardPresentable: Presentable, Sendable {
    var listener: (any PitBoardPresentableListener)? { get set }
    func show(_ reading: PitReading, alert: Bool)
}

/// Shows the smoker's temperature: polls the PitService in a task bound to
/// the active scope, so the polling stops when the guest logs out.
final actor PitBoardInteractor: PitBoardInteractable, PresentableInteractable, PitBoardPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any PitBoardPresentable
    weak var router: (any PitBoardRouting)?
    weak var listener: (any PitBoardListener)?
    private let pit: PitService
    private let pollInterval: Duration
    private let ignoresCancellation: Bool
    private var poller: Task<Void, Never>?

    init(presenter: any PitBoardPresentable, listener: any PitBoardListener, pit: PitService,
         pollInterval: Duration, ignoresCancellation: Bool) {
        self.presenter = presenter
        self.listener = listener
        self.pit = pit
        self.pollInterval = pollInterval
        self.ignoresCancellation = ignoresCancellation
    }

    func set(router: any PitBoardRouting) {
        self.router = router
    }

    func didBecomeActive() async {
        startPolling()
    }

    func willResignActive() async {
        // The bound poller is cancelled right after this returns.
        poller = nil
    }

    /// Starts the poller unless it runs already.
    func startPolling() {
        guard poller == nil else { return }
        let (pit, presenter, interval) = (pit, presenter, pollInterval)
        if ignoresCancellation {
            poller = task(named: "pit-poller") {
                await Self.pollIgnoringCancellation(pit: pit, presenter: presenter, every: interval)
            }
        } else {
            poller = task(named: "pit-poller") {
                await Self.poll(pit: pit, presenter: presenter, every: interval)
            }
        }
    }

    /// Reads the pit until the task is cancelled. The loop captures the
    /// service and the view, never the interactor, so it cannot keep it alive.
    private static func poll(pit: PitService, presenter: any PitBoardPresentable, every interval: Duration) async {
        while !Task.isCancelled {
            let reading = await pit.read()
            guard !Task.isCancelled else { return }
            await presenter.show(reading, alert: false)
            do {
                try await Task.sleep(for: interval)
            } catch {
                return // cancelled: the board resigned
            }
        }
    }

    /// --bug ignore-cancel: the same loop, written without cancellation in
    /// mind. It never checks `Task.isCancelled`, and it waits in a fresh
    /// unstructured `Task` (so that "a cancelled sleep cannot make it spin"),
    /// which does not inherit this task's cancellation. Cancelling the bound
    /// task changes nothing: it polls, and updates a view nobody sees, forever.
    private static func pollIgnoringCancellation(pit: PitService, presenter: any PitBoardPresentable,
                                                 every interval: Duration) async {
        while true {
            let reading = await pit.read()
            await presenter.show(reading, alert: false)
            await Task { try? await Task.sleep(for: interval) }.value
        }
    }

    /// Reads the pit once, now (a pit-alert deep link).
    func refreshNow() async {
        let reading = await pit.read()
        await presenter.show(reading, alert: true)
    }
}
