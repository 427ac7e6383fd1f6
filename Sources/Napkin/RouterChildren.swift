import NapkinTrace

/// Attaching and detaching a ``Router``'s children: the public calls (with
/// the caller's location, and napkin 2.x's signatures), the misuse they
/// report (see ``RouterMisuse``), and the settling of the moved subtree.
extension Router {
    /// Appends `child` to ``children``, activates its interactor (and the
    /// subtree it kept from an earlier attach), then loads it.
    ///
    /// Misuse is reported (see ``RouterMisuse``: an assertion failure in a
    /// debug build, a warning otherwise; the trace records it too):
    /// attaching a router that is already a child changes nothing; attaching
    /// this router or one of its ancestors (a cycle) is refused; attaching a
    /// router another router still lists goes on (both list it). `file` and
    /// `line` name the calling code for the report and the trace (the
    /// defaults capture the caller's; nothing is kept when tracing is off).
    public final func attachChild(_ child: Routing, file: StaticString = #fileID, line: UInt = #line,
                                  filePath: StaticString = #filePath) async {
        if tracer != nil { SourcePaths.note(file, filePath) }
        await attach(child, from: CodeLocation(fileID: file, line: line))
    }

    /// ``Routing``'s requirement (napkin 2.x's signature): a call through the
    /// protocol has no caller's location; one on a router uses the method above.
    @_disfavoredOverload
    public final func attachChild(_ child: Routing) async {
        await attach(child, from: nil)
    }

    /// ``attachChild(_:)``, with the caller's location when known: refuses
    /// a child already listed and a cycle, tracks the parent, then settles
    /// and loads the child.
    private func attach(_ child: Routing, from location: CodeLocation?) async {
        if children.contains(where: { $0 === child }) {
            traceAttach(of: child, from: location)
            reportAttach(of: child, at: location, "is already a child of it; the call changed nothing",
                         fix: "attach a child once, or detach it first")
            return
        }
        // A cycle: `child` is this router or an ancestor (only a router with
        // children can be one, so a leaf costs one identity check).
        if child === self || (!child.children.isEmpty && RouterTree.subtree(of: child, contains: self)) {
            traceAttach(of: child, from: location)
            reportAttach(of: child, at: location,
                         child === self ? "is this router itself; refused" : "is an ancestor of it (a cycle); refused",
                         fix: "detach it from its place in the tree before attaching it lower down")
            return
        }
        children.append(child)
        // Only a `Router` remembers its parent; a mock is not tracked.
        var otherParent: AttachedParent?
        if let tracked = child as? ParentTracked {
            otherParent = tracked.attachedParent
            tracked.attachedParent = AttachedParent(id: ObjectIdentifier(self), type: type(of: self))
        }
        traceAttach(of: child, from: location)
        if let other = otherParent {
            let name = String(describing: other.type)
            reportAttach(of: child, at: location, "is still a child of \(name); both now list it",
                         fix: "detach it from \(name) first")
        }
        await RouterTree.settle(child, path: RouterTree.Path(RouterTree.Link(parent: self, child: child)))
        await child.load()
    }

    /// Reports a misused ``attachChild(_:)`` of `child` (see ``RouterMisuse``).
    private func reportAttach(of child: Routing, at location: CodeLocation?, _ problem: String, fix: String) {
        let parent = RouterMisuse.name(self), name = RouterMisuse.name(child)
        RouterMisuse.report("\(parent).attachChild(\(name))\(RouterMisuse.suffix(location)): \(name) \(problem); fix: \(fix)")
    }

    /// Removes `child` from ``children`` and deactivates its interactor and
    /// its whole subtree, root first. Detaching a router that is not a child
    /// changes nothing and is reported (see ``RouterMisuse``; the trace
    /// records it too). `file` and `line` name the calling code for the
    /// report and the trace.
    public final func detachChild(_ child: Routing, file: StaticString = #fileID, line: UInt = #line,
                                  filePath: StaticString = #filePath) async {
        if tracer != nil { SourcePaths.note(file, filePath) }
        await detach(child, from: CodeLocation(fileID: file, line: line))
    }

    /// ``Routing``'s requirement (napkin 2.x's signature): a call through the
    /// protocol has no caller's location; one on a router uses the method above.
    @_disfavoredOverload
    public final func detachChild(_ child: Routing) async {
        await detach(child, from: nil)
    }

    /// ``detachChild(_:)``, with the caller's location when known: a router
    /// that is not a child is reported; a child leaves ``children`` and its
    /// subtree settles (deactivates).
    private func detach(_ child: Routing, from location: CodeLocation?) async {
        // The cast runs only when tracing is on: off, the hook stays a nil check.
        var childID: NodeID = 0
        if let tracer, let traced = child as? TracedRouter { childID = traced.traceID(in: tracer) }
        guard let index = children.firstIndex(where: { $0 === child }) else {
            if childID != 0 { tracer?.emit(.detach(parent: traceID, child: childID), at: location) }
            let parent = RouterMisuse.name(self), name = RouterMisuse.name(child)
            RouterMisuse.report("\(parent).detachChild(\(name))\(RouterMisuse.suffix(location)): \(name) is not a child of it; "
                                + "the call changed nothing; fix: detach a child once, from the router that attached it")
            return
        }
        children.remove(at: index)
        if let tracked = child as? ParentTracked, tracked.attachedParent?.id == ObjectIdentifier(self) {
            tracked.attachedParent = nil
        }
        if childID != 0 { tracer?.emit(.detach(parent: traceID, child: childID), at: location) }
        await RouterTree.settle(child, path: RouterTree.Path(RouterTree.Link(parent: self, child: child)))
    }
}
