import NapkinTrace

/// The fast path of ``TraceLineParser``: lines exactly as ``TraceEncoder``
/// writes them (its key order, no whitespace, no escapes), which is every
/// line of a trace produced by NapkinTrace. Anything else returns nil and
/// goes through the general parser, so correctness never depends on this
/// path; it only makes the common case cheap (`FastPathAgreementTests`
/// checks that both paths agree wherever this one answers).
///
/// The line is read a word at a time (``LineCursor``): each key is one or
/// two word compares, each number is decoded eight digits at a time, each
/// string is scanned eight bytes at a time. Type names, task labels and
/// code locations, which a trace repeats, come from ``FastPathCaches`` once seen.
struct TraceFastPath<Reads: WordReads> {
    private var c: LineCursor<Reads>

    /// A fast path over `bytes` (a trailing `\r` is ignored), of which
    /// `readable` bytes from its start may be loaded (see ``LineCursor``).
    init(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) {
        c = LineCursor(bytes, readable: readable)
    }

    /// The event, if the line is exactly as the encoder writes it.
    mutating func parse(_ caches: inout FastPathCaches) -> TraceEvent? {
        var event = TraceEvent.placeholder
        return parse(into: &event, &caches) ? event : nil
    }

    /// Reads the line into `event` (replacing it) if the line is exactly as
    /// the encoder writes it; returns whether it was (`event` is left alone
    /// otherwise). Not inlined: the event is built in place in `event`. (A
    /// caller that keeps one event variable for every line destroys each
    /// event directly; an optional event is destroyed through its type's
    /// value witnesses, which costs several calls.)
    @inline(__always)
    mutating func parse(into event: inout TraceEvent, _ caches: inout FastPathCaches) -> Bool {
        parseRecord(into: &event, &caches, untilNewline: false) != nil
    }

    /// Reads a record from the start of the bytes into `event` (as
    /// ``parse(into:_:)``), where the bytes hold the record's line and what
    /// follows it: the record must end with `}` right before a newline.
    /// Returns the line's length (without the newline), or nil.
    ///
    /// Nothing the fast path accepts can hold a newline (keys are fixed,
    /// numbers are digits, strings stop at any control character), so a
    /// record read this way is exactly the line a newline search would
    /// have cut: the reader's buffer is parsed in place, without one.
    @inline(__always)
    mutating func parseLine(into event: inout TraceEvent, _ caches: inout FastPathCaches) -> Int? {
        parseRecord(into: &event, &caches, untilNewline: true)
    }

    /// Both of the above: the length read, or nil. Not inlined: the event
    /// is built in place in `event`.
    @inline(never)
    private mutating func parseRecord(into event: inout TraceEvent, _ caches: inout FastPathCaches, untilNewline: Bool) -> Int? {
        guard c.match(.recordStart), let seq = c.number(), c.match(.key(.t)), let t = c.number(),
              c.match(.key(.ev)), let name = c.nameCandidate(in: caches.literals.names),
              let kind = kind(name, &caches) else { return nil }
        let location: CodeLocation?
        if c.current == UInt8(ascii: ",") {
            // `src`, or `fn` where the writer had only a function (a creation on a device).
            if c.match(.key(.src)) {
                guard let parsed = self.location(&caches.locations) else { return nil }
                location = parsed
            } else {
                guard c.match(.key(.fn)), let parsed = function(&caches.functions) else { return nil }
                location = parsed
            }
        } else {
            location = nil
        }
        guard c.match(UInt8(ascii: "}")), untilNewline ? c.current == 10 : c.atEnd else { return nil }
        event = TraceEvent(seq: seq, time: t, kind: kind, location: location)
        return c.i
    }

    /// The event, if the line continues with `name` (with its closing
    /// quote) and its fields. No `default:`: a new kind does not compile
    /// here until the fast path reads it (or leaves it to the general parser).
    @inline(__always)
    private mutating func kind(_ name: TraceEvent.Name, _ caches: inout FastPathCaches) -> TraceEvent.Kind? {
        switch name {
        case .attach:
            guard c.match(.name(.attach)), let (parent, child) = link() else { return nil }
            return .attach(parent: parent, child: child)
        case .detach:
            guard c.match(.name(.detach)), let (parent, child) = link() else { return nil }
            return .detach(parent: parent, child: child)
        case .activate:
            return single(.activate, TraceEvent.Kind.activate(interactor:))
        case .deactivate:
            return single(.deactivate, TraceEvent.Kind.deactivate(interactor:))
        case .hookEnd:
            return single(.hookEnd, TraceEvent.Kind.hookEnd(interactor:))
        case .deallocated:
            return single(.deallocated, TraceEvent.Kind.deallocated(id:))
        case .load:
            return single(.load, TraceEvent.Kind.load(router:))
        case .launch:
            return single(.launch, TraceEvent.Kind.launch(router:))
        case .view:
            guard c.match(.name(.view)), let id = id(), c.match(.key(.state)),
                  let appearance = c.match(oneOf: caches.literals.appearances) else { return nil }
            return .view(router: id, appearance: appearance)
        case .taskStart:
            guard c.match(.name(.taskStart)), c.match(.key(.task)), let task = c.id(),
                  c.match(.key(.owner)), let owner = c.id() else { return nil }
            var label: String?
            if c.current == UInt8(ascii: ",") && c.match(.key(.label)) {
                guard let text = string(&caches.names) else { return nil }
                label = text
            }
            return .taskStart(task: task, owner: owner, label: label)
        case .taskCancel:
            guard c.match(.name(.taskCancel)), c.match(.key(.task)), let task = c.id() else { return nil }
            return .taskCancel(task: task)
        case .taskEnd:
            guard c.match(.name(.taskEnd)), c.match(.key(.task)), let task = c.id(), c.match(.key(.outcome)),
                  let outcome = c.match(oneOf: caches.literals.outcomes) else { return nil }
            return .taskEnd(task: task, outcome: outcome)
        case .interactor:
            guard c.match(.name(.interactor)), let id = id(), c.match(.key(.type)),
                  let type = string(&caches.names) else { return nil }
            return .interactorCreated(id: id, type: type)
        case .router:
            guard c.match(.name(.router)), let id = id(), c.match(.key(.type)), let type = string(&caches.names),
                  c.match(.key(.interactor)), let interactor = c.number(), c.match(.key(.itype)),
                  let interactorType = string(&caches.names) else { return nil }
            return .routerCreated(id: id, type: type, interactor: interactor, interactorType: interactorType)
        case .retained:
            return retained()
        case .mark:
            guard c.match(.name(.mark)), c.match(.key(.text)), let text = string(&caches.marks) else { return nil }
            return .mark(text: text)
        case .session, .dropped, .end:
            // Once per session: the general parser is fast enough.
            return nil
        }
    }

