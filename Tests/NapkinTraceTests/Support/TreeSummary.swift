// The live tree of a state, in words, so that two states can be compared:
// every router, interactor and running task with everything the analysis
// reads from it (sequence numbers included, times left out).

import NapkinTrace

/// One line per alive node and running task, sorted: equal lists mean the
/// same live tree. Leaves out what a replay does not carry: when a router
/// last left the tree, when a router attached nowhere last was attached, and
/// the parent that orphaned it.
func treeSummary(_ state: TraceState) -> [String] {
    var lines: [String] = []
    for node in state.aliveNodes() {
        var line = "\(node.kind) \(node.name) created \(node.createdSeq)"
        switch node.kind {
        case .router:
            line += " interactor \(node.interactor.map(String.init) ?? "-") parent \(node.parent.map(String.init) ?? "-")"
            line += " children \(node.children.sorted()) launched \(node.isLaunched) loaded \(node.isLoaded) live \(node.isInLiveTree)"
            // When a router that is attached nowhere last was: history the replay does not carry.
            if node.parent != nil || node.isLaunched { line += " attached \(node.attachedAt?.seq.description ?? "-")" }
            line += " view \(node.view?.rawValue ?? "-") \(node.viewChangedAt?.seq.description ?? "-")"
        case .interactor:
            line += " router \(node.router.map(String.init) ?? "-") active \(node.isActive) changed \(node.stateChangedAt?.seq.description ?? "-")"
            line += " hook \(node.runningHook.map { "\($0.hook.rawValue) \($0.since.seq)" } ?? "-")"
            line += " tasks \(node.runningTasks.sorted())"
        }
        lines.append(line)
    }
    for task in state.runningTasks() {
        lines.append("task \(task.id) owner \(task.owner) \(task.ownerType) label \(task.label ?? "-") started \(task.startSeq)"
                     + " cancel \(task.cancelRequested.map(String.init) ?? "-") inactive \(task.startedWhileInactive) ownerGone \(task.ownerGone)")
    }
    lines.append("roots \(state.roots)")
    return lines.sorted()
}
