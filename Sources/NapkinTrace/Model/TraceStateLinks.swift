/// The links of the tree: attaching, detaching and what moves with a
/// subtree. Every walk up or down the tree is counted against the state's
/// work budget (see ``TraceState/stoppedAt``).
extension TraceState {
    /// Whether `ancestor` is `id` or above it in the tree.
    mutating func isAncestor(_ ancestor: NodeID, of id: NodeID) -> Bool {
        var cursor: NodeID? = id
        var steps = 0
        defer { workDone &+= UInt64(steps) }
        while let current = cursor, steps <= table.count {
            if current == ancestor { return true }
            cursor = table.with(current, { $0.pointee.parent }) ?? nil
            steps += 1
        }
        return false
    }

    func missing(_ id: NodeID) -> Misuse {
        Misuse(kind: id <= maxNodeID ? .eventAfterDeinit : .unknownNode, node: id, other: nil)
    }

    mutating func attach(parent: NodeID, child: NodeID, seq: UInt64, time: UInt64) -> Misuse? {
        guard table.contains(parent) else { return missing(parent) }
        guard table.contains(child) else { return missing(child) }
        // A router attached under itself or its own descendant would make a
        // cycle; the model stays a forest and ignores the link.
        // (A leaf can only make a cycle with itself; the walk up is for subtrees.)
        if child == parent || (table.with(child, { !$0.pointee.childList.isEmpty }) == true && isAncestor(child, of: parent)) {
            return Misuse(kind: .attachUnderDescendant, node: child, other: parent)
        }
        if let current = table.with(child, { $0.pointee.parent }) ?? nil {
            if current == parent { return Misuse(kind: .doubleAttach, node: child, other: parent) }
            // Attached to a second parent: the tree keeps the newest link.
            removeChild(child, from: current)
            var slot = 0
            table.update(parent) { slot = $0.childList.append(child) }
            table.update(child) {
                $0.parent = parent
                $0.slotInParent = slot
                $0.attachedAt = TraceMoment(seq: seq, time: time)
            }
            setLive(table.with(parent, { $0.pointee.isInLiveTree }) ?? false, from: child, seq: seq, time: time)
            return Misuse(kind: .doubleAttach, node: child, other: current)
        }
        // One lookup per node on the common path: a leaf joining its parent.
        var parentLive = false
        var slot = 0
        table.update(parent) {
            slot = $0.childList.append(child)
            parentLive = $0.isInLiveTree
        }
        var needsWalk = false
        table.update(child) {
            $0.parent = parent
            $0.slotInParent = slot
            $0.orphanedFrom = nil
            $0.attachedAt = TraceMoment(seq: seq, time: time)
            if parentLive && !$0.isInLiveTree {
                if $0.childList.isEmpty { $0.isInLiveTree = true } else { needsWalk = true }
            }
        }
        if needsWalk { setLive(true, from: child) }
        return nil
    }

    /// Takes `child` out of `parent`'s children in constant time (amortised).
    mutating func removeChild(_ child: NodeID, from parent: NodeID, slot: Int? = nil) {
        let slot = slot ?? table.with(child, { $0.pointee.slotInParent }) ?? -1
        var compacted: [NodeID]?
        table.update(parent) {
            $0.childList.remove(child, slot: slot)
            if $0.childList.needsCompaction { compacted = $0.childList.compact() }
        }
        guard let compacted else { return }
        for (index, id) in compacted.enumerated() { table.update(id) { $0.slotInParent = index } }
    }

    mutating func detach(parent: NodeID, child: NodeID, seq: UInt64, time: UInt64) -> Misuse? {
        guard table.contains(parent) else { return missing(parent) }
        guard table.contains(child) else { return missing(child) }
        guard table.with(child, { $0.pointee.parent }) == parent else {
            return Misuse(kind: .detachNonChild, node: child, other: parent)
        }
        removeChild(child, from: parent)
        var needsWalk = false
        table.update(child) {
            $0.parent = nil
            if $0.isInLiveTree {
                if $0.childList.isEmpty {
                    $0.isInLiveTree = false
                    $0.leftTreeAt = TraceMoment(seq: seq, time: time)
                } else {
                    needsWalk = true
                }
            }
        }
        if needsWalk { setLive(false, from: child, seq: seq, time: time) }
        return nil
    }

    /// Marks `id` and its attached descendants as in (or out of) the live tree.
    mutating func setLive(_ live: Bool, from id: NodeID, seq: UInt64 = 0, time: UInt64 = 0) {
        if table.with(id, { $0.pointee.childList.isEmpty }) == true {
            // The common case (a leaf): no walk.
            guard table.with(id, { $0.pointee.isInLiveTree }) != live else { return }
            table.update(id) { $0.isInLiveTree = live }
            if !live { table.update(id) { $0.leftTreeAt = TraceMoment(seq: seq, time: time) } }
            return
        }
        var stack = [id]
        while let next = stack.popLast() {
            workDone &+= 1
            guard let isLive = table.with(next, { $0.pointee.isInLiveTree }), isLive != live else { continue }
            table.update(next) { $0.isInLiveTree = live }
            if !live { table.update(next) { $0.leftTreeAt = TraceMoment(seq: seq, time: time) } }
            table.with(next) { stack.append(contentsOf: $0.pointee.childList) }
        }
    }

    /// Router `root` and those of its attached descendants whose view is
    /// shown (none, without a walk, when no view is shown at all).
    mutating func subtreeRoutersShowingViews(_ root: NodeID) -> SubtreeIDs {
        guard shownViewCount > 0 else { return SubtreeIDs() }
        return collect(inSubtreeOf: root) { $0.pointee.view == .shown ? $0.pointee.id : nil }
    }

    /// The interactors of router `root` and its attached descendants.
    mutating func subtreeInteractors(_ root: NodeID) -> SubtreeIDs {
        collect(inSubtreeOf: root) { $0.pointee.interactor }
    }

    /// The walk of both: what `pick` finds in router `root` and in each of
    /// its attached descendants, every step counted against the work budget.
    @inline(__always)
    private mutating func collect(inSubtreeOf root: NodeID, _ pick: (UnsafePointer<TraceNode>) -> NodeID?) -> SubtreeIDs {
        var result = SubtreeIDs()
        // A leaf (the usual case) without a walk: the same step counted, nothing allocated.
        switch table.with(root, { ($0.pointee.childList.isEmpty, pick($0)) }) {
        case nil:
            workDone &+= 1
            return result
        case .some((true, let found)):
            workDone &+= 1
            if let found { result.append(found) }
            return result
        default:
            break
        }
        var stack = [root]
        while let id = stack.popLast() {
            workDone &+= 1
            table.with(id) { node in
                if let found = pick(node) { result.append(found) }
                stack.append(contentsOf: node.pointee.childList)
            }
        }
        return result
    }
}
