import NapkinTrace

/// The fields of one record, as the general parser collected them, and
/// their mapping to a ``TraceEvent``: the inverse of ``TraceEncoder`` for
/// records in any shape JSON allows.
struct TraceRecordFields {
    private var numbers: [TraceField: UInt64] = [:]
    private var strings: [TraceField: String] = [:]
    private var wall: Int64?
    /// The `seq` field, if it was read.
    var seq: UInt64? { numbers[.seq] }
    /// The event name, when `ev` names a kind of format v1.
    private(set) var name: TraceEvent.Name?
    /// The `ev` text, when it names no kind this reader knows.
    private var unknownName: String?
    /// Fields this reader does not know, counted.
    private(set) var unknownFields = 0
    /// The first field whose value had the wrong type, for the diagnostic.
    private var wrongType: String?
    /// The fields of format v1 read so far (``TraceField/bit``).
    private var seenFields: UInt64 = 0
    /// The names of the unknown fields read so far.
    private var unknownKeys: Set<String> = []
    /// The first key the object holds twice, if any.
    private var duplicateKey: String?
    /// Whether the object has an `ev` key (a record, even when its value is not a name).
    private var hasEvKey = false

    /// Reads one JSON object from `scanner`, collecting the fields of format v1.
    mutating func read(from scanner: inout JSONScanner) throws(JSONError) {
        try scanner.openObject()
        var first = true
        while try scanner.nextKey(first: first) {
            first = false
            guard let field = scanner.withKey(TraceField.lookup) else {
                unknownFields += 1
                let key = scanner.withKey { String(decoding: $0, as: UTF8.self) }
                if !unknownKeys.insert(key).inserted { noteDuplicate(key) }
                try scanner.skipValue()
                continue
            }
            if seenFields & field.bit != 0 { noteDuplicate(field.name.description) }
            seenFields |= field.bit
            if field == .ev { hasEvKey = true }
            try readValue(of: field, from: &scanner)
        }
    }

    /// Notes `key`, read a second time (a writer never repeats a key: JSON
    /// readers disagree on which value counts, so the record is damaged).
    private mutating func noteDuplicate(_ key: String) {
        if duplicateKey == nil { duplicateKey = key.count > 64 ? key.prefix(64) + "…" : key }
    }

    private mutating func readValue(of field: TraceField, from scanner: inout JSONScanner) throws(JSONError) {
        let kind = scanner.nextValueKind
        switch field.valueType {
        case .string:
            guard kind == .string else {
                // null means absent, except for `ev`, which every record needs.
                if kind != .null || field == .ev { noteWrongType(field, "a string") }
                try scanner.skipValue()
                return
            }
            let text = try scanner.readString()
            if field == .ev {
                var copy = text
                name = copy.withUTF8 { TraceEvent.Name.lookup($0) }
                if name == nil { unknownName = text }
            } else {
                strings[field] = text
            }
        case .unsigned, .signed:
            guard kind == .number else {
                noteWrongType(field, field.valueType == .signed ? "an integer" : "a non-negative integer")
                try scanner.skipValue()
                return
            }
            switch try scanner.readNumber() {
            case .unsigned(let value):
                if field == .wall { wall = Int64(clamping: value) } else { numbers[field] = value }
            case .negative(let magnitude):
                if field == .wall {
                    // -9223372036854775808 (Int64.min) has no positive counterpart.
                    wall = magnitude > UInt64(Int64.max) ? .min : -Int64(magnitude)
                } else {
                    noteWrongType(field, "a non-negative integer")
                }
            case .fraction:
                noteWrongType(field, "an integer")
            case .tooLarge:
                if wrongType == nil { wrongType = "\"\(field.name)\" is too large for a 64-bit \(field.valueType == .signed ? "" : "unsigned ")integer" }
            }
        }
    }

    private mutating func noteWrongType(_ field: TraceField, _ expected: String) {
        if wrongType == nil { wrongType = "\"\(field.name)\" must be \(expected)" }
    }

    // MARK: - Mapping

    /// The event the fields describe, or why they describe none.
    func makeEvent() -> TraceLineParser.Result {
        // A record with a key twice is damaged, whatever its kind; an object
        // without `ev` is not a record at all (as below).
        if hasEvKey, let duplicateKey { return .invalid("duplicate key \"\(duplicateKey)\"") }
        guard let name else {
            if let unknownName { return .unknownKind(unknownName) }
            if let wrongType { return .invalid(wrongType) }
            return .notARecord("no \"ev\" field: not a napkin trace record")
        }
        if let wrongType { return .invalid(wrongType) }
        do {
            let seq = try number(.seq, name)
            let t = try number(.t, name)
            let kind = try eventKind(name)
            let location = try location()
            return .event(TraceEvent(seq: seq, time: t, kind: kind, location: location))
        } catch {
            return .invalid(error.message)
        }
    }

