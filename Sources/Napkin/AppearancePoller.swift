import Foundation
import NapkinTrace

/// The registry behind the UIKit and AppKit appearance observer: weak
/// references to the views of traced routers, each with a way to read where
/// its view controller is (an ``AppearanceSnapshot``), looked at on the main
/// run loop about ten times a second while at least one is registered.
///
/// It adds nothing to any view or controller hierarchy and loads no view:
/// it only reads. It keeps nothing alive (the view and, inside the reading
/// closure, the controller are weak), and nothing happens when they are
/// deallocated: a poll that finds one gone drops its entry, and reports the
/// view ``ViewAppearance/removed`` if it was last shown or covered (a freed
/// view is off screen; its router, often freed just before it, would
/// otherwise read as leaving its view on screen). A poll also drops a view
/// whose router's trace no longer lists it (``ViewReports``), since nothing
/// it reports would be written. The timer runs only while the registry is
/// not empty.
///
/// Platform-neutral so that its bookkeeping is tested on Linux; the
/// framework registers views only on UIKit and AppKit (`AppearanceObserver`).
@MainActor
final class AppearancePoller {
    /// The poller the framework's observer uses.
    static let shared = AppearancePoller()

    /// One watched view.
    private struct Entry {
        /// The napkin's view, which reports (weak).
        weak var view: (any ViewControllable)?
        /// Where its view controller is now; `nil` once the controller is gone.
        let read: @MainActor () -> AppearanceSnapshot?
        /// The last appearance reported (`nil`: never shown yet).
        var last: ViewAppearance?
    }

    /// How often the views are looked at.
    let interval: TimeInterval
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var timer: Timer?

    /// A poller that looks every `interval` seconds while it watches a view.
    init(interval: TimeInterval = 0.1) {
        self.interval = interval
    }

    /// Watches `view`, whose view controller `read` looks at (capturing the
    /// controller weakly), and starts polling if it was not. Registering a
    /// view again starts it over (nothing reported until it is shown).
    func register(_ view: any ViewControllable, reading read: @escaping @MainActor () -> AppearanceSnapshot?) {
        entries[ObjectIdentifier(view)] = Entry(view: view, read: read)
        if timer == nil { startTimer() }
    }

    /// Looks at every watched view once: reports each change of appearance
    /// through ``ViewControllable/reportAppearance(_:)``, drops the views
    /// that are gone or no longer listed, and stops polling when none is left.
    func poll() {
        for key in Array(entries.keys) {
            guard var entry = entries[key] else { continue }
            // A view, or a view controller, that was freed is off screen:
            // said once if it was last shown or covered (its router may be
            // gone too; the trace must not keep it on screen).
            let wasOnScreenOrCovered = entry.last == .shown || entry.last == .covered
            guard let view = entry.view, ObjectIdentifier(view) == key else {
                entries[key] = nil
                if wasOnScreenOrCovered { ViewReports.viewWasFreed(key) }
                continue
            }
            guard ViewReports.lists(view) else {
                entries[key] = nil
                continue
            }
            guard let snapshot = entry.read() else {
                entries[key] = nil
                if wasOnScreenOrCovered { view.reportAppearance(.removed) }
                continue
            }
            if let appearance = snapshot.next(after: entry.last) {
                entry.last = appearance
                entries[key] = entry
                view.reportAppearance(appearance)
            }
        }
        if entries.isEmpty { stopTimer() }
    }

    /// How many views are watched (for tests).
    var count: Int { entries.count }

    /// Whether the timer is scheduled (for tests).
    var isPolling: Bool { timer != nil }

    private func startTimer() {
        let timer = Timer(timeInterval: interval, repeats: true) { [weak self] timer in
            guard let self else { return timer.invalidate() } // a poller freed while watching
            // Scheduled on the main run loop: it fires on the main thread.
            MainActor.assumeIsolated { self.poll() }
        }
        timer.tolerance = interval / 2
        RunLoop.main.add(timer, forMode: .common)
        self.timer = timer
    }

    private func stopTimer() {
        timer?.invalidate()
        timer = nil
    }
}
