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
            let kind: TraceEvent.Kind
            switch name {
            case .session:
                // `part`, `lost` and `replay` are written only by a resumed
                // part; absent, the record starts part 1.
                kind = .sessionStart(SessionInfo(version: Int(clamping: try number(.v, name)), app: strings[.app] ?? "",
                                                 pid: Int(clamping: numbers[.pid] ?? 0), wallClock: wall ?? 0,
                                                 revision: Int(clamping: numbers[.rev] ?? 0),
                                                 part: max(1, Int(clamping: numbers[.part] ?? 1)), lost: numbers[.lost] ?? 0,
                                                 replayCount: Int(clamping: numbers[.replay] ?? 0)))
            case .interactor:
                kind = .interactorCreated(id: try id(.id, name), type: try string(.type, name))
            case .router:
                kind = .routerCreated(id: try id(.id, name), type: try string(.type, name),
                                      interactor: numbers[.interactor] ?? 0, interactorType: strings[.itype] ?? "")
            case .launch: kind = .launch(router: try id(.id, name))
            case .attach: kind = .attach(parent: try id(.parent, name), child: try id(.child, name))
            case .activate: kind = .activate(interactor: try id(.id, name))
            case .hookEnd: kind = .hookEnd(interactor: try id(.id, name))
            case .load: kind = .load(router: try id(.id, name))
            case .view:
                let text = try string(.state, name)
                guard let appearance = ViewAppearance(rawValue: text) else {
                    return .invalid("view record with unknown \"state\": \"\(text)\" (expected shown, covered or removed)")
                }
                kind = .view(router: try id(.id, name), appearance: appearance)
            case .detach: kind = .detach(parent: try id(.parent, name), child: try id(.child, name))
            case .deactivate: kind = .deactivate(interactor: try id(.id, name))
            case .taskStart:
                kind = .taskStart(task: try id(.task, name), owner: try id(.owner, name), label: strings[.label])
            case .taskCancel: kind = .taskCancel(task: try id(.task, name))
            case .taskEnd:
                let text = try string(.outcome, name)
                guard let outcome = TaskOutcome(rawValue: text) else {
                    return .invalid("task_end record with unknown \"outcome\": \"\(text)\" (expected completed or cancelled)")
                }
                kind = .taskEnd(task: try id(.task, name), outcome: outcome)
            case .deallocated: kind = .deallocated(id: try id(.id, name))
            case .mark: kind = .mark(text: strings[.text] ?? "")
            case .dropped:
                kind = .dropped(count: try number(.count, name), firstSeq: numbers[.first] ?? 0, lastSeq: numbers[.last] ?? 0)
            case .end: kind = .sessionEnd(reason: strings[.reason] ?? "")
            }
            var location: CodeLocation?
            if let src = strings[.src] {
                guard let parsed = CodeLocation(parsing: src) else {
                    return .invalid("\"src\" must be FILE:LINE (e.g. \"App/HomeRouter.swift:42\"), not \"\(src)\"")
                }
                location = parsed
            }
            return .event(TraceEvent(seq: seq, time: t, kind: kind, location: location))
        } catch {
            return .invalid(error.message)
        }
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
