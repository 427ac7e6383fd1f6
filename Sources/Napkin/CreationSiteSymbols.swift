// Where a router or interactor was made, by name only: the function of the
// app's code that created it (`RibHouse/LoggedInBuilder.build(withListener:)`),
// for where no line can be had. On iOS there is no `Runtime` module, so the
// stack's return addresses are named by the dynamic linker's symbols
// (`dladdr`, NapkinSymbols.c) and the Swift runtime's demangler; where
// `Runtime` finds a frame but no line for it (a binary without debug
// information), its symbol is named the same way. The frame is chosen by
// the same rule as a line's (``CreationSite/chooseFrame(_:skipping:)``):
// the first of the app's code outside Napkin and the initializers of the
// object's class and its superclasses. docs/apple.md says which platform
// gives what.
import NapkinStack
import NapkinTrace

extension CreationSite {
    /// The frame a creation names, among a stack's frames, innermost first:
    /// each the demangled name of a frame of the app's code, or nil for any
    /// other (Napkin's, the system's, a thunk, no symbol). With `names` nil
    /// (an interactor's lifecycle, which does not know its owner's type),
    /// the type is the one an initializer of which is among the first four
    /// frames of the app's code (an optimised build may put a helper before
    /// it). Returns the frame's index and the initializers skipped; nil when
    /// every frame of the app's code is an initializer.
    static func chooseFrame(_ frames: [String?], skipping names: InitializerNames?) -> (index: Int, skipped: InitializerNames?)? {
        var names = names
        var start = 0
        if names == nil {
            for index in frames.indices.filter({ frames[$0] != nil }).prefix(4) {
                if let type = SwiftSymbol.initializedType(in: frames[index]!) {
                    names = InitializerNames(names: [type])
                    start = index
                    break
                }
            }
        }
        for index in frames.indices where index >= start {
            guard let name = frames[index] else { continue }
            if names?.matches(name) == true { continue }
            return (index, names)
        }
        return nil
    }

    /// The function a mangled symbol of the app's code names, as a location
    /// without a line; nil for a name that is not a Swift function's.
    static func functionLocation(mangled: String) -> CodeLocation? {
        guard let demangled = SwiftSymbol.demangle(mangled),
              let (module, function) = SwiftSymbol.function(demangled: demangled) else { return nil }
        return CodeLocation(module: module, function: function)
    }

    /// The creation's function from the dynamic linker's symbols for
    /// `stack` (return addresses from ``CreationSite/location(skippingInitializersOf:)``'s
    /// caller outwards); nil where they do not say. The first frame must be
    /// named as Napkin's (the initializer's `creationLocation` or the
    /// lifecycle's `init`): where it is not, the binary's local symbols were
    /// stripped and the names `dladdr` gives are its neighbours', so none is used.
    static func functionFromSymbols(of stack: ReturnAddresses, skipping names: InitializerNames?) -> CodeLocation? {
        function(fromSymbolNames: stack.symbolNames(), skipping: names)
    }

    /// ``functionFromSymbols(of:skipping:)`` from the stack's mangled names
    /// (nil where a frame has none), innermost first.
    static func function(fromSymbolNames mangled: [String?], skipping names: InitializerNames?) -> CodeLocation? {
        guard let first = mangled.first, let innermost = first, SwiftSymbol.module(ofMangled: innermost) == "Napkin" else { return nil }
        let frames: [String?] = mangled.map { name in
            guard let name, SwiftSymbol.isAppCode(mangled: name) else { return nil }
            return SwiftSymbol.demangle(name)
        }
        guard let (index, _) = chooseFrame(frames, skipping: names), let name = mangled[index] else { return nil }
        return functionLocation(mangled: name)
    }
}

extension ReturnAddresses {
    /// The symbol name (mangled) of each address, nil where the dynamic linker has none.
    func symbolNames() -> [String?] {
        var buffer = [CChar](repeating: 0, count: 1_024)
        return withUnsafeBytes(of: addresses) { raw in
            raw.bindMemory(to: UInt.self).prefix(count).map { address in
                let found = buffer.withUnsafeMutableBufferPointer { napkin_symbol_name(address, $0.baseAddress!, $0.count) }
                return found == 1 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
            }
        }
    }
}

extension SwiftSymbol {
    /// The Swift runtime's demangling of `mangled` (`RibHouse.LoggedInBuilder.build(withListener:
    /// RibHouse.LoggedInListener) -> RibHouse.LoggedInRouting`); nil for a
    /// name that is not a Swift symbol. Cut at 4 KiB.
    static func demangle(_ mangled: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let found = buffer.withUnsafeMutableBufferPointer { napkin_demangle(mangled, $0.baseAddress!, $0.count) }
        guard found == 1 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Modules whose frames are never the app's code that made an object.
    static let systemModules: Set<String> = [
        "Napkin", "NapkinTrace", "Foundation", "FoundationEssentials", "Dispatch", "Combine", "SwiftUI", "UIKit", "AppKit",
        "Testing", "XCTest", "Observation",
    ]

    /// Whether a mangled name is a function of the app's code: a Swift
    /// symbol of a module other than Napkin's, the standard library's (whose
    /// names start with a substitution) or the system's, and not a thunk
    /// (a partial application, reabstraction, protocol witness, merged,
    /// dispatch or Objective-C thunk: the function it forwards to is the frame).
    static func isAppCode(mangled: String) -> Bool {
        guard let module = module(ofMangled: mangled), !systemModules.contains(module) else { return false }
        let thunkSuffixes = ["TA", "Ta", "TR", "Tr", "TW", "Tm", "TO", "To", "TD", "Td", "Tj", "Tq"]
        return !thunkSuffixes.contains { mangled.hasSuffix($0) }
    }
}
