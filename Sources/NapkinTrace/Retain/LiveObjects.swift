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
    /// What the table knows of an object, as a search reads it.
    package struct Entry: Sendable {
        /// The object, while it is alive (made when the entry is read: a
        /// search's allocation, not the creation's).
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

    /// An object kept: a weak reference stored in place (the only
    /// allocation a registration makes is the runtime's side table for the
    /// object's first weak reference), its type name and kind.
    private struct Slot {
        weak var object: AnyObject?
        let type: String
        let kind: NodeKind
    }

    private struct Table {
        var slots: [NodeID: Slot] = [:]
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
        table.withLock { t in
            t.slots[id] = Slot(object: object, type: type, kind: kind)
            if t.slots.count >= t.sweepAt {
                t.slots = t.slots.filter { $0.value.object != nil }
                t.sweepAt = max(256, 2 * t.slots.count)
            }
        }
    }

    /// The entry for `id`, if its object was kept and is alive.
    package func entry(_ id: NodeID) -> Entry? {
        guard let (object, slot) = table.withLock({ t -> (AnyObject, Slot)? in
            guard let slot = t.slots[id], let object = slot.object else { return nil }
            return (object, slot)
        }) else { return nil }
        return Entry(reference: WeakReference(object), id: id, type: slot.type, kind: slot.kind)
    }

    /// Every entry whose object is alive, by id.
    package func aliveEntries() -> [Entry] {
        let alive = table.withLock { t in
            t.slots.compactMap { id, slot in slot.object.map { (id, $0, slot.type, slot.kind) } }
        }
        return alive.map { Entry(reference: WeakReference($0.1), id: $0.0, type: $0.2, kind: $0.3) }.sorted { $0.id < $1.id }
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
