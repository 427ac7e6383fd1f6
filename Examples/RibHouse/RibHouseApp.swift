import Napkin
import NapkinTrace

/// The app's life: build the tree, launch it, play the script, tear it down.
@MainActor
enum RibHouseApp {
    /// Runs the app; returns the exit status.
    static func run(_ options: Options, traceSetting: String?) async -> Int32 {
        let (status, root) = await launchAndPlay(options, traceSetting: traceSetting)
        // Every reference the app held is gone. The root router's deinit
        // deactivates the root interactor in a task; wait for it to finish
        // so the trace records the interactor's last events before exit.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(2)
        while root.interactor != nil && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        return status
    }

    /// Holds the root interactor without keeping it alive.
    struct WeakInteractor {
        weak var interactor: (any Interactable)?
    }

    /// Everything the app holds lives in this function's scope, and goes when it returns.
    private static func launchAndPlay(_ options: Options, traceSetting: String?) async -> (Int32, WeakInteractor) {
        let component = LaunchNapkinComponent(
            console: Console(quiet: options.quiet, traceSetting: traceSetting),
            pace: Pace(speed: options.speed),
            bugs: BugSwitch(injected: options.bug),
            playsRounds: options.loops != 1
        )
        NapkinTrace.mark(options.bug.map { "launch with --bug \($0.rawValue)" } ?? "launch")
        let router = await LaunchNapkinBuilder(dependency: component).build()
        let root = WeakInteractor(interactor: router.interactable)
        await router.launch()
        // The window shows the root view (UIKit would tell the view controller).
        router.viewControllable.changeAppearance(to: .shown)

        guard let window = router.viewControllable as? any Screen else {
            Console.error("rib-house: the root view is not a Screen")
            return (1, root)
        }
        Interruption.install()
        let script = Script(window: window, kitchen: component.announcementService,
                            deepLinks: component.deepLinks, pace: component.pace)
        var status: Int32 = 0
        var session = 1
        do {
            while options.loops == 0 || session <= options.loops {
                try await script.play(session: session)
                session += 1
            }
            try await script.idleBeforeClosing()
        } catch {
            switch error {
            case .failed(let message):
                Console.error(message)
                status = 1
            case .interrupted(let signal):
                NapkinTrace.mark("interrupted by signal \(signal)")
                Console.error("rib-house: interrupted; tearing the tree down")
            }
        }

        NapkinTrace.mark("tear down")
        await router.tearDown()
        return (status, root)
    }
}
