// Turns napkin's lifecycle events, as the tracer stamps them, into signpost
// intervals and events: which event begins and which ends each interval, the
// type names the messages carry, and the intervals still open. The platform
// part (OSSignposter) only makes the calls; all of this runs and is tested
// on every platform.

/// Receives what the tracer emits and the findings the detector reports, as
/// signposts. The tracer holds one when signposts are on
/// (``NapkinSignposts``); with them off it holds none and emitting costs one
/// nil check.
package protocol SignpostObserver: Sendable {
    /// The tracer emitted `kind` (on the emitting thread, before queueing it).
    func observe(_ kind: TraceEvent.Kind)

    /// The detector reported `finding` (on its reporting thread).
    func found(_ finding: Finding)
}

/// The signpost intervals of one process's napkin objects, sent to an
/// ``SignpostEmitter``.
///
/// - A router's `attached` interval begins at its `attach` (or `launch`, for
///   the root) and ends at its `detach`.
/// - An interactor's `active` interval: `activate` to `deactivate`.
/// - A bound task's `task` interval: `task_start` to `task_end`.
/// - A view's `visible` interval: `view shown` to `view covered` or `removed`.
/// - An object's deallocation ends what it left open (a leak's interval
///   ends there), and the session's end ends everything still open.
/// - A mark and a finding are events.
///
/// A begin for an interval already open, or an end for none, is ignored:
/// the trace and its rules report such misuse; Instruments gets well-formed
/// pairs. Memory: one entry per live object (its type) and one per open interval.
package final class SignpostIntervals<Emitter: SignpostEmitter>: SignpostObserver {
    private let state: Locked<State>

    private struct Key: Hashable {
        let name: SignpostName
        let id: NodeID
    }

    private struct State {
        var emitter: Emitter
        /// The type name of each live object, from its creation.
        var types: [NodeID: String] = [:]
        /// The intervals begun and not ended, by name and object.
        var open: [Key: Emitter.IntervalState] = [:]

        /// Begins `name` for `id` unless it is open already.
        mutating func begin(_ name: SignpostName, _ id: NodeID) {
            let key = Key(name: name, id: id)
            guard open[key] == nil else { return }
            open[key] = emitter.begin(name, id: id, type: types[id] ?? "?")
        }

        /// Ends `name` for `id` if it is open.
        mutating func end(_ name: SignpostName, _ id: NodeID) {
            guard let begun = open.removeValue(forKey: Key(name: name, id: id)) else { return }
            emitter.end(name, begun, id: id, type: types[id] ?? "?")
        }
    }

    /// Intervals sent to `emitter`.
    package init(emitter: Emitter) {
        state = Locked(State(emitter: emitter))
    }

    package func observe(_ kind: TraceEvent.Kind) {
        state.withLock { s in
            switch kind {
            case .interactorCreated(let id, let type):
                s.types[id] = type
            case .routerCreated(let id, let type, let interactor, let interactorType):
                s.types[id] = type
                s.types[interactor] = interactorType
            case .attach(_, let child):
                s.begin(.attached, child)
            case .launch(let router):
                s.begin(.attached, router)
            case .detach(_, let child):
                s.end(.attached, child)
            case .activate(let interactor):
                s.begin(.active, interactor)
            case .deactivate(let interactor):
                s.end(.active, interactor)
            case .taskStart(let task, let owner, let label):
                let owner = s.types[owner] ?? "?"
                s.types[task] = label.map { "\(owner) \($0)" } ?? owner
                s.begin(.task, task)
            case .taskEnd(let task, _):
                s.end(.task, task)
                s.types[task] = nil
            case .view(let router, let appearance):
                switch appearance {
                case .shown: s.begin(.visible, router)
                case .covered, .removed: s.end(.visible, router)
                }
            case .deallocated(let id):
                for name in SignpostName.allCases where name.isInterval { s.end(name, id) }
                s.types[id] = nil
            case .mark(let text):
                s.emitter.event(.mark, id: 0, text: text)
            case .sessionEnd:
                for key in s.open.keys.sorted(by: { ($0.id, $0.name.order) < ($1.id, $1.name.order) }) { s.end(key.name, key.id) }
            case .sessionStart, .hookEnd, .load, .taskCancel, .dropped, .retained:
                // A retainer search's result is said by the finding's event (the detector's).
                break
            }
        }
    }

    package func found(_ finding: Finding) {
        state.withLock { s in
            s.emitter.event(.finding, id: finding.id, text: "\(finding.rule.rawValue): \(finding.type): \(finding.message)")
        }
    }

    /// The intervals open now (for tests): name and object, by object.
    package var openIntervals: [(SignpostName, NodeID)] {
        state.withLock { s in
            s.open.keys.map { ($0.name, $0.id) }.sorted { ($0.1, $0.0.order) < ($1.1, $1.0.order) }
        }
    }
}

extension SignpostName {
    /// The order of the cases, for listing intervals the same way every time.
    var order: Int {
        switch self {
        case .attached: 0
        case .active: 1
        case .task: 2
        case .visible: 3
        case .finding: 4
        case .mark: 5
        }
    }
}
