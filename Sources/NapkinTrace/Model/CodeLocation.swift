/// A line of the app's code, as Swift's `#fileID` and `#line` name it: where
/// a router was created, a child attached or detached, a bound task started.
///
/// The framework captures it with default arguments (`file: StaticString =
/// #fileID, line: UInt = #line`), so a location costs two constants at the
/// call and no string work until it is written; a reader builds it from the
/// `src` field of a record (`"RibHouse/LoggedInRouter.swift:57"`, see
/// `docs/trace-format.md`).
///
/// Where only a function's symbol can be had (a creation on an iOS device,
/// or a binary without debug information), a location names the function
/// instead of a line: ``init(module:function:)``, ``isFunction``,
/// `"RibHouse/LoggedInBuilder.build(withListener:)"`; its ``line`` is 0.
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    private enum File: Sendable {
        case literal(StaticString)
        case text(String)
        /// Not known yet (a creation line, see ``DeferredCodeLocation``).
        case deferred(DeferredCodeLocation)
    }

    private let file: File
    private let storedLine: UInt

    /// The line number (1-based); 0 for a function (``isFunction``).
    public var line: UInt {
        if case .deferred(let later) = file { return later.resolve()?.line ?? 0 }
        return storedLine
    }

    /// A location from `#fileID` and `#line`, without copying the file name.
    public init(fileID: StaticString, line: UInt) {
        self.file = .literal(fileID)
        self.storedLine = line
    }

    /// A location from a file id read back from a trace.
    public init(fileID: String, line: UInt) {
        self.file = .text(fileID)
        self.storedLine = line
    }

    /// A location worked out later (see ``DeferredCodeLocation``): reading
    /// it computes it; the tracer resolves it before any sink sees it.
    package init(deferred: DeferredCodeLocation) {
        self.file = .deferred(deferred)
        self.storedLine = 0
    }

    /// Whether this location is still to be worked out.
    package var isDeferred: Bool {
        if case .deferred = file { return true }
        return false
    }

    /// The identity of the deferred answer this location waits for (shared
    /// by its copies); nil once it is known.
    package var deferredID: ObjectIdentifier? {
        if case .deferred(let later) = file { return later.id }
        return nil
    }

    /// Whether this location is known: not deferred, or deferred and worked
    /// out already (asking works nothing out).
    package var isWorkedOut: Bool {
        if case .deferred(let later) = file { return later.isResolved }
        return true
    }

    /// This location, worked out now if it was deferred (nil if there is none).
    package func resolvedNow() -> CodeLocation? {
        if case .deferred(let later) = file { return later.resolve() }
        return self
    }

    /// The deferred answer this location waits for, if it is deferred.
    package var deferred: DeferredCodeLocation? {
        if case .deferred(let later) = file { return later }
        return nil
    }

    /// A function of the app's code, where no line is known: `module`
    /// `RibHouse`, `function` `LoggedInBuilder.build(withListener:)` (as
    /// `SwiftSymbol.function(demangled:)` writes it). Its ``line`` is 0 and
    /// its ``fileID`` is `RibHouse/LoggedInBuilder.build(withListener:)`.
    public init(module: String, function: String) {
        self.file = .text(module + "/" + function)
        self.storedLine = 0
    }

    /// Whether this names a function rather than a line (``line`` is 0).
    public var isFunction: Bool { line == 0 }

    /// The function this names (`LoggedInBuilder.build(withListener:)`),
    /// without its module; nil for a line.
    public var function: String? {
        guard isFunction else { return nil }
        let id = fileID
        guard let slash = id.firstIndex(of: "/") else { return id }
        return String(id[id.index(after: slash)...])
    }

    /// `Module/File.swift`: the module and the file name, as `#fileID` gives
    /// them (for a function: the module and the function).
    public var fileID: String {
        switch file {
        case .literal(let text): text.description
        case .text(let text): text
        case .deferred(let later): later.resolve()?.fileID ?? ""
        }
    }

    /// The file name without the module: `File.swift`.
    public var fileName: String {
        let id = fileID
        guard let slash = id.lastIndex(of: "/") else { return id }
        return String(id[id.index(after: slash)...])
    }

    /// The module, if the file id names one.
    public var module: String? {
        let id = fileID
        guard let slash = id.firstIndex(of: "/") else { return nil }
        return String(id[..<slash])
    }

    /// `Module/File.swift:42`; for a function, `Module/Type.function(label:)`.
    public var description: String { isFunction ? fileID : "\(fileID):\(line)" }

    /// Calls `body` with the UTF-8 bytes of ``fileID`` (no copy for a literal).
    func withFileIDBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch file {
        case .literal(let text) where text.hasPointerRepresentation:
            return text.withUTF8Buffer(body)
        case .literal(let text):
            var copy = text.description
            return copy.withUTF8(body)
        case .text(let text):
            // A native string's bytes in place (no copy, no retain); a bridged one is made contiguous first.
            if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
            var copy = text
            return copy.withUTF8(body)
        case .deferred(let later):
            guard let location = later.resolve() else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return location.withFileIDBytes(body)
        }
    }

    /// Reads `Module/File.swift:42` (the `src` field); nil when it is not
    /// a file id, a colon and a line number.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
              let line = UInt(text[text.index(after: colon)...]), line > 0 else { return nil }
        self.init(fileID: String(text[..<colon]), line: line)
    }

    /// Reads a function, `Module/Type.function(label:)` (the `fn` field);
    /// nil when it is not a module, a slash, and a name ending in a
    /// parameter list.
    public init?(parsingFunction text: String) {
        guard let slash = text.firstIndex(of: "/"), slash != text.startIndex, text.hasSuffix(")"),
              let open = text.firstIndex(of: "("), open > text.index(after: slash) else { return nil }
        self.init(module: String(text[..<slash]), function: String(text[text.index(after: slash)...]))
    }

    /// The same file ID and line.
    public static func == (a: CodeLocation, b: CodeLocation) -> Bool {
        a.line == b.line && a.withFileIDBytes { x in b.withFileIDBytes { y in x.elementsEqual(y) } }
    }

    /// Hashes the line and the file ID's bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        withFileIDBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
