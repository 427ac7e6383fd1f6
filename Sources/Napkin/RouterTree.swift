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

    /// Brings `node` and, root first, its descendants to the state the links
    /// of `path` (from the operation's router down to `node`) call for.
    static func settle(_ node: Routing, path: [Link]) async {
        var wanted = path.allSatisfy(\.isInPlace)
        while true {
            if wanted {
                await node.interactable.activate()
            } else {
                await node.interactable.deactivate()
            }
            let now = path.allSatisfy(\.isInPlace)
            if now == wanted { break }
            wanted = now
        }
        for child in node.children {
            await settle(child, path: path + [Link(parent: node, child: child)])
        }
    }

    /// The interactors of `root` and its descendants that are active now, root first.
    static func activeInteractors(of root: Routing) -> [Interactable] {
        var result: [Interactable] = []
        var stack: [Routing] = [root]
        while let node = stack.popLast() {
            if node.interactable.lifecycle.isActiveNow { result.append(node.interactable) }
            stack.append(contentsOf: node.children.reversed())
        }
        return result
    }
}
