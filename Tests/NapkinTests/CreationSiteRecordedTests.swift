@testable import Napkin
import NapkinTrace
import Testing
import TestSupport

/// Where a router or interactor was made: its creation record names the
/// line of the app's code that built it (the builder's), taken from the call
/// stack, whatever the class's initializers look like: its own initializer
/// calling `super.init`, inherited ones, a convenience init, a
/// `ViewableRouter`, a `LaunchRouter`, a generic class, built in a closure or
/// an `async` builder. Each expected line is taken with `#line` at the call.
@Suite("Creation sites, recorded")
@MainActor
struct CreationSiteRecordedTests {
    /// This file as `#fileID` names it.
    static let file = "NapkinTests/CreationSiteRecordedTests.swift"

    static func here(_ line: Int) -> CodeLocation { CodeLocation(fileID: file, line: UInt(line)) }

    /// The `src` of the creation record of the first router of type `type`, and of its interactor.
    static func created(_ type: String, in recorder: TraceRecorder) -> (router: CodeLocation?, interactor: CodeLocation?) {
        var routerLocation: CodeLocation?
        var interactorID: NodeID?
        for event in recorder.events {
            if case .routerCreated(_, type, let interactor, _) = event.kind {
                routerLocation = event.location
                interactorID = interactor
                break
            }
        }
        let interactorLocation = recorder.events.first { event in
            if case .interactorCreated(let id, _) = event.kind { id == interactorID } else { false }
        }?.location
        return (routerLocation, interactorLocation)
    }

    @Test("a router with its own initializer (napkin's example: child builders stored, then super.init) → the builder's line, for it and its interactor")
    func ownInitializer() {
        let recorder = TraceRecorder(app: "own-init")
        let router = recorder.record { OwnInitBuilder().build() }
        let found = Self.created("OwnInitRouter", in: recorder)
        #expect(found.router == Self.here(OwnInitBuilder.routerLine))
        #expect(found.interactor == Self.here(OwnInitBuilder.interactorLine))
        withExtendedLifetime(router) {}
    }

    @Test("a router inheriting its initializers (napkin 2.x's init(interactor:), no file:line) → the line that built it")
    func inheritedInitializer() {
        let recorder = TraceRecorder(app: "inherited")
        var line = 0
        let router = recorder.record { () -> InheritingRouter in
            line = #line; return InheritingRouter(interactor: RecordedInteractor())
        }
        let found = Self.created("InheritingRouter", in: recorder)
        #expect(found.router == Self.here(line))
        #expect(found.interactor == Self.here(line))
        withExtendedLifetime(router) {}
    }

    @Test("a ViewableRouter subclass with inherited initializers → the line that built it")
    func viewableRouter() {
        let recorder = TraceRecorder(app: "viewable")
        var line = 0
        let router = recorder.record { () -> PlainViewableRouter in
            line = #line; return PlainViewableRouter(interactor: RecordedInteractor(), viewController: RecordedView())
        }
        #expect(Self.created("PlainViewableRouter", in: recorder).router == Self.here(line))
        withExtendedLifetime(router) {}
    }

    @Test("a LaunchRouter built through its class's convenience init → the caller of the convenience init")
    func launchRouter() {
        let recorder = TraceRecorder(app: "launch")
        var line = 0
        let router = recorder.record { () -> RecordedRootRouter in
            line = #line; return RecordedRootRouter()
        }
        #expect(Self.created("RecordedRootRouter", in: recorder).router == Self.here(line))
        withExtendedLifetime(router) {}
    }

    @Test("a router built inside a closure → the closure's line")
    func insideAClosure() {
        let recorder = TraceRecorder(app: "closure")
        var line = 0
        let routers = recorder.record { () -> [InheritingRouter] in
            line = #line + 1
            return (0..<2).map { _ in InheritingRouter(interactor: RecordedInteractor()) }
        }
        let locations = recorder.events.compactMap { event -> CodeLocation? in
            if case .routerCreated(_, "InheritingRouter", _, _) = event.kind { event.location } else { nil }
        }
        #expect(locations == [Self.here(line), Self.here(line)])
        withExtendedLifetime(routers) {}
    }

    @Test("a router built by an async builder → the builder's line")
    func asyncBuilder() async {
        let recorder = TraceRecorder(app: "async")
        let router = await recorder.record { await AsyncBuilder().build() }
        #expect(Self.created("InheritingRouter", in: recorder).router == Self.here(AsyncBuilder.line))
        withExtendedLifetime(router) {}
    }

    @Test("a generic router (its own initializer, inherited by a specialisation's caller) → the builder's line")
    func genericRouter() {
        let recorder = TraceRecorder(app: "generic")
        var line = 0
        let router = recorder.record { () -> GenericRouter<Int> in
            line = #line; return GenericRouter(items: [1, 2])
        }
        #expect(Self.created("GenericRouter<Int>", in: recorder).router == Self.here(line)
                    || Self.created("GenericRouter", in: recorder).router == Self.here(line),
                "\(recorder.events.map(\.kind))")
        withExtendedLifetime(router) {}
    }

    @Test("file and line given to the initializer (a factory naming its caller) are recorded instead of the stack's")
    func explicitLine() {
        let recorder = TraceRecorder(app: "explicit")
        let router = recorder.record { InheritingRouter(interactor: RecordedInteractor(), file: "App/Factory.swift", line: 7) }
        #expect(Self.created("InheritingRouter", in: recorder).router == CodeLocation(fileID: "App/Factory.swift", line: 7))
        withExtendedLifetime(router) {}
    }

    @Test("tracing and detection off: nothing is captured or kept (the interactor holds no line, the router no tracer)")
    func offPath() {
        let router = InheritingRouter(interactor: RecordedInteractor())
        #expect(router.interactor.lifecycle.createdAt == nil)
        #expect(router.tracer == nil)
    }

    @Test("a traced interactor created alone (no router yet) knows the line that made it")
    func interactorAlone() {
        let recorder = TraceRecorder(app: "alone")
        var line = 0
        let interactor = recorder.record { () -> RecordedInteractor in
            line = #line; return RecordedInteractor()
        }
        #expect(interactor.lifecycle.createdAt == Self.here(line))
    }
}

// MARK: - Napkins written the ways apps write them

/// Napkin's example app's shape: child builders stored, then `super.init`.
@MainActor final class OwnInitRouter: ViewableRouter<RecordedInteractor, RecordedView> {
    private let childBuilder: OwnInitBuilder

    init(interactor: RecordedInteractor, viewController: RecordedView, childBuilder: OwnInitBuilder) {
        self.childBuilder = childBuilder
        super.init(interactor: interactor, viewController: viewController)
    }
}

@MainActor final class OwnInitBuilder {
    static let interactorLine = #line + 3
    static let routerLine = #line + 3
    func build() -> OwnInitRouter {
        let interactor = RecordedInteractor()
        let router = OwnInitRouter(interactor: interactor, viewController: RecordedView(), childBuilder: OwnInitBuilder())
        return router
    }
}

@MainActor final class InheritingRouter: Router<RecordedInteractor> {}

@MainActor final class PlainViewableRouter: ViewableRouter<RecordedInteractor, RecordedView> {}

@MainActor final class AsyncBuilder {
    static let line = #line + 3
    func build() async -> InheritingRouter {
        await Task.yield()
        let router = InheritingRouter(interactor: RecordedInteractor())
        await Task.yield()
        return router
    }
}

@MainActor final class GenericRouter<Item>: Router<RecordedInteractor> {
    let items: [Item]

    init(items: [Item]) {
        self.items = items
        super.init(interactor: RecordedInteractor())
    }
}
