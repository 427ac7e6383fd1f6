@testable import Napkin

// A router whose factory is a static function in the router's own file
// (`FactoryRouter.swift`, named after the class), with a private
// initializer that builds its interactor: the shape of LeakCheckedApp's
// `CartRouter.make()`. `CreationSiteRecordedTests` expects the factory's
// line, not the initializer's.

/// A router made by its own static factories.
@MainActor final class FactoryRouter: Router<RecordedInteractor> {
    /// The line of the initializer, which makes the interactor.
    static let initLine = #line + 1
    private init() { super.init(interactor: RecordedInteractor()) }

    /// The line of `make()`'s construction.
    static let makeLine = #line + 3
    /// A router made the way a builder would.
    static func make() -> FactoryRouter {
        let router = FactoryRouter()
        return router
    }

    /// The line of `makeAsync()`'s construction.
    static let makeAsyncLine = #line + 4
    /// The same, from an async factory.
    static func makeAsync() async -> FactoryRouter {
        await Task.yield()
        let router = FactoryRouter()
        await Task.yield()
        return router
    }

    /// The same again, called from one test only: an async function's stack
    /// ends at its first frame, so every caller of `makeAsync()` has the same
    /// stack, and a test asking for the function's name needs a stack not
    /// resolved before.
    static func makeAsyncByName() async -> FactoryRouter {
        await Task.yield()
        return FactoryRouter()
    }
}
