/// The roots an app names for the retainer search: singletons and service
/// locators the walk cannot otherwise reach (a `static let shared` is
/// reachable from no traced object, so what it holds would be "not found").
///
/// Kept weakly (a root never lives longer for being named), process-wide,
/// replaced by name. A path that starts at a root starts with its name:
/// `DeepLinkRegistry.shared.handlers[0] (suspect) → PitBoardRouter#9`.
enum RetainerRoots {
    /// A named root.
    struct Root: Sendable {
        let name: String
        let reference: WeakReference
    }

    private static let roots = Locked<[Root]>([])

    /// Names `object` `name` (replacing a root of that name).
    static func add(_ object: AnyObject, named name: String) {
        let root = Root(name: name, reference: WeakReference(object))
        roots.withLock { list in
            list.removeAll { $0.name == name || !$0.reference.isAlive }
            list.append(root)
        }
    }

    /// Forgets the root named `name`.
    static func remove(named name: String) {
        roots.withLock { $0.removeAll { $0.name == name } }
    }

    /// The roots whose objects are alive, in the order they were named.
    static func alive() -> [Root] {
        roots.withLock { $0.filter(\.reference.isAlive) }
    }
}

extension NapkinTrace {
    /// Names an object the retainer search should start from, for objects
    /// no router or interactor reaches: an app-wide singleton, a service
    /// locator, a cache.
    ///
    /// ```swift
    /// NapkinTrace.retainerRoot(DeepLinkRegistry.shared, named: "DeepLinkRegistry.shared")
    /// ```
    ///
    /// A leak held through it is then explained from it
    /// (`DeepLinkRegistry.shared.handlers[0] (suspect) → PitBoardRouter#9`)
    /// instead of "not found". The object is held weakly; naming another
    /// object with the same name replaces it. A root that is not an actor is
    /// read on the main actor (`docs/detect.md`, "Who retains it").
    public static func retainerRoot(_ object: AnyObject, named name: String) {
        RetainerRoots.add(object, named: name)
    }

    /// Stops starting the retainer search from the root named `name`.
    public static func removeRetainerRoot(named name: String) {
        RetainerRoots.remove(named: name)
    }
}
