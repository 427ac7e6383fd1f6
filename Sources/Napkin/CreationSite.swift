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
// (`NapkinStack`, no allocation) and looks them up, with the object's type,
// in a table of the stacks seen so far: a later creation from the same place
// costs the walk and one dictionary lookup under a lock, and allocates
// nothing. The first time a stack is seen, the creating thread only keeps
// it (`Runtime`'s `Backtrace`, the whole and each frame alone: about 0.2 ms)
// in a ``DeferredCodeLocation``; the tracer works it out when it takes the
// event from its queue, on its writer thread, because symbolicating reads
// the binary's symbol and line tables from disk (0.1 s and more the first
// time). Swift's `Runtime` module (SE-0419; macOS and Linux, not in the iOS
// SDK, see docs/apple.md) resolves it in two steps, because looking up a
// line in DWARF's line tables costs milliseconds per frame in a large debug
// binary while names cost microseconds: the stack's symbol names pick the
// frame (the first of the app's code outside Napkin and the type's
// initializers), then only that frame is looked up for its file and line
// (with its inlined frames, so that an initializer inlined into the builder
// is still skipped). Nothing here
// runs unless the object is created traced (tracing or detection on): the
// callers capture only when `tracerForNewObject()` gave a tracer.
//
// Where `Runtime` is missing (iOS) or the stack has no line for the frame
// (no debug information), the chosen frame's function is recorded instead
// of a line (`CreationSiteSymbols.swift`); where not even a symbol names it,
// the record has no location.
#if canImport(Runtime) && (os(macOS) || os(Linux))
import Runtime
#endif
import NapkinStack
import NapkinTrace

/// Where a router or interactor being created traced was made.
enum CreationSite {
    /// How many return addresses key a stack: Napkin's frames (this capture,
    /// the base initializers, a `ViewableRouter`'s), the class's own
    /// initializers (a designated init, its allocating entry point, a
    /// convenience init, a stored property's initial value), the builder's.
    static let depth = 12

    /// The line of the app's code that is creating the object: the first
    /// frame of the current stack outside Napkin and outside the initializers
    /// of `type` and its superclasses, as `Module/File.swift` and its line;
    /// nil where the stack gives none. With `type` nil (an interactor's
    /// lifecycle, which does not know its owner's type yet), the type is the
    /// one whose initializer is the first frame of the app's code.
    /// Call it only for an object created traced.
    @inline(never)
    static func location(skippingInitializersOf type: Any.Type?) -> CodeLocation? {
        var key = Key()
        key.stack.count = withUnsafeMutableBytes(of: &key.stack.addresses) { raw in
            napkin_return_addresses(raw.baseAddress!.assumingMemoryBound(to: UInt.self), depth)
        }
        guard key.stack.count > 0 else { return nil }
        key.type = type.map(ObjectIdentifier.init)
        let known: CodeLocation?? = table.withLock { $0[key] }
        if let known { return known }
        // A stack not seen before. Symbolicating it reads the binary's symbol
        // and line tables (milliseconds, and 0.1 s or more the first time):
        // not on this thread (the main actor, for a router). What the answer
        // needs is kept (the stack, read here, inside the initializer) and it
        // is worked out when the tracer takes the event from its queue (and
        // the names of the class chain then too: reflecting them costs
        // microseconds each in a debug build).
        let functionsOnly = Self.functionsOnly
        let stack = key.stack
        #if canImport(Runtime) && (os(macOS) || os(Linux))
        let captured = capture()
        #else
        let captured: Void? = nil
        #endif
        let found = CodeLocation(deferred: DeferredCodeLocation { [key] in
            let location = resolve(type.map(InitializerNames.init(of:)), captured: captured, stack: stack, functionsOnly: functionsOnly)
            // Later creations from this stack get the answer itself, not this
            // deferred one (whose shared lock and count the writer thread touches).
            if !functionsOnly { table.withLock { table in if table[key] != nil { table[key] = .some(location) } } }
            return location
        })
        if functionsOnly { return found }
        table.withLock { table in
            if table.count < limit { table[key] = .some(found) }
        }
        return found
    }

