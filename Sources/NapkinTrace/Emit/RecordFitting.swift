/// Shortens a record's string fields so that its line fits a byte limit.
///
/// Used for writes to pipes, FIFOs, sockets and terminals, where one record
/// must fit in one atomic `write(2)` of at most `PIPE_BUF` bytes, and for a
/// socket sink's own connection, where it must fit the inspector's line
/// length (``NDJSONTraceSink/socketRecordLimit``). The result
/// is still a valid record of the same kind, with the same numbers; only
/// strings that are too long are cut (at a Unicode scalar, never inside a
/// UTF-8 sequence or an escape) and end with `…` (U+2026). When several strings
/// are too long, the room is shared: a short one is kept whole, the longer ones
/// get equal parts of what is left.
enum RecordFitting {
    /// What marks a shortened string.
    static let ellipsis = "\u{2026}"
    private static let ellipsisBytes = 3

    /// `event`, with its string fields shortened so that its encoded line,
    /// newline included, is at most `limit` bytes; `event` itself if it fits.
    static func fitted(_ event: TraceEvent, limit: Int) -> TraceEvent {
        let strings = event.kind.strings
        guard !strings.isEmpty else { return event }
        var candidate = event
        var room = limit
        // One pass fits; the loop is a guard against miscounting.
        for _ in 0..<4 {
            let length = encodedLength(candidate)
            if length <= limit { return candidate }
            let current = candidate.kind.strings
            let lengths = current.map(escapedLength)
            let overhead = length - lengths.reduce(0, +)
            let budgets = shares(of: max(0, room - overhead), among: lengths)
            let cut = zip(current, zip(lengths, budgets)).map { string, sizes in
                sizes.0 <= sizes.1 ? string : shortened(string, toBytes: sizes.1)
            }
            candidate = TraceEvent(seq: event.seq, time: event.time, kind: event.kind.replacingStrings(cut), location: event.location)
            room -= 16
        }
        // Still too long (cannot happen for a limit of 512 or more): no strings, no location.
        return TraceEvent(seq: event.seq, time: event.time, kind: event.kind.replacingStrings(strings.map { _ in "" }))
    }

    /// The encoded length of `event`'s line, newline included.
    static func encodedLength(_ event: TraceEvent) -> Int {
        var bytes: [UInt8] = []
        TraceEncoder.append(event, to: &bytes)
        return bytes.count
    }

    /// Splits `total` bytes among strings of the given escaped `lengths`:
    /// each gets its length or an equal share of what the shorter ones left.
    static func shares(of total: Int, among lengths: [Int]) -> [Int] {
        var result = lengths
        var remaining = total
        let order = lengths.indices.sorted { lengths[$0] < lengths[$1] }
        for (done, index) in order.enumerated() {
            let share = remaining / (order.count - done)
            result[index] = min(lengths[index], share)
            remaining -= result[index]
        }
        return result
    }

    /// The bytes the encoder writes for `string` between its quotes.
    static func escapedLength(_ string: String) -> Int {
        string.unicodeScalars.reduce(0) { $0 + escapedLength($1) }
    }

    private static func escapedLength(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09: return 2          // \" \\ \n \r \t
        case 0..<0x20, 0x7F: return 6                         // \u00XX
        case 0..<0x80: return 1
        case 0x80..<0x800: return 2
        case 0x800..<0x10000: return 3
        default: return 4
        }
    }

    /// The longest prefix of `string` (whole scalars) that, followed by `…`,
    /// encodes in at most `budget` bytes; empty if not even `…` fits.
    static func shortened(_ string: String, toBytes budget: Int) -> String {
        guard budget >= ellipsisBytes else { return "" }
        var used = 0
        var scalars = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            let size = escapedLength(scalar)
            if used + size > budget - ellipsisBytes { break }
            used += size
            scalars.append(scalar)
        }
        return String(scalars) + ellipsis
    }
}

extension TraceEvent.Kind {
    /// The UTF-8 bytes of this kind's text values (its ``strings`` and the
    /// enum values written as text), counted without allocating: what the
    /// encoder sizes a line by and a socket sink's backlog counts its memory by.
    var stringByteCount: Int {
        switch self {
        case .sessionStart(let info): info.app.utf8.count
        case .interactorCreated(_, let type): type.utf8.count
        case .routerCreated(_, let type, _, let interactorType): type.utf8.count + interactorType.utf8.count
        case .taskStart(_, _, let label?): label.utf8.count
        case .mark(let text): text.utf8.count
        case .sessionEnd(let reason): reason.utf8.count
        case .view(_, let appearance): appearance.rawValue.utf8.count
        case .taskEnd(_, let outcome): outcome.rawValue.utf8.count
        case .retained(_, let retainers):
            retainers.paths.reduce(retainers.paths.count) { $0 + $1.utf8.count } + (retainers.note?.utf8.count ?? 0)
        case .taskStart, .attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .taskCancel,
             .deallocated, .dropped:
            0
        }
    }

    /// The string fields of this kind of record, in wire order (an absent
    /// optional label is not one).
    var strings: [String] {
        switch self {
        case .sessionStart(let info): [info.app]
        case .interactorCreated(_, let type): [type]
        case .routerCreated(_, let type, _, let interactorType): [type, interactorType]
        case .taskStart(_, _, let label?): [label]
        case .mark(let text): [text]
        case .sessionEnd(let reason): [reason]
        // Each path on its own (and the note): a long record keeps every
        // path, each cut at its end, rather than the first ones whole.
        case .retained(_, let retainers): retainers.paths + (retainers.note.map { [$0] } ?? [])
        case .taskStart, .attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .view, .taskCancel, .taskEnd,
             .deallocated, .dropped:
            []
        }
    }

    /// This kind with its string fields (as listed by ``strings``) replaced by `values`.
    fileprivate func replacingStrings(_ values: [String]) -> TraceEvent.Kind {
        guard values.count == strings.count, !values.isEmpty else { return self }
        switch self {
        case .sessionStart(var info):
            info.app = values[0]
            return .sessionStart(info)
        case .interactorCreated(let id, _):
            return .interactorCreated(id: id, type: values[0])
        case .routerCreated(let id, _, let interactor, _):
            return .routerCreated(id: id, type: values[0], interactor: interactor, interactorType: values[1])
        case .taskStart(let task, let owner, _):
            return .taskStart(task: task, owner: owner, label: values[0])
        case .mark:
            return .mark(text: values[0])
        case .sessionEnd:
            return .sessionEnd(reason: values[0])
        case .retained(let id, var retainers):
            let pathCount = retainers.paths.count
            // A path cut to nothing (only when nothing fits) is left out.
            retainers.paths = values.prefix(pathCount).filter { !$0.isEmpty }
            if retainers.note != nil { retainers.note = values[pathCount] }
            return .retained(id: id, retainers: retainers)
        case .attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .view, .taskCancel, .taskEnd, .deallocated,
             .dropped:
            return self
        }
    }
}
