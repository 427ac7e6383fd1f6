import NapkinTrace

/// Where a router (or a lone interactor) stands at a moment: what the tree
/// and the flowchart both show next to its name.
struct NodeStatus {
    /// The word for the node's state.
    enum State: String {
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
        tasksText = tasks == 0 ? "" : tasks == 1 ? "1 task" : "\(tasks) tasks"
    }
}
