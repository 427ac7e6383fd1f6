import NapkinTrace

/// Which interactor types use ``Interactable``'s default `activate()`,
/// `deactivate()`, `didBecomeActive()` and `willResignActive()`, learned as
/// those defaults run.
///
/// A router activates or deactivates a child's interactor by calling its
/// `activate()` or `deactivate()`, which run on the interactor's actor: a hop
/// there and a hop back to the main actor. When the type's `activate()` (or
/// `deactivate()`) is the default, that hop only serves to run its hook; when
/// the hook is the default too, it does nothing, and the router makes the
/// same transition from the main actor without the hops
/// (``RouterTree/transition(_:active:)``). A hook the type implements still
/// runs on its actor, as always.
///
/// A type is known by what has run: each default notes its type the first
/// time it runs for it, so the first transition of each type takes the hops.
/// A type that implements `activate()` or `deactivate()` itself never takes
/// the short way. Actors cannot be subclassed, so a type's hooks never
/// change.
enum DefaultHooks {
    /// Bits of a type's entry.
    struct Hooks: OptionSet {
        let rawValue: UInt8
        static let activate = Hooks(rawValue: 1)
        static let didBecomeActive = Hooks(rawValue: 2)
        static let deactivate = Hooks(rawValue: 4)
        static let willResignActive = Hooks(rawValue: 8)
    }

    /// The defaults seen running, by interactor type.
    private static let seen = Locked<[ObjectIdentifier: Hooks]>([:])

    /// Notes that the default `hooks` ran for `type`.
    static func note(_ hooks: Hooks, for type: Any.Type) {
        let key = ObjectIdentifier(type)
        seen.withLock { table in
            if table[key, default: []].isSuperset(of: hooks) { return }
            table[key, default: []].formUnion(hooks)
        }
    }

    /// The defaults `type` is known to use.
    static func of(_ type: Any.Type) -> Hooks {
        let key = ObjectIdentifier(type)
        return seen.withLock { $0[key] ?? [] }
    }
}
