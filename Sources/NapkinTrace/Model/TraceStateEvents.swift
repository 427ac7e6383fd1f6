/// What each kind of event changes in a ``TraceState``: the steps
/// `TraceState.applyEvent(_:name:)` dispatches to, one per kind (or pair of
/// kinds), and the bookkeeping they share. The links of the tree are in
/// `TraceStateLinks.swift`.
extension TraceState {
    // MARK: - Sessions and creation

    /// A session record: a second one starts the state over (its own record counted).
    @inline(__always)
    mutating func startSession(_ info: SessionInfo, seq: UInt64) {
        if session != nil { self = TraceState(); kindCounts[.session] = 1 }
        session = info
        recordsHookEnds = info.recordsHookEnds
        lastSeq = seq
    }

    /// A router's creation record; its interactor is created too when the
    /// trace never announced it (an older writer), and learns its router.
    @inline(__always)
    mutating func createRouter(_ id: NodeID, type: String, interactor: NodeID, interactorType: String, _ event: TraceEvent) {
        if interactor != 0 && !table.contains(interactor) && interactor > maxNodeID {
            createNode(TraceNode(id: interactor, kind: .interactor, type: interactorType, seq: event.seq, time: event.time))
        }
        var node = TraceNode(id: id, kind: .router, type: type, seq: event.seq, time: event.time)
        node.interactor = interactor == 0 ? nil : interactor
        node.createdFrom = codeLocationTable.index(of: event.location)
        createNode(consume node)
        if interactor != 0 { table.update(interactor) { $0.router = id } }
    }

    // MARK: - Links

    /// An `attach`: the link (``attach(parent:child:seq:time:)``), then the
    /// code that made it, unless the attach was refused.
    @inline(__always)
    mutating func noteAttach(parent: NodeID, child: NodeID, _ event: TraceEvent) -> Misuse? {
        let misuse = attach(parent: parent, child: child, seq: event.seq, time: event.time)
        if case .some = event.location, misuse == nil || misuse?.kind == .doubleAttach {
            let from = codeLocationTable.index(of: event.location)
            table.update(child) { $0.attachedFrom = from }
        }
        return misuse
    }

    /// A `detach`: the link (``detach(parent:child:seq:time:)``), then the
    /// code that undid it, unless it was a misuse.
    @inline(__always)
    mutating func noteDetach(parent: NodeID, child: NodeID, _ event: TraceEvent) -> Misuse? {
        let misuse = detach(parent: parent, child: child, seq: event.seq, time: event.time)
        if case .some = event.location, misuse == nil {
            let from = codeLocationTable.index(of: event.location)
            table.update(child) { $0.detachedFrom = from }
        }
        return misuse
    }

    /// A `launch`: the router becomes a root (once) and its subtree joins the live tree.
    @inline(__always)
    mutating func launch(_ id: NodeID, at moment: TraceMoment) -> Misuse? {
        guard table.contains(id) else { return missing(id) }
        if table.with(id, { $0.pointee.isLaunched }) == false {
            table.update(id) { $0.isLaunched = true }
            roots.append(id)
        }
        table.update(id) { $0.attachedAt = moment }
        setLive(true, from: id)
        return nil
    }

    // MARK: - Interactors and routers

    /// An `activate` or a `deactivate`: the interactor's state, and the hook
    /// it starts when the session records hook ends.
    @inline(__always)
    mutating func changeActivity(of id: NodeID, active: Bool, at moment: TraceMoment) -> Misuse? {
        let hook: RunningHook? = recordsHookEnds ? RunningHook(active ? .didBecomeActive : .willResignActive, since: moment) : nil
        guard table.update(id, {
            $0.isActive = active
            $0.stateChangedAt = moment
            $0.runningHook = hook
        }) else { return missing(id) }
        return nil
    }

    /// A `hook_end`: the running hook returned (a `willResignActive`'s end
    /// is noted for ``Effect/endedResignation``).
    @inline(__always)
    mutating func endHook(of id: NodeID) -> Misuse? {
        var ended: RunningHook?
        guard table.update(id, {
            ended = $0.runningHook
            $0.runningHook = nil
        }) else { return missing(id) }
        if let ended, ended.hook == .willResignActive { endedResignation = ended.since.seq }
        return nil
    }

    /// A `load`.
    @inline(__always)
    mutating func markLoaded(_ id: NodeID) -> Misuse? {
        guard table.contains(id) else { return missing(id) }
        table.update(id) { $0.isLoaded = true }
        return nil
    }

    /// A `view`: the router's view and the count of views shown.
    @inline(__always)
    mutating func changeView(of id: NodeID, to appearance: ViewAppearance, at moment: TraceMoment) -> Misuse? {
        var wasShown = false
        guard table.update(id, {
            wasShown = $0.view == .shown
            $0.view = appearance
            $0.viewChangedAt = moment
        }) else {
            // A view can outlive its router (a dismissal that ends after
            // the router's deinit): not a misuse once the router existed.
            return id <= maxNodeID ? nil : missing(id)
        }
        if wasShown != (appearance == .shown) { shownViewCount += wasShown ? -1 : 1 }
        return nil
    }