    /// The kind of event a record named `name` describes, from its fields.
    @inline(__always)
    private func eventKind(_ name: TraceEvent.Name) throws(JSONError) -> TraceEvent.Kind {
        switch name {
        case .session: return .sessionStart(try sessionInfo(name))
        case .interactor: return .interactorCreated(id: try id(.id, name), type: try string(.type, name))
        case .router:
            return .routerCreated(id: try id(.id, name), type: try string(.type, name),
                                  interactor: numbers[.interactor] ?? 0, interactorType: strings[.itype] ?? "")
        case .launch: return .launch(router: try id(.id, name))
        case .attach: return .attach(parent: try id(.parent, name), child: try id(.child, name))
        case .activate: return .activate(interactor: try id(.id, name))
        case .hookEnd: return .hookEnd(interactor: try id(.id, name))
        case .load: return .load(router: try id(.id, name))
        case .view:
            let appearance: ViewAppearance = try choice(.state, name, expected: "shown, covered or removed")
            return .view(router: try id(.id, name), appearance: appearance)
        case .detach: return .detach(parent: try id(.parent, name), child: try id(.child, name))
        case .deactivate: return .deactivate(interactor: try id(.id, name))
        case .taskStart: return .taskStart(task: try id(.task, name), owner: try id(.owner, name), label: strings[.label])
        case .taskCancel: return .taskCancel(task: try id(.task, name))
        case .taskEnd:
            let outcome: TaskOutcome = try choice(.outcome, name, expected: "completed or cancelled")
            return .taskEnd(task: try id(.task, name), outcome: outcome)
        case .deallocated: return .deallocated(id: try id(.id, name))
        case .retained: return .retained(id: try id(.id, name), retainers: try retainers(name))
        case .mark: return .mark(text: strings[.text] ?? "")
        case .dropped: return .dropped(count: try number(.count, name), firstSeq: numbers[.first] ?? 0, lastSeq: numbers[.last] ?? 0)
        case .end: return .sessionEnd(reason: strings[.reason] ?? "")
        }
    }

    /// The session a `session` record starts. `part`, `lost` and `replay` are
    /// written only by a resumed part; absent, the record starts part 1.
    @inline(__always)
    private func sessionInfo(_ name: TraceEvent.Name) throws(JSONError) -> SessionInfo {
        SessionInfo(version: Int(clamping: try number(.v, name)), app: strings[.app] ?? "",
                    pid: Int(clamping: numbers[.pid] ?? 0), wallClock: wall ?? 0,
                    revision: Int(clamping: numbers[.rev] ?? 0),
                    part: max(1, Int(clamping: numbers[.part] ?? 1)), lost: numbers[.lost] ?? 0,
                    replayCount: Int(clamping: numbers[.replay] ?? 0))
    }

    /// What a `retained` record says: `found` (required), `refs` (the
    /// runtime's count, when known), the paths in `text` (one per line;
    /// absent or empty: none) and the note in `reason`.
    @inline(__always)
    private func retainers(_ name: TraceEvent.Name) throws(JSONError) -> Retainers {
        let found = try number(.found, name)
        let text = strings[.text] ?? ""
        return Retainers(paths: text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init),
                         found: Int(clamping: found), total: numbers[.refs].map { Int(clamping: $0) }, note: strings[.reason])
    }

    /// The value of the string field `field` of a record named `name`, one
    /// of `Value`'s raw values (`expected` lists them, for the message).
    @inline(__always)
    private func choice<Value: RawRepresentable<String>>(_ field: TraceField, _ name: TraceEvent.Name,
                                                         expected: String) throws(JSONError) -> Value {
        let text = try string(field, name)
        guard let value = Value(rawValue: text) else {
            throw JSONError("\(name.rawValue) record with unknown \"\(field.name)\": \"\(text)\" (expected \(expected))")
        }
        return value
    }

    /// The code location `src` names, or else the function `fn` names, if
    /// the record has one.
    @inline(__always)
    private func location() throws(JSONError) -> CodeLocation? {
        if let src = strings[.src] {
            guard let location = CodeLocation(parsing: src) else {
                throw JSONError("\"src\" must be FILE:LINE (e.g. \"App/HomeRouter.swift:42\"), not \"\(src)\"")
            }
            return location
        }
        guard let fn = strings[.fn] else { return nil }
        guard let location = CodeLocation(parsingFunction: fn) else {
            throw JSONError("\"fn\" must be MODULE/FUNCTION(LABELS) (e.g. \"App/HomeBuilder.build(withListener:)\"), not \"\(fn)\"")
        }
        return location
    }

    private func number(_ field: TraceField, _ name: TraceEvent.Name) throws(JSONError) -> UInt64 {
        guard let value = numbers[field] else { throw JSONError("\(name.rawValue) record without \"\(field.name)\"") }
        return value
    }

    private func id(_ field: TraceField, _ name: TraceEvent.Name) throws(JSONError) -> NodeID {
        let value = try number(field, name)
        guard value != 0 else { throw JSONError("\(name.rawValue) record with \"\(field.name)\": 0 (ids start at 1)") }
        return value
    }

    private func string(_ field: TraceField, _ name: TraceEvent.Name) throws(JSONError) -> String {
        guard let value = strings[field] else { throw JSONError("\(name.rawValue) record without \"\(field.name)\"") }
        return value
    }
}
