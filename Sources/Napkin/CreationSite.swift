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
// How, and what it costs: Swift's `Runtime` module (SE-0419; macOS and Linux,
// not in the iOS SDK, see docs/apple.md) captures the return addresses
// (`Backtrace.capture(algorithm: .fast)`: frame pointers, a few microseconds)
// against an image map captured once. Symbolication (symbols and DWARF line
// tables) costs tens of microseconds to milliseconds, so it runs once per
// distinct stack: the resolved line is cached by the captured addresses and
// the object's type, and every later creation from the same place costs the
// capture and a dictionary lookup (docs/benchmarks.md, "Creation sites").
// Nothing here runs unless the object is created traced (tracing or detection
// on): the callers capture only when `tracerForNewObject()` gave a tracer.
//
// Where the module is missing (iOS) or the stack has no line for the frame
// (no debug information), the caller's fallback applies: the default
// arguments `file:line:` of `Router.init(interactor:file:line:)`.
//
// Nothing unsafe is used: `Runtime`'s API is safe Swift; the cache is guarded
// by `Locked` (a pthread mutex).
#if canImport(Runtime)
import Runtime
#endif
import NapkinTrace

/// The call stack of a router's or interactor's creation, captured while it
/// is created traced, and resolved to the line of the app's code that made it.
struct CreationSite: Sendable {
    #if canImport(Runtime)
    /// The return addresses, innermost first, as `Runtime` captured them.
    private let backtrace: Backtrace?
    #endif

    /// How many frames are kept: Napkin's (the base initializers, a
    /// `ViewableRouter`'s, this capture), the class's own initializers
    /// (a designated init, its allocating entry point, a convenience init, a
    /// stored property's initial value), then the builder's frame.
    static let depth = 16

    /// Captures the current call stack (return addresses only).
    /// Call it only for an object created traced.
    @inline(never)
    static func capture() -> CreationSite {
        #if canImport(Runtime)
        CreationSite(backtrace: try? Backtrace.capture(algorithm: .fast, limit: depth, top: 0, images: Resolver.images))
        #else
        CreationSite()
        #endif
    }

    /// The first frame of the app's code outside Napkin and outside the
    /// initializers of `type` (and its superclasses), as `Module/File.swift`
    /// and its line; nil where the stack gives no line.
    func location(skippingInitializersOf type: Any.Type) -> CodeLocation? {
        #if canImport(Runtime)
        guard let backtrace else { return nil }
        return Resolver.location(of: backtrace, skippingInitializersOf: type)
        #else
        return nil
        #endif
    }
}

#if canImport(Runtime)
/// The symbolication and the cache of resolved lines.
private enum Resolver {
    /// A stack (its return addresses) and the type whose initializers it skips.
    struct Key: Hashable {
        let addresses: [Backtrace.Address]
        let type: ObjectIdentifier
    }

    /// The images of the process, captured once: reading them costs about
    /// half a millisecond, most of a capture's cost if done each time. An
    /// image loaded later is not in it; its frames resolve to no line.
    static let images = ImageMap.capture()

    /// Resolved stacks. Bounded: past `cacheLimit` entries it starts over
    /// (an app has a bounded number of creation paths; the bound only keeps a
    /// pathological one from growing memory without end).
    static let cache = Locked<[Key: CodeLocation?]>([:])
    static let cacheLimit = 4096

    /// The cached line for `backtrace`, or the line symbolication finds (then cached).
    static func location(of backtrace: Backtrace, skippingInitializersOf type: Any.Type) -> CodeLocation? {
        var addresses: [Backtrace.Address] = []
        addresses.reserveCapacity(CreationSite.depth)
        for frame in backtrace.frames {
            switch frame {
            case .programCounter(let address), .returnAddress(let address), .asyncResumePoint(let address):
                addresses.append(address)
            case .omittedFrames, .truncated:
                break
            @unknown default: // Runtime's enum, not the project's: a future kind of frame adds no address
                break
            }
        }
        guard !addresses.isEmpty else { return nil }
        let key = Key(addresses: addresses, type: ObjectIdentifier(type))
        if let known = cache.withLock({ $0[key] }) { return known }
        // Outside the lock: symbolication can take milliseconds the first time.
        let found = symbolicate(backtrace, skipping: InitializerNames(of: type))
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = found
        }
        return found
    }

    /// Symbolicates the stack and picks the first frame of the app's code
    /// with a line that is not Napkin's and not one of `names`' initializers.
    static func symbolicate(_ backtrace: Backtrace, skipping names: InitializerNames) -> CodeLocation? {
        guard let symbolicated = backtrace.symbolicated(with: images, options: [.showInlineFrames, .showSourceLocations, .useSymbolCache])
        else { return nil }
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol, !frame.isSwiftThunk, !symbol.isSystemFunction,
                  let module = SwiftSymbol.module(ofMangled: symbol.rawName),
                  module != "Napkin", !names.matches(symbol.name) else { continue }
            guard let source = symbol.sourceLocation, source.line > 0 else { continue }
            let file = source.path.split(separator: "/").last.map(String.init) ?? source.path
            return CodeLocation(fileID: "\(module)/\(file)", line: UInt(source.line))
        }
        return nil
    }
}
#endif