    /// A `deinit`: the node leaves the table (moved out, not copied) and is
    /// kept as ``lastRemoved`` for the rules.
    @inline(__always)
    mutating func deallocateNode(_ id: NodeID, at moment: TraceMoment) -> Misuse? {
        guard let node = table.removeValue(forKey: id) else { return missing(id) }
        if !retainerSearches.isEmpty { retainerSearches[id] = nil }
        deallocate(node, seq: moment.seq, time: moment.time)
        lastRemoved = node
        hasRemovedNode = true
        return nil
    }

    /// A `retained`: the node's latest retainer search. One about a node
    /// already gone is no misuse (the search may end after the object went:
    /// it never keeps it), unless the id was never created.
    @inline(__always)
    mutating func noteRetainers(_ retainers: Retainers, of id: NodeID) -> Misuse? {
        guard table.contains(id) else { return id <= maxNodeID ? nil : missing(id) }
        retainerSearches[id] = retainers
        return nil
    }

    // MARK: - Tasks

    /// A `task_start`: a running task, listed under its owner (a task whose
    /// owner is gone is kept, and the event is a misuse).
    @inline(__always)
    mutating func startTask(_ task: NodeID, owner: NodeID, label: String?, _ event: TraceEvent) -> Misuse? {
        if taskTable.contains(task) || table.contains(task) {
            // A task id that names a running task or a live node: a corrupt trace.
            noteIDConflict(task, seq: event.seq)
            return nil
        }
        let (ownerType, active) = table.with(owner) { ($0.pointee.type, $0.pointee.isActive) } ?? ("interactor", false)
        var record = TraceTask(id: task, owner: owner, ownerType: ownerType, label: label, startSeq: event.seq, startTime: event.time,
                               startedWhileInactive: !active)
        record.startedFrom = codeLocationTable.index(of: event.location)
        tasksStarted += 1
        guard table.update(owner, { record.slotInOwner = $0.taskList.append(task) }) else {
            record.ownerGone = true
            taskTable[task] = record
            return missing(owner)
        }
        taskTable[task] = record
        return nil
    }

    /// A `task_end` of a running task: it leaves the table and its owner's
    /// list (its owner is noted for ``Effect/endedTaskOwner``).
    @inline(__always)
    mutating func endTask(_ task: NodeID) {
        guard let ended = taskTable.removeValue(forKey: task) else { return }
        endedTaskOwner = ended.owner
        tasksEnded += 1
        removeTask(ended)
    }

    // MARK: - Bookkeeping

    /// Adds a router or interactor to the table, or notes an id conflict.
    mutating func createNode(_ node: consuming TraceNode) {
        // A second creation record for a live id belongs to a corrupt or
        // spliced trace: the node we know is kept, so links stay consistent.
        let (id, kind, seq) = (node.id, node.kind, node.createdSeq)
        guard !taskTable.contains(id), table.insertIfAbsent(id, consume node) else {
            noteIDConflict(id, seq: seq)
            return
        }
        createdCount += 1
        if kind == .router { routerCount += 1 }
        if id > maxNodeID { maxNodeID = id }
    }

    /// Takes a task out of its owner's running tasks, in constant time (amortised).
    private mutating func removeTask(_ task: TraceTask) {
        var compacted: [NodeID]?
        table.update(task.owner) {
            $0.taskList.remove(task.id, slot: task.slotInOwner)
            if $0.taskList.needsCompaction { compacted = $0.taskList.compact() }
        }
        guard let compacted else { return }
        for (index, id) in compacted.enumerated() { taskTable.update(id) { $0.slotInOwner = index } }
    }

    /// Counts a creation record (or task start) that named an id already alive.
    private mutating func noteIDConflict(_ id: NodeID, seq: UInt64) {
        idConflictCount += 1
        if firstIDConflict == nil { firstIDConflict = IDConflict(id: id, seq: seq) }
    }

    /// What a node's `deinit` changes beyond its own row: counts, its place
    /// in its parent, its children (orphaned, out of the live tree), the roots,
    /// its interactor's router, its tasks' owner.
    private mutating func deallocate(_ node: TraceNode, seq: UInt64, time: UInt64) {
        deallocatedCount += 1
        if node.view == .shown { shownViewCount -= 1 }
        if node.kind == .router {
            routerCount -= 1
            if let parent = node.parent { removeChild(node.id, from: parent, slot: node.slotInParent) }
            for child in node.childList where table.contains(child) {
                table.update(child) {
                    $0.parent = nil
                    $0.orphanedFrom = Orphaning(parent: node.id, parentType: node.type, seq: seq)
                }
                if table.with(child, { $0.pointee.isInLiveTree }) == true { setLive(false, from: child, seq: seq, time: time) }
            }
            if node.isLaunched { roots.removeAll { $0 == node.id } }
            if let interactor = node.interactor, table.with(interactor, { $0.pointee.router }) == node.id {
                table.update(interactor) { $0.router = nil }
            }
        } else {
            for task in node.taskList { taskTable.update(task) { $0.ownerGone = true } }
        }
    }
}
