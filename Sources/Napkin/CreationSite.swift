// Where a router or interactor was made: the first frame of the app's code
// on the call stack of its initializer, outside Napkin and outside the
// initializers of the object's own class and its superclasses (the builder's
// line, in napkin's pattern), whatever the subclass's initializers look like.
//
// Why the call stack and not default arguments: `file: StaticString =
// #fileID, line: UInt = #line` captures only the immediate caller, which for
// a router with an initializer of its own is its `super.init` line (the same
// for every instance), and an inherited initializer drops the defaulted
// overload altogether. Only the stack knows the builder.
//
// How, and what it costs (docs/benchmarks.md, "Creation sites"): each
// creation reads up to `depth` return addresses from the frame-pointer chain
// (`NapkinStack`, no allocation) and looks them up in a table of the stacks
// seen so far. The first time a stack is seen, Swift's `Runtime` module
// (SE-0419; macOS and Linux, not in the iOS SDK, see docs/apple.md)
// captures and symbolicates it (symbols and DWARF line tables: tens of
// microseconds, milliseconds for the first of the process), and its frames
// of the app's code are kept; which of them is the line depends on the
// object's type (whose initializers are skipped), resolved once per stack
// and type. Every later creation from the same place costs the walk and two
// dictionary lookups under a lock, and allocates nothing. Nothing here runs
// unless the object is created traced (tracing or detection on): the callers
// capture only when `tracerForNewObject()` gave a tracer.
//
// Where `Runtime` is missing (iOS) or the stack has no line for the frame
// (no debug information), no line is found; a router then falls back to the
// default arguments of `Router.init(interactor:file:line:)`.
#if canImport(Runtime)
import Runtime
#endif
import NapkinStack
import NapkinTrace

/// A creation's stack, interned: an index into ``CreationSites``' table
/// (0: none), small enough to keep in every interactor's lifecycle.
struct CreationSite: Sendable, Hashable {
    /// The index in the table of stacks, from 1; 0 for none.
    let index: UInt32

    /// No stack (created untraced, or the stack could not be read).
    static let none = CreationSite(index: 0)

    /// How many return addresses are read: Napkin's frames (this capture,
    /// the base initializers, a `ViewableRouter`'s), the class's own
    /// initializers (a designated init, its allocating entry point, a
    /// convenience init, a stored property's initial value), the builder's.
    static let depth = 12

    /// Reads the current stack and interns it (symbolicating it the first
    /// time it is seen). Call it only for an object created traced.
    @inline(never)
    static func capture() -> CreationSite {
        var stack = ReturnAddresses()
        stack.count = withUnsafeMutableBytes(of: &stack.addresses) { raw in
            napkin_return_addresses(raw.baseAddress!.assumingMemoryBound(to: UInt.self), depth)
        }
        guard stack.count > 0 else { return .none }
        return CreationSites.intern(stack)
    }

    /// The first frame of the app's code outside Napkin and outside the
    /// initializers of `type` (and its superclasses), as `Module/File.swift`
    /// and its line; nil where the stack gives no line.
    func location(skippingInitializersOf type: Any.Type) -> CodeLocation? {
        guard index != 0 else { return nil }
        return CreationSites.location(of: self, skippingInitializersOf: type)
    }
}

/// Up to ``CreationSite/depth`` return addresses, stored inline (a
/// dictionary key that needs no allocation).
struct ReturnAddresses: Hashable {
    /// The addresses; only the first `count` are meaningful, the rest are 0.
    var addresses: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// How many were read.
    var count = 0

    static func == (a: ReturnAddresses, b: ReturnAddresses) -> Bool {
        a.count == b.count && withUnsafeBytes(of: a.addresses) { x in withUnsafeBytes(of: b.addresses) { y in x.elementsEqual(y) } }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        withUnsafeBytes(of: addresses) { hasher.combine(bytes: $0) }
    }
}

