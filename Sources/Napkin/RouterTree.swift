/// Activation and deactivation of whole subtrees, shared by every router.
///
/// A node's interactor should be active exactly when every link on the path
/// from the router that started the operation down to the node is still in
/// place (the parent still lists the child). Each step asks the interactor
/// for that state and checks the links again after the `await`; if a
/// concurrent attach or detach changed them meanwhile, it asks again. Because
/// every operation ends by re-checking after its own last request, the tree
/// converges to the state of the last operation, whatever the interleaving.
@MainActor
enum RouterTree {
    @MainActor
    struct Link {
        let parent: Routing
        let child: Routing
        var isInPlace: Bool { parent.children.contains { $0 === child } }
    }

    /// The links from the operation's router down to a node. The last link is
    /// kept apart from the ones above it, so that the path of an attached or
    /// detached child (one link, the common case) needs no array.
    @MainActor
    struct Path {
        /// The links above ``last``, from the operation's router down.
        private var outer: [Link] = []
        /// The link to the node; nil for the operation's router itself (a launch).
        private var last: Link?

        /// The path of the operation's router itself: no links.
        init() {}

        /// The path of a child of the operation's router.
        init(_ link: Link) {
            last = link
        }

        /// Whether every link is in place.
        var isInPlace: Bool {
            (last?.isInPlace ?? true) && outer.allSatisfy(\.isInPlace)
        }

        /// This path, then `link`.
        func appending(_ link: Link) -> Path {
            var path = Path(link)
            if let last { path.outer = outer + [last] }
            return path
        }
    }

    /// Brings `node` and, root first, its descendants to the state the links
    /// of `path` (from the operation's router down to `node`) call for.
    static func settle(_ node: Routing, path: Path) async {
        var wanted = path.isInPlace
        while true {
            await transition(node.interactable, active: wanted)
            let now = path.isInPlace
            if now == wanted { break }
            wanted = now
        }
        for child in node.children {
            await settle(child, path: path.appending(Link(parent: node, child: child)))
        }
    }

    /// Activates or deactivates `interactable` as its `activate()` or
    /// `deactivate()` would. When that method and the hook it runs are
    /// ``Interactable``'s defaults (see ``DefaultHooks``), the transition is
    /// made from here, with no hop to the interactor's actor and back; a
    /// hook the type implements still runs on its actor.
    static func transition(_ interactable: Interactable, active: Bool) async {
        let type = type(of: interactable)
        let defaults = DefaultHooks.of(type)
        guard defaults.contains(active ? .activate : .deactivate) else {
            if active { await interactable.activate() } else { await interactable.deactivate() }
            return
        }
        let quietActivation = defaults.contains(.didBecomeActive)
        let quietResignation = defaults.contains(.willResignActive)
        if active ? !quietActivation : !quietResignation {
            // The hook runs on the actor anyway: one hop, as through the method.
            if active { await interactable.activate() } else { await interactable.deactivate() }
            return
        }
        await interactable.lifecycle.converge(
            to: active, ownerType: type,
            didBecomeActive: { if !quietActivation { await interactable.didBecomeActive() } },
            willResignActive: { if !quietResignation { await interactable.willResignActive() } })
    }

    /// The interactors of `root` and its descendants that are active now, root first.
    static func activeInteractors(of root: Routing) -> [Interactable] {
        // A leaf (most routers at their deinit) needs no walk and no allocation.
        if root.children.isEmpty {
            return root.interactable.lifecycle.isActiveNow ? [root.interactable] : []
        }
        var result: [Interactable] = []
        var stack: [Routing] = [root]
        while let node = stack.popLast() {
            if node.interactable.lifecycle.isActiveNow { result.append(node.interactable) }
            stack.append(contentsOf: node.children.reversed())
        }
        return result
    }
}
