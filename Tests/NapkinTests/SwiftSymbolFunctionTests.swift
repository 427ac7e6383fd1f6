@testable import Napkin
import Testing

/// `SwiftSymbol.function(demangled:)`: the seam of the path that has a
/// symbol's name and no line (`dladdr(3)` on an iOS device): the names
/// `swift_demangle` gives, read as the function a developer wrote.
@Suite("SwiftSymbol: a function's name from a demangled symbol")
struct SwiftSymbolFunctionTests {
    @Test("a builder's method, a closure in it, a specialization, async, generic, unlabelled parameters, an initializer",
          arguments: [
              ("RibHouse.LoggedInBuilder.build(withListener: RibHouse.LoggedInListener) -> RibHouse.LoggedInRouting",
               "RibHouse", "LoggedInBuilder.build(withListener:)"),
              ("closure #1 () -> () in RibHouse.LoggedInBuilder.build(withListener: RibHouse.LoggedInListener) -> RibHouse.LoggedInRouting",
               "RibHouse", "LoggedInBuilder.build(withListener:)"),
              ("function signature specialization <Arg[1] = Dead> of main.B.build(withListener: Swift.Int) -> Swift.String",
               "main", "B.build(withListener:)"),
              ("Shop.OrderBuilder.build(for: Shop.Order, _: Swift.Int) async throws -> Shop.OrderRouter", "Shop", "OrderBuilder.build(for:_:)"),
              ("Shop.Cache<Shop.OrderRouter>.make<A>(with: (Swift.Int) -> A) -> A", "Shop", "Cache.make(with:)"),
              ("Shop.Outer.Inner.make() -> ()", "Shop", "Outer.Inner.make()"),
              ("Shop.App.__allocating_init(services: [Swift.String : Swift.Int]) -> Shop.App", "Shop", "App.init(services:)"),
              ("static NapkinTests.FactoryRouter.make() -> NapkinTests.FactoryRouter", "NapkinTests", "FactoryRouter.make()"),
              ("(1) suspend resume partial function for static NapkinTests.FactoryRouter.makeAsync() async -> NapkinTests.FactoryRouter",
               "NapkinTests", "FactoryRouter.makeAsync()"),
              ("Shop.CartBuilder.(make in _ABC123)(for: Shop.Cart) -> Shop.CartRouter", "Shop", "CartBuilder.make(for:)"),
          ])
    func named(_ demangled: String, _ module: String, _ function: String) throws {
        let found = try #require(SwiftSymbol.function(demangled: demangled), "\(demangled)")
        #expect(found.module == module)
        #expect(found.function == function)
    }

    @Test("not a Swift function: nil", arguments: ["main", "", "__libc_start_main", "foo()", "a b.c()", "Shop.make(x: Int"])
    func notAFunction(_ demangled: String) {
        #expect(SwiftSymbol.function(demangled: demangled) == nil, "\(demangled)")
    }
}
