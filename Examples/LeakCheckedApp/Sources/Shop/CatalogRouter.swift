import Napkin

/// The catalog's business logic: a clean screen.
public final actor CatalogInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()

    public init() {}
}

/// The catalog's router.
@MainActor
public final class CatalogRouter: Router<CatalogInteractor> {
    public init() { super.init(interactor: CatalogInteractor()) }
}
