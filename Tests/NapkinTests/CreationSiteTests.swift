import Foundation
@testable import Napkin
import NapkinStack
import Testing
import TestSupport

/// The pieces of `CreationSite` on their own: the frame-pointer walk
/// (`NapkinStack`, the one unsafe part), reading a mangled name's module, and
/// telling a class's initializers from other code by their demangled names.
@Suite("Creation sites: the stack walk and symbol names")
struct CreationSiteTests {
    @Test("the walk returns the callers' return addresses, innermost first, at most max, each one code of a loaded image")
    func walk() throws {
        let deep = Walker.nested(depth: 6, max: 12)
        #expect(deep.count == 12, "\(deep)")
        // Every address is in a loaded image, and the first eight in this test's
        // own: the call handing the walk its buffer, then `nested` calling itself.
        let images = deep.map(Walker.image(of:))
        #expect(images.allSatisfy { $0 != nil }, "\(deep) \(images)")
        #expect(images.prefix(8).allSatisfy { $0 == Walker.testImage }, "\(images), this test's: \(Walker.testImage ?? "none")")
        // Six frames of the same function calling itself from one place: that return address, five times.
        #expect((Dictionary(grouping: deep) { $0 }.values.map(\.count).max() ?? 0) >= 5, "\(deep)")
        #expect(Walker.nested(depth: 1, max: 3).count == 3)
        #expect(Walker.nested(depth: 1, max: 0).isEmpty)
        // Far more than the stack holds: the walk ends at the stack's first
        // frame, every address it gave still code.
        let all = Walker.nested(depth: 1, max: 10_000)
        #expect(all.count > 2 && all.count < 10_000, "\(all.count)")
        #expect(all.allSatisfy { Walker.image(of: $0) != nil }, "\(all.map { ($0, Walker.image(of: $0) ?? "none") })")
    }

    @Test("the walk stops where NapkinStack.c says: outside the stack, off a word, at a return address of 0, at a frame pointer not above the last, at max")
    func walkStops() {
        // A stand-in stack of 64 words with four frame records at words 8, 16, 24, 32,
        // each {next frame pointer, return address}, the last pointing past the stack's end.
        let words = 64
        let stack = UnsafeMutablePointer<UInt>.allocate(capacity: words)
        defer { stack.deallocate() }
        let low = UInt(bitPattern: stack), high = low + UInt(words * MemoryLayout<UInt>.stride)
        func address(_ word: Int) -> UInt { low + UInt(word * MemoryLayout<UInt>.stride) }
        func chain(_ edit: (UnsafeMutablePointer<UInt>) -> Void = { _ in }) {
            stack.initialize(repeating: 0, count: words)
            for (k, word) in [8, 16, 24, 32].enumerated() {
                stack[word] = k < 3 ? address(word + 8) : high
                stack[word + 1] = 0x1000 + UInt(k)
            }
            edit(stack)
        }
        func walk(from word: Int = 8, skip: Int = 0, max: Int = 16, low: UInt? = nil, high: UInt? = nil) -> [UInt] {
            var out = [UInt](repeating: 0, count: max)
            let count = out.withUnsafeMutableBufferPointer {
                napkin_walk_frames(address(word), low ?? address(0), high ?? address(words), skip, $0.baseAddress!, max)
            }
            return Array(out.prefix(count))
        }
        chain()
        #expect(walk() == [0x1000, 0x1001, 0x1002, 0x1003], "the last record's next frame is past the stack's end")
        #expect(walk(skip: 1) == [0x1001, 0x1002, 0x1003], "the caller's own return address left out")
        #expect(walk(max: 2) == [0x1000, 0x1001])
        #expect(walk(high: address(25)) == [0x1000, 0x1001], "a record not wholly inside the stack is not read")
        #expect(walk(low: address(9)) == [], "a first frame pointer below the stack")
        chain { $0[16] = address(17) + 1 }
        #expect(walk() == [0x1000, 0x1001], "a next frame pointer not on a word")
        chain { $0[25] = 0 }
        #expect(walk() == [0x1000, 0x1001], "a return address of 0 ends the walk, unwritten")
        chain { $0[16] = address(8) }
        #expect(walk() == [0x1000, 0x1001], "a next frame pointer below the record's own (the stack grows down)")
        chain { $0[16] = address(16) }
        #expect(walk() == [0x1000, 0x1001], "a record pointing at itself")
    }

    @Test("the walk works on another thread and inside an async function: code addresses, ending inside the stack")
    func walkElsewhere() async {
        let inAsync = await Walker.fromAsync()
        #expect(inAsync.count >= 2, "\(inAsync)")
        #expect(Walker.image(of: inAsync[0]) == Walker.testImage, "\(inAsync)")
        #expect(inAsync.allSatisfy { Walker.image(of: $0) != nil }, "\(inAsync)")
        let onThread = await withCheckedContinuation { (done: CheckedContinuation<[UInt], Never>) in
            Thread.detachNewThread { done.resume(returning: Walker.nested(depth: 2, max: 1_000)) }
        }
        #expect(onThread.count >= 3 && onThread.count < 1_000, "\(onThread)")
        #expect(onThread.prefix(4).allSatisfy { Walker.image(of: $0) == Walker.testImage }, "\(onThread)")
        #expect(onThread.allSatisfy { Walker.image(of: $0) != nil }, "\(onThread)")
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

    /// The image (executable or library) whose mapping holds the call before `address` (a return address), as `dladdr` finds it; nil outside every image.
    static func image(of address: UInt) -> String? {
        CLibrary.imageAndSymbol(at: address - 1)?.image
    }

    /// The image this test's code is in (where a variable of this file is).
    nonisolated(unsafe) static var anchor = 0
    static let testImage = withUnsafePointer(to: &anchor) { CLibrary.imageAndSymbol(at: UInt(bitPattern: $0))?.image }

    @inline(never)
    static func fromAsync() async -> [UInt] {
        await Task.yield()
        return nested(depth: 1, max: 8)
    }
}
