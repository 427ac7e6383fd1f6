/// `duplicate-child`: a parent attaches a child while an older child of the
/// same type is still attached, in a later step than that older child: the
/// trace of a forgotten `detachChild` on back navigation. The finding is
/// about the older child; its seqs are the older child's attach and the new
/// attach.
///
/// Children of one type attached *as a group* are a collection, not a leak:
/// the rows of a list, the tabs of a tab bar, the pages of a pager. A group
/// is a second same-type child attached within ``groupWindow`` of the
/// previous one's attach or load (or the load of one of its children: a
/// list's rows), with no mark written in between (a loop
/// of `attachChild` calls, each awaiting the previous one, attaches the next
/// child microseconds after the previous one loaded; a person navigating
/// back and forth takes far longer, and an app that marks its steps with
/// `NapkinTrace.mark` says so). Once a parent has attached a group of a
/// type, more children of that type are never flagged for it.
///
/// Where the app traces its views, the back-navigation leak is
/// `view-gone-still-attached`'s: an older child in the live tree whose view
/// was reported removed is left to it. This rule still catches children
/// without a traced view (routers without a view, apps or traces without
/// view events), and children whose view is shown or covered.
struct DuplicateChildRule: FindingRule {
    static let rule = Finding.Rule("duplicate-child", .warning, title: "duplicate child", summary: "a parent attached a second child of a type it still holds, in a separate step (a forgotten detach?)", help: help)
    static let watches: Set<TraceEvent.Name> = [.attach, .load, .deallocated, .mark]
    /// The attach that was never undone (then its creation).
    static let codeFocus: [Finding.CodeReference.Role] = [.attached, .created]

    /// How close (trace time) a same-type attach must follow the previous
    /// one's attach or load to be part of the same group.
    static let groupWindow: UInt64 = 250_000_000

    /// What a parent did with one child type.
    private struct TypeHistory: Sendable {
        /// The child type.
        var type: String
        /// The child of this type attached last.
        var lastChild: NodeID
        /// When it was attached or loaded.
        var lastActivity: UInt64
        /// How many marks the trace had then.
        var marks: UInt64
        /// The parent attached children of this type as a group.
        var isCollection = false
    }

    /// Per live parent, per child type (a parent has few child types: a list
    /// beats hashing the names). Forgotten when the parent is deallocated.
    private var history = NodeTable<[TypeHistory]>()
    /// Marks seen so far.
    private var marks: UInt64 = 0

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch event.kind {
        case .attach(let parent, let child):
            guard effect.misuse == nil, let type = context.state.table.with(child, { $0.pointee.type }) else { return }
            attached(child, type: type, to: parent, event, &context)
        case .load(let id):
            // The last child loading is activity of its group; so is one of its own
            // children loading (a list's rows, attached before the next list comes).
            guard let parent = context.state.table.with(id, { $0.pointee.parent }) ?? nil else { return }
            touch(id, under: parent, at: event.time)
            if let grandparent = context.state.table.with(parent, { $0.pointee.parent }) ?? nil {
                touch(parent, under: grandparent, at: event.time)
            }
        case .deallocated(let id):
            history.removeValue(forKey: id)
        case .mark:
            marks &+= 1
        default:
            break
        }
    }

    /// Notes activity of `child`'s group under `parent`, if `child` is its last member.
    private mutating func touch(_ child: NodeID, under parent: NodeID, at time: UInt64) {
        let marks = self.marks
        history.update(parent) { types in
            guard let k = types.firstIndex(where: { $0.lastChild == child }) else { return }
            types[k].lastActivity = max(types[k].lastActivity, time)
            types[k].marks = marks
        }
    }

    private mutating func attached(_ child: NodeID, type: String, to parent: NodeID, _ event: TraceEvent,
                                   _ context: inout AnalysisContext) {
        // One lookup: the parent's entry for this type, as it was (the fields
        // below), now brought up to date with this child (or added).
        let (now, marks) = (event.time, self.marks)
        var previous: (lastChild: NodeID, lastActivity: UInt64, marks: UInt64, isCollection: Bool)?
        history.update(parent, inserting: []) { types in
            if let k = types.firstIndex(where: { $0.type == type }) {
                previous = (types[k].lastChild, types[k].lastActivity, types[k].marks, types[k].isCollection)
                types[k].lastChild = child
                types[k].lastActivity = now
                types[k].marks = marks
            } else {
                types.append(TypeHistory(type: type, lastChild: child, lastActivity: now, marks: marks))
            }
        }
        // The child of this type attached before, if it is still attached here
        // (an older one still attached was reported when this one came).
        // An older child in the live tree whose view was removed is
        // `view-gone-still-attached`'s (it names the moment the screen went,
        // not the next visit); outside the tree that rule does not look at it.
        guard let previous, !previous.isCollection, previous.lastChild != child,
              context.state.table.with(previous.lastChild, {
                  $0.pointee.parent == parent && !($0.pointee.view == .removed && $0.pointee.isInLiveTree)
              }) == true,
              let older = context.state[previous.lastChild] else { return }
        let (groupEnd, overflow) = previous.lastActivity.addingReportingOverflow(Self.groupWindow)
        if (event.time <= groupEnd || overflow || event.time < previous.lastActivity) && previous.marks == marks {
            history.update(parent) { types in
                if let k = types.firstIndex(where: { $0.type == type }) { types[k].isCollection = true }
            }
            return
        }
        let parentName = context.state[parent]?.name ?? "#\(parent)"
        context.report(Finding(rule: Self.rule, subject: .router, type: older.type, id: older.id,
                               seqs: [older.attachedAt?.seq ?? older.createdSeq, event.seq], time: event.time,
                               message: "\(parentName) attached a second \(type) (#\(child)) while this one is still attached; it was probably never detached (a forgotten detachChild on back navigation?)"),
                       key: older.id)
    }
}

extension Finding.Rule {
    /// A parent that attached a second child of a type it already holds, in
    /// a separate step: the older one was probably never detached (back navigation).
    public static let duplicateChild = DuplicateChildRule.rule
}

// MARK: - Help

extension DuplicateChildRule {
    /// What `duplicate-child` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A parent attaches a router while the router of the same
            type it attached before is still attached to it, and the new one came in a
            *separate step*. Reported at once, on the older child, with the seqs of its
            attach and of the new attach; each older child once.
            """#,
        cause: #"""
            Back navigation that forgot `detachChild`: the user leaves
            a screen, its router stays attached (and active, and alive), and opening the
            screen again attaches a second one. Every round trip adds one.
            """#,
        fix: #"""
            Detach where you navigate back, and guard routes against attaching
            twice:

            ```swift
            func routeToMenu() async {
                guard menu == nil else { return }
                let router = menuBuilder.build(withListener: interactor)
                menu = router
                await attachChild(router)
            }

            func routeBackFromMenu() async {
                guard let router = menu else { return }
                menu = nil
                await detachChild(router)          // the line that was missing
            }
            ```
            """#)
}
