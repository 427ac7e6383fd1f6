import Foundation
import NapkinTrace

/// The registry behind the UIKit and AppKit appearance observer: weak
/// references to the views of traced routers, each with a way to read where
/// its view controller is (an ``AppearanceSnapshot``), looked at on the main
/// run loop while at least one is registered: every ``interval`` (100 ms)
/// after a change or a new view, then, while nothing changes, twice as long
/// after each quiet poll, up to ``longestInterval`` (1.6 s). The quiet poll
/// after that wait makes it **dormant**: no timer at all, so a still screen
/// never wakes the app. A dormant poller polls when the main run loop is
/// about to sleep after waking for something else (a touch, a timer or a
/// network reply of the app's, an animation's end: whatever could have moved
/// a view), through ``mainRunLoopWillSleep()``, at most once per
/// ``interval``; a pass that comes sooner gets one trailing poll when the
/// interval is up, so the last change of a burst is seen. A poll that finds
/// a change starts the backing-off schedule again. Paused (the app is in the
/// background, see `AppearanceObserver`), it does not poll at all.
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
/// framework registers views, and calls ``mainRunLoopWillSleep()`` from a
/// main run loop observer, only on UIKit and AppKit (`AppearanceObserver`,
/// `MainRunLoopObserver`).
@MainActor
package final class AppearancePoller {
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

    /// How often the views are looked at after a change.
    let interval: TimeInterval
    /// The longest wait between two polls while nothing changes (16 intervals).
    var longestInterval: TimeInterval { interval * 16 }
    /// The wait before the next poll: ``interval``, doubled by each quiet poll.
    package private(set) var currentInterval: TimeInterval
    /// Paused: no poll until ``resume()``.
    private(set) var isPaused = false
    /// Dormant: quiet for the whole schedule, no timer; polls only when the
    /// main run loop woke for something else (``mainRunLoopWillSleep()``).
    package var isDormant: Bool { currentInterval > longestInterval }
    /// The poller's clock, in seconds (`systemUptime`; a test's own).
    private let clock: @MainActor () -> TimeInterval
    /// When the last poll was made, on ``clock``.
    private var lastPoll: TimeInterval = -.infinity
    /// The timer that fired made the last poll in this pass of the run loop:
    /// its own wake-up, not the app's, so ``mainRunLoopWillSleep()`` has nothing to look at.
    private var polledByTimer = false
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var timer: Timer?
    /// The tokens of ``follow(pauseOn:resumeOn:center:)``'s observers.
    private var lifecycleObservers: [any NSObjectProtocol] = []

    /// A poller that looks every `interval` seconds after a change while it
    /// watches a view, reading the time from `clock` (the system's uptime).
    package init(interval: TimeInterval = 0.1,
                 clock: @escaping @MainActor () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.interval = interval
        self.currentInterval = interval
        self.clock = clock
    }

    /// Watches `view`, whose view controller `read` looks at (capturing the
    /// controller weakly), and starts polling if it was not. Registering a
    /// view again starts it over (nothing reported until it is shown).
    package func register(_ view: any ViewControllable, reading read: @escaping @MainActor () -> AppearanceSnapshot?) {
        entries[ObjectIdentifier(view)] = Entry(view: view, read: read)
        // A new view: the navigation it belongs to is under way.
        currentInterval = interval
        schedule()
    }

    /// Pauses when one of `pauseOn` is posted on `center` and resumes on
    /// one of `resumeOn` (the app's background and foreground notifications,
    /// named by `AppearanceObserver`), from then on. A notification posted
    /// on the main thread (as UIKit and AppKit post these) takes effect at
    /// once; one posted elsewhere, on the main actor soon after. The
    /// observers are kept for the life of the poller.
    func follow(pauseOn: [Notification.Name], resumeOn: [Notification.Name], center: NotificationCenter = .default) {
        for (names, pauses) in [(pauseOn, true), (resumeOn, false)] {
            for name in names {
                lifecycleObservers.append(center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                    if Thread.isMainThread {
                        MainActor.assumeIsolated { self?.follow(pauses: pauses) }
                    } else {
                        Task { @MainActor in self?.follow(pauses: pauses) }
                    }
                })
            }
        }
    }

    private func follow(pauses: Bool) {
        if pauses { pause() } else { resume() }
    }

    /// Stops polling until ``resume()`` (the app went to the background:
    /// nothing on screen changes, and a poll would only wake it).
    func pause() {
        isPaused = true
        stopTimer()
    }

    /// Polls again, soon, after ``pause()`` (the app is coming back).
    func resume() {
        guard isPaused else { return }
        isPaused = false
        currentInterval = interval
        schedule()
    }

    /// Looks at every watched view once: reports each change of appearance
    /// through ``ViewControllable/reportAppearance(_:)``, drops the views
    /// that are gone or no longer listed, and stops polling when none is left.
    package func poll() {
        var changed = false
        for key in Array(entries.keys) {
            guard var entry = entries[key] else { continue }
            // A view, or a view controller, that was freed is off screen:
            // said once if it was last shown or covered (its router may be
            // gone too; the trace must not keep it on screen).
            let wasOnScreenOrCovered = entry.last == .shown || entry.last == .covered
            guard let view = entry.view, ObjectIdentifier(view) == key else {
                entries[key] = nil
                if wasOnScreenOrCovered { ViewReports.viewWasFreed(key) }
                changed = true
                continue
            }
            guard ViewReports.lists(view) else {
                entries[key] = nil
                continue
            }
            guard let snapshot = entry.read() else {
                entries[key] = nil
                if wasOnScreenOrCovered { view.reportAppearance(.removed) }
                changed = true
                continue
            }
            if let appearance = snapshot.next(after: entry.last) {
                entry.last = appearance
                entries[key] = entry
                view.reportAppearance(appearance)
                changed = true
            }
        }
        lastPoll = clock()
        // Quiet after the longest wait: dormant (twice the longest, kept there).
        currentInterval = changed ? interval : min(currentInterval * 2, longestInterval * 2)
        stopTimer()
        schedule()
    }

    /// The main run loop is about to sleep after a pass that did something
    /// (called by the main run loop's observer on Apple platforms): a dormant
    /// poller polls now, or, within ``interval`` of its last poll, schedules
    /// one poll for when the interval is up. Does nothing while a timer is
    /// scheduled (it polls anyway), after a pass whose only work was the
    /// poller's own timer, while paused or with nothing watched.
    package func mainRunLoopWillSleep() {
        let ownPass = polledByTimer
        polledByTimer = false
        guard !ownPass, timer == nil, !isPaused, !entries.isEmpty else { return }
        let since = clock() - lastPoll
        if since >= interval {
            poll()
        } else {
            schedule(in: interval - since)
        }
    }

    /// How many views are watched (for tests).
    var count: Int { entries.count }

    /// Whether the timer is scheduled (for tests).
    var isPolling: Bool { timer != nil }

    /// Schedules the next poll in ``currentInterval``, unless one is
    /// scheduled, the poller is paused or dormant, or it watches nothing.
    private func schedule() {
        guard !isDormant else { return }
        schedule(in: currentInterval)
    }

    /// Schedules one poll in `delay` seconds, unless one is scheduled, the
    /// poller is paused or it watches nothing.
    private func schedule(in delay: TimeInterval) {
        guard timer == nil, !isPaused, !entries.isEmpty else { return }
        let timer = Timer(timeInterval: delay, repeats: false) { [weak self] _ in
            guard let self else { return } // a poller freed while watching
            // Scheduled on the main run loop: it fires on the main thread.
            MainActor.assumeIsolated {
                self.timer = nil
                self.polledByTimer = true
                self.poll()
            }
        }
        timer.tolerance = delay / 2
        RunLoop.main.add(timer, forMode: .common)
        self.timer = timer
    }

    private func stopTimer() {
        timer?.invalidate()
        timer = nil
    }
}
