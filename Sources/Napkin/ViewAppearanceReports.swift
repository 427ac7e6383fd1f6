import NapkinTrace
// A view layer names appearances without importing NapkinTrace.
@_exported import enum NapkinTrace.ViewAppearance

extension ViewControllable {
    /// Tells the trace where this napkin's view is now: ``ViewAppearance/shown``
    /// when it appeared, ``ViewAppearance/covered`` when it disappeared but
    /// stays in its place (a screen pushed or presented over it, another tab
    /// selected, hidden), ``ViewAppearance/removed`` when it was taken out of
    /// its parent (popped by Back or a swipe, dismissed, removed from its
    /// container).
    ///
    /// The trace analysis uses these reports to catch the back-navigation
    /// leak (the view is gone, the router still attached:
    /// `view-gone-still-attached`) and its opposite (the router left the
    /// tree, its view is still shown: `view-shown-after-detach`).
    ///
    /// On UIKit and AppKit a traced ``ViewableRouter`` reports its view by
    /// itself; call this from a headless view layer (Linux, tests, a
    /// command-line app), or from a view that does its own containment:
    ///
    /// ```swift
    /// func pop(_ child: any ViewControllable) {
    ///     stack.removeAll { $0 === child }
    ///     child.reportAppearance(.removed)
    ///     stack.last?.reportAppearance(.shown)
    /// }
    /// ```
    ///
    /// A report about a view whose router is untraced does nothing; with
    /// tracing off it costs a check of an empty table. The same appearance
    /// reported twice in a row is written once. A view can outlive its
    /// router: once its router is gone, a shown view's reports are written
    /// until it disappears.
    public func reportAppearance(_ appearance: ViewAppearance) {
        ViewReports.report(appearance, of: self)
    }
}

/// Which traced router each view belongs to, so that a view can report its
/// appearance without knowing its router.
///
/// Only traced viewable routers are listed (tracing off: the table stays
/// empty), by their view's identity, with their tracer and id and a weak
/// reference to the view that tells a reused address from the view itself:
/// never a strong reference, so reporting changes no lifetime.
///
/// A view can outlive its router: a parent that detaches a child and drops
/// it without dismissing its view, or a dismissal that finishes after the
/// router's deinit. So a router whose view is shown when it is deallocated
/// leaves its entry in place until the view reports that it went (or the view
/// is freed); the trace then says when the view of the gone router went, and
/// `view-shown-after-detach` can tell a view left on screen from one that
/// was animating away.
@MainActor
enum ViewReports {
    private struct Entry {
        weak var view: AnyObject?
        let tracer: Tracer
        let router: NodeID
        var last: ViewAppearance?
        var routerGone = false
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]
    /// When the table is next swept for freed views.
    private static var sweepAt = 64

    /// Lists `view` as router `router`'s view in `tracer`'s trace.
    static func register(_ view: AnyObject, router: NodeID, in tracer: Tracer) {
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.view != nil }
            sweepAt = max(64, 2 * entries.count)
        }
        entries[ObjectIdentifier(view)] = Entry(view: view, tracer: tracer, router: router)
    }

    /// Router `router`, which listed `view`, is being deallocated: the entry
    /// goes unless the view is shown (then it goes when the view does).
    static func routerWillDeallocate(_ view: ObjectIdentifier, router: NodeID) {
        guard let entry = entries[view], entry.router == router else { return }
        if entry.last == .shown && entry.view != nil {
            entries[view]?.routerGone = true
        } else {
            entries[view] = nil
        }
    }

    /// Writes the `view` record of the router `view` belongs to, unless it is
    /// the same appearance as the last one.
    static func report(_ appearance: ViewAppearance, of view: AnyObject) {
        guard !entries.isEmpty else { return }
        let key = ObjectIdentifier(view)
        guard var entry = entries[key], entry.last != appearance else { return }
        guard entry.view === view else {
            entries[key] = nil // a freed view's address, reused
            return
        }
        entry.tracer.emit(.view(router: entry.router, appearance: appearance))
        if entry.routerGone && appearance != .shown {
            entries[key] = nil // the gone router's view went too: nothing more to say
        } else {
            entry.last = appearance
            entries[key] = entry
        }
    }

    /// The view listed under `view` was freed (the appearance observer
    /// found it gone): writes ``ViewAppearance/removed`` for its router,
    /// unless that was the last appearance written, and forgets it. Does
    /// nothing if a live object is listed there (another view at a reused
    /// address) or nothing is.
    static func viewWasFreed(_ view: ObjectIdentifier) {
        guard let entry = entries[view], entry.view == nil else { return }
        entries[view] = nil
        if entry.last != .removed {
            entry.tracer.emit(.view(router: entry.router, appearance: .removed))
        }
    }

    /// Whether `view` is listed: its router is traced, or went while the
    /// view was shown and the view has not disappeared since.
    static func lists(_ view: AnyObject) -> Bool {
        entries[ObjectIdentifier(view)]?.view === view
    }

    /// How many views are listed (for tests).
    static var count: Int { entries.count }
}
