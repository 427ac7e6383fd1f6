import NapkinTrace

/// Writes the Chrome Trace Event Format (the JSON that ui.perfetto.dev and
/// chrome://tracing open) event by event, one event a line:
///
///     {"traceEvents":[
///     {"ph":"M","name":"process_name","pid":3447,"tid":0,"args":{"name":"rib-house"}},
///     {"ph":"b","cat":"napkin.router","name":"HomeRouter#12","id2":{"local":"0xc"},"ts":115.526,"pid":3447,"tid":4,"args":{...}},
///     ...
///     ],"displayTimeUnit":"ms","otherData":{...,"tool":"napkin-inspect"}}
///
/// It knows the syntax of each kind of event; ``ChromeTrace`` decides what
/// napkin's lifecycles become. Times are trace nanoseconds, written as
/// microseconds (`ts`, fractional when needed). Async ids are process-scoped
/// (`id2.local`), so two processes never share a track. Arguments are written
/// by the `args` closure with ``arg(_:_:)`` and its overloads.
struct ChromeTraceWriter {
    /// The text so far.
    private var json: JSONBytes
    /// How many events have been written.
    private(set) var eventCount = 0
    /// Whether the next argument is the first of its object (no comma before it).
    private var firstArg = true

    /// How the text starts (``ExportOutput/head`` goes on with the first event).
    static let opening: StaticString = "{\"traceEvents\":["
    /// How the text ends (before its final newline): it says which tool wrote it.
    static let signature: StaticString = "\"tool\":\"napkin-inspect\"}}"

    /// A writer whose text goes to `flush` in chunks.
    init(flush: @escaping ([UInt8]) throws(CommandFailure) -> Void) {
        json = JSONBytes(flush: flush)
        json.raw(Self.opening)
    }

    /// Ends the event list and the top-level object, with `otherData` written
    /// by `other` (then the tool's version and name), and flushes everything.
    mutating func finish(other: (inout ChromeTraceWriter) -> Void) throws(CommandFailure) {
        json.raw("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{")
        firstArg = true
        other(&self)
        arg("version", NapkinInspect.version)
        json.raw(",")
        json.raw(Self.signature)
        json.raw("\n")
        try json.flushAll()
    }

    // MARK: - Events

    /// `process_name` (`M`): the name a viewer shows for process `pid`.
    mutating func processName(_ name: String, pid: Int) throws(CommandFailure) {
        try metadata("process_name", pid: pid, tid: 0) { $0.arg("name", name) }
    }

    /// `thread_name` and `thread_sort_index` (`M`): the name of track group
    /// `tid` and its place (chrome://tracing sorts by it, then by name).
    mutating func threadName(_ name: String, pid: Int, tid: Int) throws(CommandFailure) {
        try metadata("thread_name", pid: pid, tid: tid) { $0.arg("name", name) }
        try metadata("thread_sort_index", pid: pid, tid: tid) { $0.arg("sort_index", tid) }
    }

    /// The start (`b`) of an async slice on the track `category` + `id` of process `pid`.
    mutating func begin(_ name: String, category: StaticString, id: ChromeTrackID, at time: UInt64, pid: Int, tid: Int,
                        args: (inout ChromeTraceWriter) -> Void = { _ in }) throws(CommandFailure) {
        try event("b", name: name, category: category, id: id, time: time, pid: pid, tid: tid, args: args)
    }

    /// The end (`e`) of the async slice `name` on the track `category` + `id`.
    /// An `unfinished` slice is ended at the end of the trace and says so in
    /// its arguments (`"unfinished":true`), after any `args` writes.
    mutating func end(_ name: String, category: StaticString, id: ChromeTrackID, at time: UInt64, pid: Int, tid: Int,
                      unfinished: Bool, args: (inout ChromeTraceWriter) -> Void = { _ in }) throws(CommandFailure) {
        try event("e", name: name, category: category, id: id, time: time, pid: pid, tid: tid) { writer in
            args(&writer)
            if unfinished { writer.arg("unfinished", true) }
        }
    }

    /// An instant (`n`) on the async track `category` + `id`.
    mutating func asyncInstant(_ name: String, category: StaticString, id: ChromeTrackID, at time: UInt64, pid: Int, tid: Int,
                               args: (inout ChromeTraceWriter) -> Void = { _ in }) throws(CommandFailure) {
        try event("n", name: name, category: category, id: id, time: time, pid: pid, tid: tid, args: args)
    }

    /// An instant (`i`, thread scope) on track group `tid`.
    mutating func instant(_ name: String, category: StaticString, at time: UInt64, pid: Int, tid: Int,
                          args: (inout ChromeTraceWriter) -> Void = { _ in }) throws(CommandFailure) {
        try event("i", name: name, category: category, id: nil, time: time, pid: pid, tid: tid, threadScope: true, args: args)
    }