    // MARK: - Fields

    /// A `retained` record's fields in the encoder's order: `id`, `found`,
    /// then `refs`, `text` and `reason` when present. A text of several
    /// paths holds escaped newlines: the general parser reads those.
    @inline(__always)
    private mutating func retained() -> TraceEvent.Kind? {
        guard c.match(.name(.retained)), let id = id(), c.match(.key(.found)), let found = c.number() else { return nil }
        var total: Int?
        var paths: [String] = []
        var note: String?
        if c.current == UInt8(ascii: ","), c.match(.key(.refs)) {
            guard let refs = c.number() else { return nil }
            total = Int(clamping: refs)
        }
        if c.current == UInt8(ascii: ","), c.match(.key(.text)) {
            guard let text = plainString() else { return nil }
            if !text.isEmpty { paths = [text] }
        }
        if c.current == UInt8(ascii: ","), c.match(.key(.reason)) {
            guard let text = plainString() else { return nil }
            note = text
        }
        return .retained(id: id, retainers: Retainers(paths: paths, found: Int(clamping: found), total: total, note: note))
    }

    /// A string value without escapes, after its opening quote, not cached
    /// (a one-off text).
    @inline(__always)
    private mutating func plainString() -> String? {
        let start = c.i
        guard let end = c.plainStringEnd(from: start) else { return nil }
        c.i = end &+ 1
        return String(decoding: c.bytes(from: start, to: end), as: UTF8.self)
    }

    /// An event whose only field is `,"id":N`: its name, then the id.
    @inline(__always)
    private mutating func single(_ name: TraceEvent.Name, _ make: (UInt64) -> TraceEvent.Kind) -> TraceEvent.Kind? {
        guard c.match(.name(name)), let id = id() else { return nil }
        return make(id)
    }

    /// `,"parent":N,"child":M`.
    @inline(__always)
    private mutating func link() -> (UInt64, UInt64)? {
        guard c.match(.key(.parent)), let parent = c.id(), c.match(.key(.child)), let child = c.id() else { return nil }
        return (parent, child)
    }

    /// `,"id":N` with N not 0.
    @inline(__always)
    private mutating func id() -> UInt64? {
        guard c.match(.key(.id)) else { return nil }
        return c.id()
    }

    /// A string value without escapes, after its opening quote (consumed
    /// with its key), through `cache`.
    @inline(__always)
    private mutating func string(_ cache: inout ByteKeyedCache<String>) -> String? {
        cached(&cache) { $0 }
    }

    /// The `src` value (`Module/File.swift:42`), after its opening quote.
    @inline(__always)
    private mutating func location(_ cache: inout ByteKeyedCache<CodeLocation>) -> CodeLocation? {
        cached(&cache, CodeLocation.init(parsing:))
    }

    /// The `fn` value (`Module/Type.function(label:)`), after its opening quote.
    @inline(__always)
    private mutating func function(_ cache: inout ByteKeyedCache<CodeLocation>) -> CodeLocation? {
        cached(&cache, CodeLocation.init(parsingFunction:))
    }

    /// A string value without escapes, after its opening quote, made into a
    /// value by `make` the first time its bytes are seen, and from `cache`
    /// after that; nil if it has escapes or `make` refuses it.
    @inline(__always)
    private mutating func cached<Value: Sendable>(_ cache: inout ByteKeyedCache<Value>, _ make: (String) -> Value?) -> Value? {
        let start = c.i
        guard let end = c.plainStringEnd(from: start) else { return nil }
        c.i = end &+ 1
        let bytes = c.bytes(from: start, to: end)
        let hash = c.hash(from: start, to: end)
        if let known = cache.value(for: bytes, hash: hash) { return known }
        guard let value = make(String(decoding: bytes, as: UTF8.self)) else { return nil }
        cache.insert(value, for: bytes, hash: hash)
        return value
    }
}

/// The values the fast path reuses from line to line.
struct FastPathCaches: Sendable {
    /// The tables made from the wire format's enums (event names, view
    /// states, task outcomes).
    let literals = FastPathLiterals.shared
    /// Type names and task labels, by their bytes.
    var names = ByteKeyedCache<String>()
    /// Code locations (`src`), by their bytes.
    var locations = ByteKeyedCache<CodeLocation>()
    /// Functions (`fn`), by their bytes: a cache of their own, as the same
    /// bytes read as `src` would be another location (or none).
    var functions = ByteKeyedCache<CodeLocation>()
    /// Marks' texts, by their bytes (an app repeats most of its marks; a
    /// cache of their own, so that one-off texts do not push names out).
    var marks = ByteKeyedCache<String>()
}