/// One frame of the app's code in a symbolicated creation stack.
struct SymbolicatedFrame: Sendable {
    /// Its module, from the mangled name.
    let module: String
    /// Its demangled name (`LoggedInBuilder.build(withListener:)`).
    let name: String
    /// Its file and line, where debug information gives them.
    let location: CodeLocation?
}

/// The process's table of creation stacks and their resolved lines.
enum CreationSites {
    /// What the table holds, guarded by one lock.
    struct Table {
        /// Each stack seen, and its index (from 1).
        var indices: [ReturnAddresses: UInt32] = [:]
        /// The symbolicated frames of each, by index - 1.
        var frames: [[SymbolicatedFrame]] = []
        /// Resolved lines, by stack and type.
        var resolved: [Resolution: CodeLocation?] = [:]
    }

    /// A stack and the type whose initializers it skips.
    struct Resolution: Hashable {
        let site: CreationSite
        let type: ObjectIdentifier
    }

    /// Bounds the table: past this many stacks it stops learning new ones
    /// (they resolve to no line). An app has a bounded number of creation
    /// paths; the bound keeps a pathological one from growing memory without end.
    static let limit = 8192

    static let table = Locked(Table())

    /// The index of `stack`, symbolicating and adding it the first time.
    static func intern(_ stack: ReturnAddresses) -> CreationSite {
        if let index = table.withLock({ $0.indices[stack] }) { return CreationSite(index: index) }
        // Outside the lock: symbolication can take milliseconds the first time.
        // The stack is still the one read: this runs inside the same initializer.
        let frames = symbolicatedAppFrames()
        return table.withLock { table in
            if let index = table.indices[stack] { return CreationSite(index: index) }
            guard table.frames.count < limit else { return .none }
            table.frames.append(frames)
            let index = UInt32(table.frames.count)
            table.indices[stack] = index
            return CreationSite(index: index)
        }
    }

    /// The line for `site` skipping `type`'s initializers (resolved once per pair).
    static func location(of site: CreationSite, skippingInitializersOf type: Any.Type) -> CodeLocation? {
        let key = Resolution(site: site, type: ObjectIdentifier(type))
        let known: CodeLocation?? = table.withLock { $0.resolved[key] }
        if let known { return known }
        let frames = table.withLock { $0.frames[Int(site.index) - 1] }
        let names = InitializerNames(of: type)
        let found = frames.first { !names.matches($0.name) && $0.location != nil }?.location
        table.withLock { $0.resolved[key] = .some(found) }
        return found
    }

    #if canImport(Runtime)
    /// The images of the process, captured once (reading them costs about
    /// half a millisecond). An image loaded later is not in it: its frames
    /// have no symbol, so no line.
    static let processImages = ImageMap.capture()
    #endif

    /// The current stack's frames of the app's code (not Napkin's, not the
    /// standard library's, no thunks), innermost first; empty without `Runtime`.
    @inline(never)
    static func symbolicatedAppFrames() -> [SymbolicatedFrame] {
        #if canImport(Runtime)
        let images = processImages
        guard let backtrace = try? Backtrace.capture(algorithm: .fast, limit: CreationSite.depth + 4, top: 0, images: images),
              let symbolicated = backtrace.symbolicated(with: images, options: [.showInlineFrames, .showSourceLocations, .useSymbolCache])
        else { return [] }
        var frames: [SymbolicatedFrame] = []
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol, !frame.isSwiftThunk, !symbol.isSystemFunction,
                  let module = SwiftSymbol.module(ofMangled: symbol.rawName), module != "Napkin" else { continue }
            var location: CodeLocation?
            if let source = symbol.sourceLocation, source.line > 0 {
                let file = source.path.split(separator: "/").last.map(String.init) ?? source.path
                location = CodeLocation(fileID: "\(module)/\(file)", line: UInt(source.line))
            }
            frames.append(SymbolicatedFrame(module: module, name: symbol.name, location: location))
        }
        return frames
        #else
        return []
        #endif
    }
}
