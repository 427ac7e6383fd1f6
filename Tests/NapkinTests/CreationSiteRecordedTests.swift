@testable import Napkin
import Foundation
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
    /// The lines are worked out off the main actor (`eventsWithLines`).
    static func created(_ type: String, in recorder: TraceRecorder) async -> (router: CodeLocation?, interactor: CodeLocation?) {
        let events = await recorder.eventsWithLines()
        var routerLocation: CodeLocation?
        var interactorID: NodeID?
        for event in events {
            if case .routerCreated(_, type, let interactor, _) = event.kind {
                routerLocation = event.location
                interactorID = interactor
                break
            }
        }
        let interactorLocation = events.first { event in
            if case .interactorCreated(let id, _) = event.kind { id == interactorID } else { false }
        }?.location
        return (routerLocation, interactorLocation)
    }

    @Test("a router with its own initializer (napkin's example: child builders stored, then super.init) → the builder's line, for it and its interactor")
    func ownInitializer() async {
        let recorder = TraceRecorder(app: "own-init")
        let router = recorder.record { OwnInitBuilder().build() }
        let found = await Self.created("OwnInitRouter", in: recorder)
        #expect(found.router == Self.here(OwnInitBuilder.routerLine))
        #expect(found.interactor == Self.here(OwnInitBuilder.interactorLine))
        withExtendedLifetime(router) {}
    }

    @Test("a router inheriting its initializers (napkin 2.x's init(interactor:), no file:line) → the line that built it")
    func inheritedInitializer() async {
        let recorder = TraceRecorder(app: "inherited")
        var line = 0
        let router = recorder.record { () -> InheritingRouter in
            line = #line; return InheritingRouter(interactor: RecordedInteractor())
        }
        let found = await Self.created("InheritingRouter", in: recorder)
        #expect(found.router == Self.here(line))
        #expect(found.interactor == Self.here(line))
        withExtendedLifetime(router) {}
    }

    @Test("a ViewableRouter subclass with inherited initializers → the line that built it")
    func viewableRouter() async {
        let recorder = TraceRecorder(app: "viewable")
        var line = 0
        let router = recorder.record { () -> PlainViewableRouter in
            line = #line; return PlainViewableRouter(interactor: RecordedInteractor(), viewController: RecordedView())
        }
        #expect(await Self.created("PlainViewableRouter", in: recorder).router == Self.here(line))
        withExtendedLifetime(router) {}
    }

    @Test("a LaunchRouter built through its class's convenience init → the caller of the convenience init")
    func launchRouter() async {
        let recorder = TraceRecorder(app: "launch")
        var line = 0
        let router = recorder.record { () -> RecordedRootRouter in
            line = #line; return RecordedRootRouter()
        }
        #expect(await Self.created("RecordedRootRouter", in: recorder).router == Self.here(line))
        withExtendedLifetime(router) {}
    }

    @Test("a router built inside a closure → the closure's line")
    func insideAClosure() async {
        let recorder = TraceRecorder(app: "closure")
        var line = 0
        let routers = recorder.record { () -> [InheritingRouter] in
            line = #line + 1
            return (0..<2).map { _ in InheritingRouter(interactor: RecordedInteractor()) }
        }
        let locations = await recorder.eventsWithLines().compactMap { event -> CodeLocation? in
            if case .routerCreated(_, "InheritingRouter", _, _) = event.kind { event.location } else { nil }
        }
        #expect(locations == [Self.here(line), Self.here(line)])
        withExtendedLifetime(routers) {}
    }

    @Test("a router built by an async builder → the builder's line")
    func asyncBuilder() async {
        let recorder = TraceRecorder(app: "async")
        let router = await recorder.record { await AsyncBuilder().build() }
        #expect(await Self.created("InheritingRouter", in: recorder).router == Self.here(AsyncBuilder.line))
        withExtendedLifetime(router) {}
    }

    @Test("a generic router (its own initializer, inherited by a specialisation's caller) → the builder's line, under its specialised name")
    func genericRouter() async {
        let recorder = TraceRecorder(app: "generic")
        var line = 0
        let router = recorder.record { () -> GenericRouter<Int> in
            line = #line; return GenericRouter(items: [1, 2])
        }
        // The type is named as `String(describing:)` names the dynamic type,
        // generic arguments included: `GenericRouter<Int>` and
        // `GenericRouter<String>` are two types to the fingerprints and to a
        // per-type budget (`maxAlive: ["GenericRouter<Int>": 2]`).
        let types = recorder.eventsAsRecorded.compactMap { event -> String? in
            if case .routerCreated(_, let type, _, _) = event.kind { type } else { nil }
        }
        #expect(types == ["GenericRouter<Int>"])
        #expect(await Self.created("GenericRouter<Int>", in: recorder).router == Self.here(line), "\(recorder.eventsAsRecorded.map(\.kind))")
        withExtendedLifetime(router) {}
    }

    @Test("a factory in the router's own file (a private init building its interactor, a static make()) → the factory's line, sync and async")
    func factoryInTheRoutersFile() async {
        let file = "NapkinTests/FactoryRouter.swift"
        let recorder = TraceRecorder(app: "factory")
        let router = recorder.record { FactoryRouter.make() }
        let found = await Self.created("FactoryRouter", in: recorder)
        #expect(found.router == CodeLocation(fileID: file, line: UInt(FactoryRouter.makeLine)), "\(recorder.eventsAsRecorded.map(\.kind))")
        // The interactor is constructed inside the router's initializer: that line is the one that made it.
        #expect(found.interactor == CodeLocation(fileID: file, line: UInt(FactoryRouter.initLine)))
        let asyncRecorder = TraceRecorder(app: "factory-async")
        let other = await asyncRecorder.record { await FactoryRouter.makeAsync() }
        #expect(await Self.created("FactoryRouter", in: asyncRecorder).router == CodeLocation(fileID: file, line: UInt(FactoryRouter.makeAsyncLine)))
        withExtendedLifetime((router, other)) {}
    }

    @Test("file and line given to the initializer (a factory naming its caller) are recorded instead of the stack's")
    func explicitLine() async {
        let recorder = TraceRecorder(app: "explicit")
        let router = recorder.record { InheritingRouter(interactor: RecordedInteractor(), file: "App/Factory.swift", line: 7) }
        #expect(await Self.created("InheritingRouter", in: recorder).router == CodeLocation(fileID: "App/Factory.swift", line: 7))
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

/// Interactors made off the main actor, from one place.
enum ConcurrentMaker {
    static let line = #line + 2
    @inline(never) static func make() -> RecordedInteractor {
        RecordedInteractor()
    }
}

/// The line of a stack first seen on several threads at once, read on each
/// of them while others are still making objects from it: one answer for
/// all (the first reader works it out, the others wait for it or read it).
@Suite("Creation sites, concurrently")
struct CreationSiteConcurrencyTests {
    @Test("8 tasks make 50 interactors each from one new stack and read their lines at once: every line is the maker's")
    func concurrentFirstSight() async {
        let recorder = TraceRecorder(app: "concurrent")
        let expected = CodeLocation(fileID: "NapkinTests/CreationSiteRecordedTests.swift", line: UInt(ConcurrentMaker.line))
        let wrong = await recorder.record {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var wrong = 0
                        for _ in 0..<50 {
                            let interactor = ConcurrentMaker.make()
                            if interactor.lifecycle.createdAt != expected { wrong += 1 }
                        }
                        return wrong
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(wrong == 0)
    }
}

// MARK: - Where no line can be had

/// The function a creation names where only a symbol can be had (an iOS
/// device: no `Runtime`; a binary without debug information): the same
/// frame as the line, named `Module/Type.function(labels:)`. On Linux the
/// path is taken on purpose (`CreationSite.functionsOnly`); the iOS name
/// source (`dladdr`) is tested on an exported symbol of the Swift runtime.
@Suite("Creation sites, by function name")
@MainActor
struct CreationSiteFunctionTests {
    @Test("a builder method, a factory in the router's file, an async factory, a closure: the function that built it, for router and interactor")
    func functionNames() async {
        let recorder = TraceRecorder(app: "functions")
        let routers = CreationSite.$functionsOnly.withValue(true) {
            recorder.record { (OwnInitBuilder().build(), FactoryRouter.make()) }
        }
        let own = await CreationSiteRecordedTests.created("OwnInitRouter", in: recorder)
        #expect(own.router == CodeLocation(module: "NapkinTests", function: "OwnInitBuilder.build()"), "\(recorder.eventsAsRecorded.map(\.kind))")
        #expect(own.router?.isFunction == true)
        #expect(own.interactor == CodeLocation(module: "NapkinTests", function: "OwnInitBuilder.build()"))
        let factory = await CreationSiteRecordedTests.created("FactoryRouter", in: recorder)
        #expect(factory.router == CodeLocation(module: "NapkinTests", function: "FactoryRouter.make()"))

        let asyncRecorder = TraceRecorder(app: "functions-async")
        let other = await CreationSite.$functionsOnly.withValue(true) {
            await asyncRecorder.record { await FactoryRouter.makeAsyncByName() }
        }
        #expect(await CreationSiteRecordedTests.created("FactoryRouter", in: asyncRecorder).router
                    == CodeLocation(module: "NapkinTests", function: "FactoryRouter.makeAsyncByName()"))

        let closureRecorder = TraceRecorder(app: "functions-closure")
        let inClosure = CreationSite.$functionsOnly.withValue(true) {
            closureRecorder.record { [InheritingRouter(interactor: RecordedInteractor())] }
        }
        #expect(await CreationSiteRecordedTests.created("InheritingRouter", in: closureRecorder).router
                    == CodeLocation(module: "NapkinTests", function: "CreationSiteFunctionTests.functionNames()"))
        withExtendedLifetime((routers, other, inClosure)) {}
    }

    @Test("the choice of frame from names alone: initializers skipped (private ones too), the interactor's type found from its own initializer")
    func chooseFrame() {
        // dladdr's names (swift_demangle's full form); nil for Napkin's and the system's frames.
        let frames: [String?] = [
            nil, nil,
            "RibHouse.LoggedInRouter.() -> RibHouse.LoggedInRouter(in _464CC02B0149E2D519C5D76426539C7C).init(interactor: RibHouse.LoggedInInteractor) -> RibHouse.LoggedInRouter",
            "RibHouse.LoggedInRouter.__allocating_init(interactor: RibHouse.LoggedInInteractor) -> RibHouse.LoggedInRouter",
            "RibHouse.LoggedInBuilder.build(withListener: RibHouse.LoggedInListener) -> RibHouse.LoggedInRouting",
            nil,
        ]
        let chosen = CreationSite.chooseFrame(frames, skipping: InitializerNames(names: ["LoggedInRouter", "ViewableRouter", "Router"]))
        #expect(chosen?.index == 4)
        let interactor: [String?] = [
            nil, "RibHouse.LoggedInInteractor.init() -> RibHouse.LoggedInInteractor",
            "RibHouse.LoggedInInteractor.__allocating_init() -> RibHouse.LoggedInInteractor",
            "RibHouse.LoggedInBuilder.build(withListener: RibHouse.LoggedInListener) -> RibHouse.LoggedInRouting",
        ]
        let found = CreationSite.chooseFrame(interactor, skipping: nil)
        #expect(found?.index == 3)
        #expect(found?.skipped?.names == ["LoggedInInteractor"])
        #expect(CreationSite.chooseFrame([nil, frames[2], frames[3]], skipping: InitializerNames(names: ["LoggedInRouter"])) == nil,
                "only initializers: no frame")
    }

    @Test("the dynamic linker names an exported Swift function by its address, and the runtime demangles it; an unknown address has no name")
    func dladdrAndDemangle() throws {
        let handle = try #require(dlopen(nil, RTLD_NOW))
        defer { dlclose(handle) }
        // String.count's getter, exported by the Swift runtime library.
        let symbol = try #require(dlsym(handle, "$sSS5countSivg"))
        var stack = ReturnAddresses()
        // A return address just past the function's first byte: inside it.
        stack.addresses.0 = UInt(bitPattern: symbol) + 1
        stack.addresses.1 = 1
        stack.count = 2
        let names = stack.symbolNames()
        #expect(names.count == 2)
        #expect(names[0] == "$sSS5countSivg", "\(names)")
        #expect(names[1] == nil, "address 1 is no symbol's")
        #expect(SwiftSymbol.demangle("$sSS5countSivg") == "Swift.String.count.getter : Swift.Int")
        #expect(SwiftSymbol.demangle("main") == nil)
        #expect(SwiftSymbol.isAppCode(mangled: "$sSS5countSivg") == false, "the standard library")
        #expect(SwiftSymbol.isAppCode(mangled: "$s8RibHouse15LoggedInBuilderC5build12withListener4userAA0cD7Routing_pAA0cdH0_p_AA4UserVtYaF"))
        #expect(SwiftSymbol.isAppCode(mangled: "$s8RibHouse15LoggedInBuilderC5build12withListener4userAA0cD7Routing_pAA0cdH0_p_AA4UserVtYaFTA") == false, "a thunk")
        #expect(SwiftSymbol.isAppCode(mangled: "$s6Napkin6RouterC10interactorACyxGx_tcfc") == false, "Napkin's")
        #expect(CreationSite.functionLocation(mangled: "$s8RibHouse15LoggedInBuilderC5build12withListener4userAA0cD7Routing_pAA0cdH0_p_AA4UserVtYaF")
                    == CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:user:)"))
    }

    @Test("names from symbols are used only when the first frame is named as Napkin's (a stripped binary names neighbours)")
    func strippedGuard() throws {
        let handle = try #require(dlopen(nil, RTLD_NOW))
        defer { dlclose(handle) }
        let symbol = try #require(dlsym(handle, "$sSS5countSivg"))
        let named = UInt(bitPattern: symbol) + 1
        // Every frame named, but the first is not Napkin's: none is used.
        var stack = ReturnAddresses()
        (stack.addresses.0, stack.addresses.1, stack.addresses.2) = (named, named, named)
        stack.count = 3
        #expect(stack.symbolNames().allSatisfy { $0 == "$sSS5countSivg" }, "the names are there")
        #expect(CreationSite.functionFromSymbols(of: stack, skipping: nil) == nil)
        // No name at all for the first frame: none either.
        stack.addresses.0 = 1
        #expect(CreationSite.functionFromSymbols(of: stack, skipping: nil) == nil)

        // The same app frames, after Napkin's own (a binary with its symbols): the builder.
        let initializer = "$s8RibHouse14LoggedInRouterC10interactorAcA0bC10InteractorC_tcfc"
        let builder = "$s8RibHouse15LoggedInBuilderC5build12withListener4userAA0cD7Routing_pAA0cdH0_p_AA4UserVtYaF"
        let skipping = InitializerNames(names: ["LoggedInRouter", "Router"])
        let found = CreationSite.function(fromSymbolNames: ["$s6Napkin6RouterC10interactorACyxGx_tcfc", initializer, builder], skipping: skipping)
        #expect(found == CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:user:)"))
        // Stripped: the first frame named as something else (a neighbour), or not named.
        #expect(CreationSite.function(fromSymbolNames: ["$sSS5countSivg", initializer, builder], skipping: skipping) == nil)
        #expect(CreationSite.function(fromSymbolNames: [nil, initializer, builder], skipping: skipping) == nil)
    }
}