    /// A stack and the type whose initializers it skips.
    struct Key: Hashable {
        var stack = ReturnAddresses()
        var type: ObjectIdentifier?
    }

    /// Resolved stacks. Bounded: past `limit` it stops learning new ones (they
    /// are resolved each time). An app has a bounded number of creation
    /// paths; the bound keeps a pathological one from growing memory without end.
    static let limit = 8192
    static let table = Locked<[Key: CodeLocation?]>([:])

    #if canImport(Runtime) && (os(macOS) || os(Linux))
    /// The images of the process, captured once (reading them costs about
    /// half a millisecond). An image loaded later is not in it: its frames
    /// have no symbol, so no line.
    static let processImages = ImageMap.capture()
    #endif

    #if canImport(Runtime) && (os(macOS) || os(Linux))
    /// What a creation keeps of its call stack for ``resolve(_:captured:stack:functionsOnly:)``:
    /// the stack, and each of its frames alone. A line is looked up for one
    /// frame only: in a large debug binary a frame's line costs milliseconds
    /// to seconds, its name microseconds.
    struct CapturedStack: Sendable {
        /// The stack, outermost frames cut.
        let all: Backtrace
        /// `all`'s first ``CreationSite/depth`` frames, each captured alone (the same offsets).
        let frames: [Backtrace]
    }

    /// The current stack, as ``CapturedStack``: a few microseconds and an
    /// allocation per frame, on the creating thread, for a stack not seen before.
    @inline(never)
    static func capture() -> CapturedStack? {
        // The images given: without them each capture reads the process's image list again (about 0.5 ms).
        let images = processImages
        guard let all = try? Backtrace.capture(algorithm: .fast, limit: depth + 8, top: 0, images: images) else { return nil }
        var frames: [Backtrace] = []
        frames.reserveCapacity(depth)
        // A loop in this function, not a closure: each capture sees the same
        // frames below it. The first `depth` frames (the builder is among
        // them: Napkin's frames and the class's initializers come first).
        for offset in 0..<depth {
            guard let one = try? Backtrace.capture(algorithm: .fast, limit: 2, offset: offset, top: 0, images: images) else { break }
            frames.append(one)
        }
        return CapturedStack(all: all, frames: frames)
    }
    #else
    typealias CapturedStack = Void
    #endif

    /// Works out a creation's location from its stack, off the creating
    /// thread: symbolicates the stack (names only), picks the frame, and
    /// looks up that frame's line; where it has none (no debug
    /// information), names its function. Without `Runtime` (iOS), names the
    /// function from `stack`'s symbols (`CreationSiteSymbols.swift`).
    /// `names` nil: taken from the first frame of the app's code (see
    /// ``location(skippingInitializersOf:)``).
    static func resolve(_ names: InitializerNames?, captured: CapturedStack?, stack: ReturnAddresses, functionsOnly: Bool) -> CodeLocation? {
        symbolication.withLock { count in
            count += 1
            return symbolicate(names, captured: captured, stack: stack, functionsOnly: functionsOnly)
        }
    }

    /// ``resolve(_:captured:stack:functionsOnly:)``'s work, under ``symbolication``.
    private static func symbolicate(_ names: InitializerNames?, captured: CapturedStack?, stack: ReturnAddresses, functionsOnly: Bool) -> CodeLocation? {
        #if canImport(Runtime) && (os(macOS) || os(Linux))
        let images = processImages
        guard let captured, let named = captured.all.symbolicated(with: images, options: [.useSymbolCache]) else {
            return functionFromSymbols(of: stack, skipping: names)
        }
        guard let (chosen, names) = chooseFrame(named.frames.map(appFrameName), skipping: names),
              let symbol = named.frames[chosen].symbol else { return nil }
        if functionsOnly { return functionLocation(mangled: symbol.rawName) }
        // The same builder reached from other callers is another stack, but the same frame: its line is known.
        let address = named.frames[chosen].captured.originalProgramCounter
        let frameKey = FrameKey(address: address, names: names?.names ?? [])
        if let known = frameLines.withLock({ $0[frameKey] }) { return known }
        // The chosen frame alone, with the frames inlined into it; no line (no debug information): the function.
        guard chosen < captured.frames.count,
              let lines = captured.frames[chosen].symbolicated(with: images, options: [.showInlineFrames, .showSourceLocations, .useSymbolCache])
        else { return nil }
        let frame = lines.frames.filter { $0.captured.originalProgramCounter == address }
        let found = line(of: frame, skipping: names) ?? functionLocation(mangled: symbol.rawName)
        frameLines.withLock { table in
            if table.count < limit { table[frameKey] = .some(found) }
        }
        return found
        #else
        return functionFromSymbols(of: stack, skipping: names)
        #endif
    }

