extension Finding.Rule {
    /// A parent with two attached children of the same type at once: the
    /// older one was probably never detached (back navigation).
    public static let duplicateChild = Finding.Rule(
        "duplicate-child", .warning, title: "duplicate child",
        summary: "a parent with two attached children of the same type")
}

/// `duplicate-child`: a parent attaches a child while an older child of the
/// same type is still attached, the trace of a forgotten `detachChild` on
/// back navigation. The finding is about the older child; its seqs are the
/// older child's attach and the new attach.
struct DuplicateChildRule: FindingRule {
    static let rule = Finding.Rule.duplicateChild
    static let watches: Set<TraceEvent.Name> = [.attach]

    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        // The common case, a parent with one child, costs one lookup.
        guard case .attach(let parent, let child) = event.kind,
              context.state.table.with(parent, { $0.childCount > 1 }) == true,
              let parentNode = context.state[parent], let childNode = context.state[child] else { return }
        for sibling in parentNode.childList where sibling != child {
            guard let older = context.state[sibling], older.type == childNode.type else { continue }
            context.report(Finding(rule: Self.rule, subject: .router, type: older.type, id: older.id,
                                   seqs: [older.attachedAt?.seq ?? older.createdSeq, event.seq], time: context.state.time,
                                   message: "\(parentNode.name) attached a second \(older.type) (#\(child)) while this one is still attached; it was probably never detached (a forgotten detachChild on back navigation?)"),
                           key: older.id)
        }
    }
}
