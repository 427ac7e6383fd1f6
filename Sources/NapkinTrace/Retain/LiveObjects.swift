import Synchronization

/// The traced routers and interactors of one session that are still alive,
/// by id, held weakly: where a retainer search finds the object a finding is
/// about, and the objects it starts walking from.
///
/// Kept only where a search can run (a ``TraceRecorder``, a tracer that
/// feeds the in-app detector with retainer search on): ``isEnabled`` is
/// one atomic load, and registering does nothing when it is false. A weak
/// reference never changes a lifetime: loading one returns nil once the
/// object has started to deinitialise, so a search never retains an object
/// that is going away. Entries of deallocated objects are swept as the
/// table grows (amortised: a sweep when it has doubled since the last).
package final class LiveObjects: Sendable {
    /// What the table knows of an object.
    package struct Entry: Sendable {
        /// The object, while it is alive.
        package let reference: WeakReference
        /// Its trace id.
        package let id: NodeID
        /// Its type name in the trace.
        package let type: String
        /// Router or interactor.
        package let kind: NodeKind

        /// `LoggedInRouter#6`.
        package var name: String { "\(type)#\(id)" }
    }

    private let enabled: Atomic<Bool>
    private let table = Locked(Table())

    private struct Table {
        var entries: [NodeID: Entry] = [:]
        var sweepAt = 256
    }

    /// An empty table, keeping entries from now on if `enabled`.
    package init(enabled: Bool) {
        self.enabled = Atomic(enabled)
    }

    /// Whether objects are kept.
    package var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// Starts (or stops) keeping objects created from now on.
    package func setEnabled(_ on: Bool) { enabled.store(on, ordering: .relaxed) }

    /// Keeps `object` (weakly) under `id`.
    package func register(_ object: AnyObject, id: NodeID, type: String, kind: NodeKind) {
        guard isEnabled else { return }
        let entry = Entry(reference: WeakReference(object), id: id, type: type, kind: kind)
        table.withLock { t in
            t.entries[id] = entry
            if t.entries.count >= t.sweepAt {
                t.entries = t.entries.filter { $0.value.reference.isAlive }
                t.sweepAt = max(256, 2 * t.entries.count)
            }
        }
    }

    /// The entry for `id`, if its object was kept.
    package func entry(_ id: NodeID) -> Entry? {
        table.withLock { $0.entries[id] }
    }

    /// Every entry whose object is alive, by id.
    package func aliveEntries() -> [Entry] {
        table.withLock { t in t.entries.values.filter { $0.reference.isAlive } }.sorted { $0.id < $1.id }
    }
}

/// A weak reference that can cross threads: loading it is atomic in the
/// Swift runtime (`swift_weakLoadStrong`), and it returns nil for an object
/// that has started to deinitialise.
///
/// `@unchecked Sendable`: the only state is the weak reference, which the
/// runtime reads and clears atomically. What the loaded object may be used
/// for on which thread is the caller's concern (`RetainerSearch` reads an
/// object only in the isolation that guards it).
package final class WeakReference: @unchecked Sendable {
    private weak var object: AnyObject?

    /// A weak reference to `object`.
    package init(_ object: AnyObject) {
        self.object = object
    }

    /// The object, or nil once it started to deinitialise.
    package func load() -> AnyObject? { object }

    /// Whether the object is alive.
    package var isAlive: Bool { object != nil }
}
