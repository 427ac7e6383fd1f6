import NapkinTrace
import Foundation
import Napkin
import Synchronization
import Testing

/// A service a component shares.
private final class Service: Sendable {
    let dependencyName: String
    init(dependencyName: String) { self.dependencyName = dependencyName }
}

/// A service built from another shared service of the same component.
private final class Composite: Sendable {
    let service: Service
    init(service: Service) { self.service = service }
}

private protocol ParentDependency: Dependency {
    var name: String { get }
}

private final class ParentComponent: EmptyComponent, ParentDependency, @unchecked Sendable {
    let name = "parent"
}

/// Counts how often each factory runs.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .sequentiallyConsistent) }
    var count: Int { value.load(ordering: .sequentiallyConsistent) }
}

private final class ChildComponent: Component<ParentDependency>, @unchecked Sendable {
    let serviceFactoryCalls = Counter()
    let optionalFactoryCalls = Counter()
    let compositeFactoryCalls = Counter()

    var service: Service {
        shared {
            serviceFactoryCalls.increment()
            return Service(dependencyName: dependency.name)
        }
    }

    /// Not shared: a new instance on every access.
    var unsharedService: Service { Service(dependencyName: dependency.name) }

    var optionalService: Service? {
        shared {
            optionalFactoryCalls.increment()
            return nil
        }
    }

    /// Its factory reads `service`, another shared property (recursive lock).
    var composite: Composite {
        shared {
            compositeFactoryCalls.increment()
            return Composite(service: service)
        }
    }

    /// A factory that takes its time, to widen the race window.
    var slowService: Service {
        shared {
            serviceFactoryCalls.increment()
            usleep(2_000)
            return Service(dependencyName: "slow")
        }
    }
}

@Suite("Component")
struct ComponentTests {
    @Test("Component keeps its dependency; EmptyComponent satisfies EmptyDependency")
    func dependency() {
        let parent = ParentComponent()
        let child = ChildComponent(dependency: parent)
        #expect(child.dependency === parent)
        #expect(child.service.dependencyName == "parent")
        let empty: any EmptyDependency = EmptyComponent()
        #expect(empty is EmptyComponent)
    }

    @Test("shared returns one instance per caller key; unshared properties make new ones")
    func oneInstancePerKey() {
        let component = ChildComponent(dependency: ParentComponent())
        let first = component.service
        let second = component.service
        #expect(first === second)
        #expect(component.serviceFactoryCalls.count == 1)
        #expect(component.unsharedService !== component.unsharedService)
    }

    @Test("Explicit caller keys separate instances; the same key returns the cached one")
    func explicitKeys() {
        let component = ChildComponent(dependency: ParentComponent())
        let a = component.shared(forCallerKey: "a") { Service(dependencyName: "a") }
        let b = component.shared(forCallerKey: "b") { Service(dependencyName: "b") }
        let again = component.shared(forCallerKey: "a") { Service(dependencyName: "other") }
        #expect(a !== b)
        #expect(a === again)
        #expect(again.dependencyName == "a")
    }

    @Test("Two components never share an instance")
    func perComponent() {
        let parent = ParentComponent()
        let one = ChildComponent(dependency: parent)
        let two = ChildComponent(dependency: parent)
        #expect(one.service !== two.service)
    }

    @Test("A cached nil for an optional type stays cached")
    func cachedNil() {
        let component = ChildComponent(dependency: ParentComponent())
        #expect(component.optionalService == nil)
        #expect(component.optionalService == nil)
        #expect(component.optionalService == nil)
        #expect(component.optionalFactoryCalls.count == 1)
    }

    @Test("A factory may read another shared property of the same component")
    func recursiveFactory() {
        let component = ChildComponent(dependency: ParentComponent())
        let composite = component.composite
        #expect(composite.service === component.service)
        #expect(component.composite === composite)
        #expect(component.compositeFactoryCalls.count == 1)
        #expect(component.serviceFactoryCalls.count == 1)
    }

    @Test("64 concurrent threads get one instance; the factory runs exactly once")
    func concurrentThreads() {
        let component = ChildComponent(dependency: ParentComponent())
        let seen = Locked<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let service = component.slowService
            seen.withLock { $0.append(ObjectIdentifier(service)) }
        }
        let identities = seen.withLock { $0 }
        #expect(identities.count == 64)
        #expect(Set(identities).count == 1)
        #expect(component.serviceFactoryCalls.count == 1)
    }

    @Test("48 concurrent tasks get one instance; the factory runs exactly once")
    func concurrentTasks() async {
        let component = ChildComponent(dependency: ParentComponent())
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<48 {
                group.addTask { ObjectIdentifier(component.slowService) }
            }
            var result: [ObjectIdentifier] = []
            for await identity in group { result.append(identity) }
            return result
        }
        #expect(identities.count == 48)
        #expect(Set(identities).count == 1)
        #expect(component.serviceFactoryCalls.count == 1)
    }

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("Using one caller key for two types stops the process")
    func keyTypeMismatch() async {
        await #expect(processExitsWith: .failure) {
            let component = ChildComponent(dependency: ParentComponent())
            _ = component.shared(forCallerKey: "k") { 1 }
            _ = component.shared(forCallerKey: "k") { "one" }
        }
    }
    #endif
}
