import Foundation
@testable import Napkin
import NapkinStack
import Testing

/// The pieces of `CreationSite` on their own: the frame-pointer walk
/// (`NapkinStack`, the one unsafe part), reading a mangled name's module, and
/// telling a class's initializers from other code by their demangled names.
@Suite("Creation sites: the stack walk and symbol names")
struct CreationSiteTests {
    @Test("the walk returns the callers' return addresses, innermost first, at most max, without reading past the stack")
    func walk() {
        let deep = Walker.nested(depth: 6, max: 12)
        #expect(deep.count == 12, "\(deep)")
        #expect(deep.allSatisfy { $0 != 0 })
        // Six frames of the same function calling itself from one place: that return address, five times.
        #expect((Dictionary(grouping: deep) { $0 }.values.map(\.count).max() ?? 0) >= 5, "\(deep)")
        #expect(Walker.nested(depth: 1, max: 3).count == 3)
        #expect(Walker.nested(depth: 1, max: 0).isEmpty)
        // Far more than the stack holds: the walk stops at its end, inside it.
        let all = Walker.nested(depth: 1, max: 10_000)
        #expect(all.count > 2 && all.count < 10_000, "\(all.count)")
    }

    @Test("the walk works on another thread and inside an async function")
    func walkElsewhere() async {
        let inAsync = await Walker.fromAsync()
        #expect(inAsync.count >= 2, "\(inAsync)")
        let onThread = await withCheckedContinuation { (done: CheckedContinuation<[UInt], Never>) in
            Thread.detachNewThread { done.resume(returning: Walker.nested(depth: 2, max: 8)) }
        }
        #expect(onThread.count >= 3, "\(onThread)")
    }

    @Test("the module of a Swift mangled name; nil for other names and the standard library")
    func module() {
        #expect(SwiftSymbol.module(ofMangled: "$s8RibHouse13LoggedInRouterC11interactorACyF") == "RibHouse")
        #expect(SwiftSymbol.module(ofMangled: "_$s6Napkin6RouterC11interactorACyxGx_tcfc") == "Napkin")
        #expect(SwiftSymbol.module(ofMangled: "$sSa6appendyyxnF") == nil)
        #expect(SwiftSymbol.module(ofMangled: "main") == nil)
        #expect(SwiftSymbol.module(ofMangled: "$s99Short") == nil)
    }

    @Test("a class's initializer names: its own and its superclasses', generic arguments dropped")
    func names() {
        let names = InitializerNames(of: GenericRouter<Int>.self).names
        #expect(names.first == "GenericRouter", "\(names)")
        #expect(names.contains("Router"), "\(names)")
        #expect(InitializerNames.unqualified("NapkinTests.Outer<Swift.Int>.Inner<Swift.String>") == "Inner")
    }

    @Test("which demangled names are the class's initializers")
    func matches() {
        let router = InitializerNames(names: ["LoggedInRouter", "ViewableRouter", "Router"])
        #expect(router.matches("LoggedInRouter.init(interactor:viewController:)"))
        #expect(router.matches("RibHouse.LoggedInRouter.__allocating_init(interactor:viewController:)"))
        #expect(router.matches("specialized GenericRouter.init(items:)") == false)
        #expect(router.matches("LoggedInBuilder.build(withListener:)") == false)
        // "Router" does not match inside another type's name.
        let base = InitializerNames(names: ["Router"])
        #expect(base.matches("LoggedInRouter.init(interactor:)") == false)
        #expect(base.matches("closure #1 in Router.init(interactor:)"))
        let interactor = InitializerNames(names: ["RecordedInteractor"])
        #expect(interactor.matches("variable initialization expression of RecordedInteractor.lifecycle"))
        #expect(interactor.matches("variable initialization expression of OtherInteractor.lifecycle") == false)
        // A private initializer, in both demanglers' forms (its discriminator in the way).
        let factory = InitializerNames(names: ["FactoryRouter"])
        #expect(factory.matches("FactoryRouter.().init()"))
        #expect(factory.matches("NapkinTests.FactoryRouter.() -> NapkinTests.FactoryRouter(in _464CC02B0149E2D519C5D76426539C7C).init() -> NapkinTests.FactoryRouter"))
        #expect(factory.matches("static FactoryRouter.make()") == false)
        #expect(SwiftSymbol.initializedType(in: "FactoryRouter.().init()") == "FactoryRouter")
    }

    @Test("private discriminators are dropped; other parentheses are kept")
    func privateDiscriminators() {
        #expect(SwiftSymbol.withoutPrivateDiscriminators("Napkin.Router.(creationLocation in _30F42EA9F5BFD8F721C708404E996AC3)(file: Swift.StaticString?)")
                    == "Napkin.Router.creationLocation(file: Swift.StaticString?)")
        #expect(SwiftSymbol.withoutPrivateDiscriminators("FactoryRouter.().init()") == "FactoryRouter.init()")
        #expect(SwiftSymbol.withoutPrivateDiscriminators("closure #1 (Swift.Int) -> () in M.B.build(in: Swift.Int)") == "closure #1 (Swift.Int) -> () in M.B.build(in: Swift.Int)")
        #expect(SwiftSymbol.withoutPrivateDiscriminators("M.B.(helper in _ZZ)(x:)") == "M.B.(helper in _ZZ)(x:)", "not hex: kept")
        #expect(SwiftSymbol.function(demangled: "Shop.CartBuilder.(make in _ABC123)(for: Shop.Cart) -> Shop.CartRouter")! == ("Shop", "CartBuilder.make(for:)"))
    }
}

/// Calls the walk at the bottom of nested calls that the optimiser keeps.
enum Walker {
    @inline(never)
    static func nested(depth: Int, max: Int) -> [UInt] {
        if depth > 1 { return nested(depth: depth - 1, max: max) }
        var buffer = [UInt](repeating: 0, count: Swift.max(max, 1))
        let count = buffer.withUnsafeMutableBufferPointer { napkin_return_addresses($0.baseAddress!, max) }
        return Array(buffer.prefix(count))
    }

    @inline(never)
    static func fromAsync() async -> [UInt] {
        await Task.yield()
        return nested(depth: 1, max: 8)
    }
}