    /// A metadata event (`M`) named `name`.
    private mutating func metadata(_ name: StaticString, pid: Int, tid: Int,
                                   args: (inout ChromeTraceWriter) -> Void) throws(CommandFailure) {
        startEvent("M")
        json.raw(",\"name\":\"")
        json.raw(name)
        json.raw("\"")
        finishEvent(pid: pid, tid: tid, args: args)
        try json.flushIfFull()
    }

    /// Any event but metadata: phase, category, name, id, time, process,
    /// thread (and the scope `"s":"t"` for an instant), then the arguments.
    private mutating func event(_ phase: StaticString, name: String, category: StaticString, id: ChromeTrackID?, time: UInt64,
                                pid: Int, tid: Int, threadScope: Bool = false,
                                args: (inout ChromeTraceWriter) -> Void) throws(CommandFailure) {
        startEvent(phase)
        json.raw(",\"cat\":\"")
        json.raw(category)
        json.raw("\",\"name\":")
        json.string(name)
        if let id {
            json.raw(",\"id2\":{\"local\":\"0x")
            json.hex(id.node)
            if id.occurrence > 1 {
                json.raw(".")
                json.number(id.occurrence)
            }
            json.raw("\"}")
        }
        json.raw(",\"ts\":")
        json.microseconds(time)
        if threadScope { json.raw(",\"s\":\"t\"") }
        finishEvent(pid: pid, tid: tid, args: args)
        try json.flushIfFull()
    }

    /// `{"ph":"X"`, after the separator from the previous event.
    private mutating func startEvent(_ phase: StaticString) {
        json.raw(eventCount == 0 ? "\n{\"ph\":\"" : ",\n{\"ph\":\"")
        json.raw(phase)
        json.raw("\"")
        eventCount += 1
    }

    /// `,"pid":1,"tid":2,"args":{...}}`; no `args` when the closure writes none.
    private mutating func finishEvent(pid: Int, tid: Int, args: (inout ChromeTraceWriter) -> Void) {
        json.raw(",\"pid\":")
        json.number(pid)
        json.raw(",\"tid\":")
        json.number(tid)
        let mark = json.bytes.count
        json.raw(",\"args\":{")
        firstArg = true
        args(&self)
        if firstArg {
            json.truncate(to: mark)  // no argument: no object
        } else {
            json.raw("}")
        }
        json.raw("}")
    }

    // MARK: - Arguments

    /// `"key":` with the comma before it when it is not the first of its object.
    private mutating func key(_ key: StaticString) {
        json.raw(firstArg ? "\"" : ",\"")
        json.raw(key)
        json.raw("\":")
        firstArg = false
    }

    /// A string argument.
    mutating func arg(_ name: StaticString, _ value: String) {
        key(name)
        json.string(value)
    }

    /// A number argument.
    mutating func arg(_ name: StaticString, _ value: Int) {
        key(name)
        json.number(value)
    }

    /// A number argument (an id, a sequence number).
    mutating func arg(_ name: StaticString, _ value: UInt64) {
        key(name)
        json.number(value)
    }

    /// A boolean argument.
    mutating func arg(_ name: StaticString, _ value: Bool) {
        key(name)
        json.bool(value)
    }

    /// A list of strings.
    mutating func arg(_ name: StaticString, _ values: [String]) {
        list(name, values) { $0.string($1) }
    }

    /// A list of numbers (sequence numbers).
    mutating func arg(_ name: StaticString, _ values: [UInt64]) {
        list(name, values) { $0.number($1) }
    }

    /// `"name":[...]`, each of `values` written by `write`.
    private mutating func list<Value>(_ name: StaticString, _ values: [Value], _ write: (inout JSONBytes, Value) -> Void) {
        key(name)
        json.raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { json.raw(",") }
            write(&json, value)
        }
        json.raw("]")
    }

    /// An object argument whose members `members` writes with ``arg(_:_:)``.
    mutating func object(_ name: StaticString, members: (inout ChromeTraceWriter) -> Void) {
        key(name)
        json.raw("{")
        firstArg = true
        members(&self)
        json.raw("}")
        firstArg = false
    }

    /// A list of objects, one per element of `items`, whose members `members` writes.
    mutating func objects<Item>(_ name: StaticString, _ items: [Item], members: (inout ChromeTraceWriter, Item) -> Void) {
        key(name)
        json.raw("[")
        for (index, item) in items.enumerated() {
            json.raw(index == 0 ? "{" : ",{")
            firstArg = true
            members(&self, item)
            json.raw("}")
        }
        json.raw("]")
        firstArg = false
    }
}

/// The id of an async track within its process (`id2.local`): the node's
/// id, `"0x1f"`, and for a node whose id an earlier node of the process
/// already had (a task id a resumed session replays), which one it is:
/// `"0x1f.2"`.
struct ChromeTrackID: Hashable {
    /// The router's, interactor's or task's id.
    var node: NodeID
    /// 1 for the first node with that id, 2 for the second...
    var occurrence = 1
}
