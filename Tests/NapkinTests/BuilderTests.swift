import Napkin
import Testing

private final class BuildComponent: EmptyComponent, @unchecked Sendable {
    let tag: Int
    init(tag: Int = 0) { self.tag = tag }
}

/// What the test builders build in place of a router: it records its inputs.
private final class Product: Sendable {
    let component: BuildComponent
    let buildDependency: String
    init(component: BuildComponent, buildDependency: String) {
        self.component = component
        self.buildDependency = buildDependency
    }
}

private protocol ProductBuildable: Buildable {
    func build(name: String) -> Product
}

private final class PlainBuilder: Builder<BuildComponent>, ProductBuildable, @unchecked Sendable {
    func build(name: String) -> Product {
        Product(component: dependency, buildDependency: name)
    }
}

private final class DynamicBuilder: ComponentizedBuilder<BuildComponent, Product, String, Int>, @unchecked Sendable {
    override func build(with component: BuildComponent, _ dynamicBuildDependency: String) -> Product {
        Product(component: component, buildDependency: dynamicBuildDependency)
    }
}

private final class SimpleBuilder: SimpleComponentizedBuilder<BuildComponent, Product>, @unchecked Sendable {
    override func build(with component: BuildComponent) -> Product {
        Product(component: component, buildDependency: "simple")
    }
}

private final class StagedBuilder: MultiStageComponentizedBuilder<BuildComponent, Product, String>, @unchecked Sendable {
    override func finalStageBuild(with component: BuildComponent, _ dynamicDependency: String) -> Product {
        Product(component: component, buildDependency: dynamicDependency)
    }
}

private final class SimpleStagedBuilder: SimpleMultiStageComponentizedBuilder<BuildComponent, Product>, @unchecked Sendable {
    override func finalStageBuild(with component: BuildComponent) -> Product {
        // Reading the pass's component again from inside the final stage is allowed.
        #expect(componentForCurrentBuildPass === component)
        return Product(component: component, buildDependency: "staged")
    }
}

/// Whether `assert` is checked in this build (debug); the framework is built
/// with the same configuration as the tests.
private let assertionsEnabled: Bool = {
    var enabled = false
    assert({ enabled = true; return true }())
    return enabled
}()

@Suite("Builders")
struct BuilderTests {
    @Test("Builder keeps its dependency and conforms to Buildable")
    func plainBuilder() {
        let component = BuildComponent(tag: 7)
        let builder: any ProductBuildable = PlainBuilder(dependency: component)
        let product = builder.build(name: "x")
        #expect(product.component === component)
        #expect((builder as? PlainBuilder)?.dependency === component)
    }

    @Test("ComponentizedBuilder: the Router overload builds with a new component from the dynamic dependency")
    func componentizedRouterOverload() {
        let builder = DynamicBuilder { tag in BuildComponent(tag: tag) }
        let first: Product = builder.build(withDynamicBuildDependency: "one", dynamicComponentDependency: 1)
        let second: Product = builder.build(withDynamicBuildDependency: "two", dynamicComponentDependency: 2)
        #expect(first.component.tag == 1)
        #expect(first.buildDependency == "one")
        #expect(second.component.tag == 2)
        #expect(second.buildDependency == "two")
        #expect(first.component !== second.component)
    }

    @Test("ComponentizedBuilder: the (Component, Router) overload returns the component the router was built with")
    func componentizedTupleOverload() {
        let builder = DynamicBuilder { tag in BuildComponent(tag: tag) }
        let (component, product): (BuildComponent, Product) =
            builder.build(withDynamicBuildDependency: "dyn", dynamicComponentDependency: 3)
        #expect(product.component === component)
        #expect(component.tag == 3)
        #expect(product.buildDependency == "dyn")
        let (again, _): (BuildComponent, Product) =
            builder.build(withDynamicBuildDependency: "dyn", dynamicComponentDependency: 3)
        #expect(again !== component)
    }

    @Test("SimpleComponentizedBuilder: a new component per build")
    func simpleComponentized() {
        let builder = SimpleBuilder { BuildComponent() }
        let first = builder.build()
        let second = builder.build()
        #expect(first.buildDependency == "simple")
        #expect(first.component !== second.component)
        let (component, product): (BuildComponent, Product) =
            builder.build(withDynamicBuildDependency: (), dynamicComponentDependency: ())
        #expect(product.component === component)
    }

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("ComponentizedBuilder stops the process when the component builder returns the previous component",
          .enabled(if: assertionsEnabled, "assert is compiled out of release builds"))
    func sameComponentTwiceAsserts() async {
        await #expect(processExitsWith: .failure) {
            let reused = BuildComponent()
            let builder = SimpleBuilder { reused }
            _ = builder.build()
            _ = builder.build()
        }
    }
    #endif

    @Test("MultiStageComponentizedBuilder: the same component throughout a pass, a new one next pass")
    func multiStagePasses() {
        let builder = StagedBuilder { BuildComponent() }
        let early = builder.componentForCurrentBuildPass
        #expect(builder.componentForCurrentBuildPass === early)
        let product = builder.finalStageBuild(withDynamicDependency: "first")
        #expect(product.component === early)
        #expect(product.buildDependency == "first")

        let nextPass = builder.componentForCurrentBuildPass
        #expect(nextPass !== early)
        let second = builder.finalStageBuild(withDynamicDependency: "second")
        #expect(second.component === nextPass)
        // A pass that never read the component early still gets a new one.
        let third = builder.finalStageBuild(withDynamicDependency: "third")
        #expect(third.component !== second.component)
    }

    @Test("SimpleMultiStageComponentizedBuilder: finalStageBuild() ends the pass")
    func simpleMultiStage() {
        let builder = SimpleStagedBuilder { BuildComponent() }
        let early = builder.componentForCurrentBuildPass
        let product = builder.finalStageBuild()
        #expect(product.component === early)
        #expect(product.buildDependency == "staged")
        let next = builder.finalStageBuild()
        #expect(next.component !== early)
    }

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("MultiStageComponentizedBuilder stops the process when the next pass gets the previous component",
          .enabled(if: assertionsEnabled, "assert is compiled out of release builds"))
    func multiStageSameComponentAsserts() async {
        await #expect(processExitsWith: .failure) {
            let reused = BuildComponent()
            let builder = SimpleStagedBuilder { reused }
            _ = builder.finalStageBuild()
            _ = builder.finalStageBuild()
        }
    }
    #endif

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("A builder whose subclass forgot to override build(with:) stops the process")
    func missingOverride() async {
        await #expect(processExitsWith: .failure) {
            let builder = SimpleComponentizedBuilder<BuildComponent, Product> { BuildComponent() }
            _ = builder.build()
        }
    }
    #endif
}