    /// Held while a stack is symbolicated: one at a time in the process,
    /// whoever asks (a tracer's writer, a recording's reader). Symbolications
    /// at once would each load the binary's tables and share the cores; one
    /// at a time, the first warms what the next reads. Nothing works them out
    /// ahead in the background: a queue of them would hold this lock turn
    /// after turn while a reader waits (a test reading its recording on the
    /// main actor waited 45 s so under the thread sanitizer). Taken last:
    /// nothing is locked while it is held but the tables of this file.
    /// (The value counts the symbolications run: a lock around an empty
    /// value would put the value at the mutex's own address, which the
    /// thread sanitizer reports as a race.)
    static let symbolication = Locked(0)

    /// Tests only: resolve a stack not seen before to the function, as
    /// where no line can be had (iOS), and keep nothing (the tables stay as
    /// they were). Read only when a stack is resolved, never on the cached path.
    @TaskLocal static var functionsOnly = false

    #if canImport(Runtime) && (os(macOS) || os(Linux))
    /// A frame chosen as a creation's line, and the initializers skipped in it.
    struct FrameKey: Hashable {
        let address: Backtrace.Address
        let names: [String]
    }

    /// The lines of chosen frames (bounded like ``table``).
    static let frameLines = Locked<[FrameKey: CodeLocation?]>([:])

    /// The line of the one frame symbolicated in `frames`, with its inlined
    /// frames. Which inlined frame is the builder's cannot be read from their
    /// names: `Runtime` (Swift 6.3, Linux) pairs an inlined frame's name with
    /// a neighbour's line. So the lines are taken in order, innermost first,
    /// and a line in a file named after one of the skipped types
    /// (`LoggedInInteractor.swift`, where an inlined initializer's code is)
    /// or in compiler-generated code is passed over, unless no other remains.
    private static func line(of frames: [SymbolicatedBacktrace.Frame], skipping names: InitializerNames?) -> CodeLocation? {
        // The module of the frame itself (the builder's), not of code inlined into it.
        guard let outer = frames.last(where: { !$0.inlined && $0.symbol != nil }),
              let module = outer.symbol.flatMap({ SwiftSymbol.module(ofMangled: $0.rawName) }) else { return nil }
        var skippedFiles = Set((names?.names ?? []).map { $0 + ".swift" })
        for frame in frames {
            if let name = frame.symbol?.name, let type = SwiftSymbol.initializedType(in: name) { skippedFiles.insert(type + ".swift") }
        }
        var fallback: CodeLocation?
        for frame in frames {
            guard let source = frame.symbol?.sourceLocation, source.line > 0, !source.path.contains("<compiler-generated>") else { continue }
            let file = source.path.split(separator: "/").last.map(String.init) ?? source.path
            let location = CodeLocation(fileID: "\(module)/\(file)", line: UInt(source.line))
            // The debug information's path: where a test failure can open the file.
            SourcePaths.note(location.fileID, source.path)
            if skippedFiles.contains(file) {
                fallback = fallback ?? location
                continue
            }
            return location
        }
        return fallback
    }

    /// The demangled name of a frame of the app's code; nil for Napkin's, the
    /// standard library's, a thunk, a system function, or no symbol.
    private static func appFrameName(_ frame: SymbolicatedBacktrace.Frame) -> String? {
        guard let symbol = frame.symbol, !frame.isSwiftThunk, !symbol.isSystemFunction,
              let module = SwiftSymbol.module(ofMangled: symbol.rawName), module != "Napkin" else { return nil }
        return symbol.name
    }
    #endif
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
