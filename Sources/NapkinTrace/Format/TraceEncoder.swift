/// Writes ``TraceEvent``s as NDJSON, one object per line (trace format v1).
///
/// The encoder appends to a caller-owned byte buffer so the background writer
/// can reuse one buffer for every batch. It is the only place that knows how an
/// event is spelled on the wire; ``TraceLineParser`` is its inverse.
public enum TraceEncoder {
    /// Appends `event` and a trailing newline to `out`.
    ///
    /// The line is written into a stack buffer sized by ``upperBound(of:)``,
    /// then copied to `out` in one piece: no heap allocation beyond the growth
    /// of `out` (none once `out` has its working size), whatever the event.
    public static func append(_ event: TraceEvent, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: upperBound(of: event)) { buffer in
            let start = buffer.baseAddress!
            var cursor = EncodingCursor(start)
            write(event, to: &cursor)
            out.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor.position - start))
        }
    }

    /// The most bytes the line of `event` can take: room for every key and
    /// the largest number each field can hold, plus six bytes (`\u00XX`) per
    /// byte of text.
    static func upperBound(of event: TraceEvent) -> Int {
        var text = event.kind.stringByteCount
        if let location = event.location { text += location.withFileIDBytes { $0.count } }
        return 512 + 6 * text
    }

    private static func write(_ event: TraceEvent, to out: inout EncodingCursor) {
        out.byte(UInt8(ascii: "{"))
        field(.seq, event.seq, &out, first: true)
        field(.t, event.time, &out)
        key(.ev, &out)
        out.byte(UInt8(ascii: "\""))
        out.bytes(event.kind.name.spelling)
        out.byte(UInt8(ascii: "\""))
        switch event.kind {
        case .sessionStart(let info):
            writeSession(info, to: &out)
        case .interactorCreated(let id, let type):
            field(.id, id, &out)
            field(.type, type, &out)
        case .routerCreated(let id, let type, let interactor, let interactorType):
            field(.id, id, &out)
            field(.type, type, &out)
            field(.interactor, interactor, &out)
            field(.itype, interactorType, &out)
        case .attach(let parent, let child), .detach(let parent, let child):
            field(.parent, parent, &out)
            field(.child, child, &out)
        case .activate(let id), .deactivate(let id), .hookEnd(let id), .load(let id), .launch(let id), .deallocated(let id):
            field(.id, id, &out)
        case .view(let router, let appearance):
            field(.id, router, &out)
            field(.state, appearance.rawValue, &out)
        case .taskStart(let task, let owner, let label):
            field(.task, task, &out)
            field(.owner, owner, &out)
            if let label { field(.label, label, &out) }
        case .taskCancel(let task):
            field(.task, task, &out)
        case .taskEnd(let task, let outcome):
            field(.task, task, &out)
            field(.outcome, outcome.rawValue, &out)
        case .retained(let id, let retainers):
            writeRetained(id, retainers, to: &out)
        case .mark(let text):
            field(.text, text, &out)
        case .dropped(let count, let first, let last):
            field(.count, count, &out)
            field(.first, first, &out)
            field(.last, last, &out)
        case .sessionEnd(let reason):
            field(.reason, reason, &out)
        }
        if let location = event.location { writeLocation(location, to: &out) }
        out.byte(UInt8(ascii: "}"))
        out.byte(UInt8(ascii: "\n"))
    }

    /// The session record's fields.
    @inline(__always)
    private static func writeSession(_ info: SessionInfo, to out: inout EncodingCursor) {
        field(.v, Int64(info.version), &out)
        field(.app, info.app, &out)
        field(.pid, Int64(info.pid), &out)
        field(.wall, info.wallClock, &out)
        // Absent means revision 0 (traces written before revisions were counted).
        if info.revision > 0 { field(.rev, UInt64(info.revision), &out) }
        // Only a resumed part says which part it is (absent means 1).
        if info.part > 1 {
            field(.part, UInt64(info.part), &out)
            field(.lost, info.lost, &out)
            field(.replay, UInt64(clamping: info.replayCount), &out)
        }
    }

    /// A `retained` record's fields: `id`, `found`, `refs` (when the runtime
    /// count is known), `text` (the paths, one per line, when there are
    /// any) and `reason` (the note, when there is one). The paths are
    /// written one by one, without joining them first.
    @inline(__always)
    private static func writeRetained(_ id: NodeID, _ retainers: Retainers, to out: inout EncodingCursor) {
        field(.id, id, &out)
        field(.found, UInt64(clamping: retainers.found), &out)
        if let total = retainers.total { field(.refs, UInt64(clamping: total), &out) }
        if !retainers.paths.isEmpty {
            key(.text, &out)
            out.byte(UInt8(ascii: "\""))
            for (k, path) in retainers.paths.enumerated() {
                if k > 0 {
                    out.byte(UInt8(ascii: "\\"))
                    out.byte(UInt8(ascii: "n"))
                }
                // A line break within a path (a dictionary key) would split
                // it in two: written as the two characters `\n` instead.
                var copy = path.utf8.contains(10) ? Self.withoutLineBreaks(path) : path
                copy.withUTF8 { out.escaped($0) }
            }
            out.byte(UInt8(ascii: "\""))
        }
        if let note = retainers.note { field(.reason, note, &out) }
    }

    /// `path` with each line feed replaced by a backslash and an `n`.
    private static func withoutLineBreaks(_ path: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in path.unicodeScalars {
            if scalar == "\n" { scalars.append(contentsOf: ["\\", "n"] as [Unicode.Scalar]) } else { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// `,"src":"Module/File.swift:42"`; for a function (no line), the `fn`
    /// field instead, `,"fn":"Module/Type.function(label:)"` (a reader that
    /// does not know `fn` skips it, where a `src` without a line would make
    /// the record invalid to it).
    @inline(__always)
    private static func writeLocation(_ location: CodeLocation, to out: inout EncodingCursor) {
        key(location.isFunction ? .fn : .src, &out)
        out.byte(UInt8(ascii: "\""))
        location.withFileIDBytes { out.escaped($0) }
        if !location.isFunction {
            out.byte(UInt8(ascii: ":"))
            out.decimal(UInt64(location.line))
        }
        out.byte(UInt8(ascii: "\""))
    }

    /// The NDJSON text of one event, without the trailing newline.
    public static func line(_ event: TraceEvent) -> String {
        var bytes: [UInt8] = []
        append(event, to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    private static func key(_ field: TraceField, _ out: inout EncodingCursor, first: Bool = false) {
        if !first { out.byte(UInt8(ascii: ",")) }
        out.byte(UInt8(ascii: "\""))
        out.bytes(field.name)
        out.byte(UInt8(ascii: "\""))
        out.byte(UInt8(ascii: ":"))
    }

    @inline(__always)
    private static func field(_ field: TraceField, _ value: UInt64, _ out: inout EncodingCursor, first: Bool = false) {
        key(field, &out, first: first)
        out.decimal(value)
    }

    private static func field(_ field: TraceField, _ value: Int64, _ out: inout EncodingCursor) {
        key(field, &out)
        if value < 0 { out.byte(UInt8(ascii: "-")) }
        out.decimal(value.magnitude)
    }

    private static func field(_ field: TraceField, _ value: String, _ out: inout EncodingCursor) {
        key(field, &out)
        out.byte(UInt8(ascii: "\""))
        var copy = value
        copy.withUTF8 { out.escaped($0) }
        out.byte(UInt8(ascii: "\""))
    }
}
