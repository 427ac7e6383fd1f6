/// Order screens built ahead of time, "for later": when the guest starts
/// browsing the menu, LoggedIn's router asks `OrderBuilder.prefetch` for the
/// Order screen of the dish in view, which builds it (router, interactor,
/// view) and keeps it here, never attached, so that a later tap on that dish
/// could show it at once (the script never makes that tap).
///
/// The app prefetches for repeat visits, so only when the session is played
/// in rounds (`--loop N`, N other than 1): the single default run builds no
/// screen ahead, and is the run `Examples/traces/clean.ndjson` recorded
/// (``isEnabled``). `--bug prefetch-leak` prefetches in every run.
///
/// App-wide: one instance, held by the LaunchNapkin's component, so it
/// outlives the login sessions that fill it and goes when the app closes. It
/// keeps the ``capacity`` newest screens and drops the older ones, which are
/// then deallocated: a cache that fills up in its first rounds and then stops
/// growing, which `growing-population` leaves alone.
///
/// With `--bug prefetch-leak`, the screens go to ``everyPrefetch`` instead: a
/// static cache without a capacity, like one written as `static var screens:
/// [any OrderRouting] = []`, which nobody empties. Every menu visit leaves one
/// more Order router (and interactor) alive, until the process exits.
@MainActor
final class OrderPrefetchCache {
    /// `--bug prefetch-leak`: the static cache that keeps every prefetched screen.
    static let everyPrefetch = OrderPrefetchCache(capacity: nil)

    /// The most screens kept (nil: no limit).
    let capacity: Int?
    /// Whether the app prefetches into this cache at all (the session is played in rounds).
    let isEnabled: Bool
    /// The screens kept, the newest last.
    private(set) var screens: [any OrderRouting] = []

    /// A cache that keeps at most `capacity` screens (nil: every one);
    /// `isEnabled` false: the app prefetches nothing into it.
    nonisolated init(capacity: Int?, isEnabled: Bool = true) {
        self.capacity = capacity
        self.isEnabled = isEnabled
    }

    /// Keeps `screen`; beyond the capacity, drops the oldest.
    func keep(_ screen: any OrderRouting) {
        screens.append(screen)
        if let capacity, screens.count > capacity {
            screens.removeFirst(screens.count - capacity)
        }
    }
}
