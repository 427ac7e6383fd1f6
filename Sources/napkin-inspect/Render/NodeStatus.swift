import NapkinTrace

/// Where a router (or a lone interactor) stands at a moment: what the tree
/// and the flowchart both show next to its name (its state, its tasks, and
/// where its view is when the app reports views).
struct NodeStatus {
    /// The word for the node's state.
    enum State: String, CaseIterable {
        /// Attached (or a root) and its interactor is active.
        case active
        /// Attached (or a root) and its interactor is not active.
        case inactive
        /// A router outside the live tree that is still alive.
        case detached
    }

    /// The node's interactor (the node itself, for an interactor).
    let interactorID: NodeID?
    /// Whether that interactor is alive and active.
    let isActive: Bool
    /// `detached` for a router outside the live tree, else `active` or `inactive`.
    let state: State
    /// `1 task`, `3 tasks`, or empty: the interactor's bound tasks still running.
    let tasksText: String
    /// Where the router's view is, as its view layer last reported it; nil
    /// when it reported nothing (no view events, or an interactor).
    let view: ViewAppearance?

    /// The words for the view, where they tell something: `view gone` (removed:
    /// popped, dismissed), `view covered` (off screen, still in place), and
    /// `view shown` only on a router outside the tree (on a router in the
    /// tree a shown view is the normal case); nil otherwise, so that a trace
    /// without view events reads as it always did.
    var viewText: String? {
        guard let view, view != .shown || state == .detached else { return nil }
        return Self.words(for: view)
    }

    /// The words for where a view is: `view shown`, `view covered`, `view gone`.
    static func words(for view: ViewAppearance) -> String {
        switch view {
        case .shown: "view shown"
        case .covered: "view covered"
        case .removed: "view gone"
        }
    }

    /// The noun after a count of running tasks: `1 task`, `3 tasks`.
    static func taskNoun(count: Int) -> String {
        count == 1 ? "task" : "tasks"
    }

    /// The status of `node` in `trace`.
    init(of node: TraceNode, in trace: TraceState) {
        interactorID = node.kind == .router ? node.interactor : node.id
        let interactor = interactorID.flatMap { trace[$0] }
        isActive = interactor?.isActive ?? false
        if node.kind == .router && !node.isInLiveTree {
            state = .detached
        } else {
            state = isActive ? .active : .inactive
        }
        let tasks = interactor?.runningTasks.count ?? 0
        tasksText = tasks == 0 ? "" : "\(tasks) " + Self.taskNoun(count: tasks)
        view = node.kind == .router ? node.view : nil
    }
}
