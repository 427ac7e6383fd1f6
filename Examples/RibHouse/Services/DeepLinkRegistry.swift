/// A link the app can be opened with, e.g. from a push notification.
enum DeepLink: String, Sendable {
    /// "Pit temperature alert": show the pit board with a fresh reading.
    case pitBoard = "ribhouse://pit"
}

/// A router that can handle deep links.
@MainActor
protocol DeepLinkHandler: AnyObject, Sendable {
    func handle(_ link: DeepLink) async
}

/// Routes deep links to the napkins that registered for them. App-wide: one
/// instance, held by the LaunchNapkin's component, so it outlives every
/// napkin that registers with it.
///
/// That is why it must hold its handlers weakly: a handler goes away when its
/// napkin does. With `--bug service-keeps-child` it holds them strongly, like
/// a registry written as `var handlers: [DeepLinkHandler]`, and nobody
/// unregisters: every PitBoard router ever built stays alive.
@MainActor
final class DeepLinkRegistry {
    private struct WeakHandler {
        weak var handler: (any DeepLinkHandler)?
    }

    private enum Entry {
        case weak(WeakHandler)
        case strong(any DeepLinkHandler)

        var handler: (any DeepLinkHandler)? {
            switch self {
            case .weak(let box): box.handler
            case .strong(let handler): handler
            }
        }
    }

    private let keepsHandlersAlive: Bool
    private var entries: [(link: DeepLink, entry: Entry)]
    /// What to run when the latest order is ready ("your brisket is
    /// ready": a notification that reopens the order). Only `--bug
    /// closure-keeps-order` sets it, with a closure that captures the Order
    /// router, and never clears it.
    private var orderReadyCallback: (@MainActor () -> Void)?

    nonisolated init(keepsHandlersAlive: Bool) {
        self.keepsHandlersAlive = keepsHandlersAlive
        self.entries = []
    }

    /// Runs `callback` when the order is ready (kept until another order asks).
    func whenOrderReady(_ callback: @escaping @MainActor () -> Void) {
        orderReadyCallback = callback
    }

    /// Sends `link` to `handler` from now on, for as long as the handler lives.
    func register(_ handler: any DeepLinkHandler, for link: DeepLink) {
        prune()
        let entry: Entry = keepsHandlersAlive ? .strong(handler) : .weak(WeakHandler(handler: handler))
        entries.append((link, entry))
    }

    /// Sends `link` to every live handler registered for it; returns how many there were.
    @discardableResult
    func open(_ link: DeepLink) async -> Int {
        prune()
        let handlers = entries.filter { $0.link == link }.compactMap(\.entry.handler)
        for handler in handlers { await handler.handle(link) }
        return handlers.count
    }

    private func prune() {
        entries.removeAll { $0.entry.handler == nil }
    }
}
