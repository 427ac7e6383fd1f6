import Napkin
import NapkinTrace
import Synchronization

/// Counts hook calls; shared by the tests' interactors.
final class HookLog: Sendable {
    private let entries = Mutex<[String]>([])
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

    init(_ name: String, log: HookLog = HookLog()) {
        self.name = name
        self.log = log
    }

    func setDelays(active: Duration?, resign: Duration?) {
        activeDelay = active
        resignDelay = resign
    }

    func didBecomeActive() async {
        log.add("\(name)+")
        if let activeDelay { try? await Task.sleep(for: activeDelay) }
    }

    func willResignActive() async {
        log.add("\(name)-")
        if let resignDelay { try? await Task.sleep(for: resignDelay) }
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
final class TestView: ViewControllable {}

@MainActor
final class TestRootRouter: LaunchRouter<TestInteractor, TestView> {
    convenience init(_ name: String = "root", log: HookLog = HookLog()) {
        self.init(interactor: TestInteractor(name, log: log), viewController: TestView())
    }
}
