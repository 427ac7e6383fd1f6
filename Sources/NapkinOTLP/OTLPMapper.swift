import NapkinTrace

/// Turns a napkin trace, event by event, into OTLP spans and log records,
/// and keeps the populations the metrics report (docs/otlp.md, "Mapping").
///
/// - A router's attachment (from `attach` or `launch` to `detach`) is a span
///   named after the router's type, whose parent is the span of the router
///   it was attached to: the tree appears as nested spans. A router still
///   attached when the session ends gets its span then, marked
///   `napkin.span.open_at_end`.
/// - An interactor's active interval is a child span of its router's span;
///   a bound task is a child span of its owner's active span.
/// - Loads, views shown, covered and removed, detaches and task
///   cancellation requests are span events; creation, attach and detach
///   lines are `code.*` attributes.
/// - A finding is a log record with the trace and span ids of its object's
///   span; a mark and a dropped-events count are log records too.
///
/// Ids are derived from the session (app, process id and wall-clock origin),
/// so one trace mapped twice, live and from its file, gets the same ids.
///
/// Memory: one entry per router, interactor and open span alive in the
/// trace, each bounded (``OTLPLimits``); finished spans and records wait in
/// ``takeSpans()`` / ``takeLogs()`` until the caller takes them.
package struct OTLPMapper: Sendable {
    /// The bounds of names, values, events and open spans.
    package let limits: OTLPLimits
    /// Whether the spans of routers gone and tasks ended are remembered, for
    /// findings mapped after the trace (`export`, where the analysis decides
    /// at the end); in the app, findings come while their objects are known.
    package let remembersEndedSpans: Bool

    /// What a router's span needs to know about it.
    private struct Router: Sendable {
        var type: String
        var interactor: NodeID
        var created: UInt64
        var creation: CodeLocation?
        /// The router's latest attachment span (open or ended), for the findings about it.
        var lastSpan: UInt64 = 0
        /// Whether its first span got the creation event already.
        var creationShown = false
    }

    /// A span not ended yet.
    private struct Open: Sendable {
        var span: OTLPSpan
        /// Events past ``OTLPLimits/eventsPerSpan``.
        mutating func add(_ event: OTLPSpan.Event, limit: Int) {
            if span.events.count < limit { span.events.append(event) } else { span.droppedEvents += 1 }
        }
    }

    private var session: SessionInfo?
    private var seed: UInt64 = 0
    /// The session's trace id.
    package private(set) var traceID = OTLPTraceID(high: 0, low: 0)
    private var spanCount: UInt64 = 0
    private var wallOrigin: UInt64 = 0
    /// Unix nanoseconds of the latest event.
    package private(set) var lastTime: UInt64 = 0
    private var routers: [NodeID: Router] = [:]
    private var interactorTypes: [NodeID: String] = [:]
    private var interactorRouter: [NodeID: NodeID] = [:]
    private var attachments: [NodeID: Open] = [:]
    private var activities: [NodeID: Open] = [:]
    private var tasks: [NodeID: Open] = [:]
    private var spans: [OTLPSpan] = []
    private var logs: [OTLPLogRecord] = []
    /// The populations and counts the metrics report.
    package private(set) var metrics = OTLPMetrics(start: 0, time: 0)
    /// The last span of each router gone and each task ended (``remembersEndedSpans``).
    private var endedSpans: [NodeID: UInt64] = [:]
    /// Spans not made because ``OTLPLimits/openSpans`` were open.
    package private(set) var spansNotOpened = 0

    /// A mapper with the given bounds.
    package init(limits: OTLPLimits = OTLPLimits(), remembersEndedSpans: Bool = false) {
        self.limits = limits
        self.remembersEndedSpans = remembersEndedSpans
    }

    /// The session being mapped, once its start was seen.
    package var currentSession: SessionInfo? { session }

    /// The session's id (`session.id`): 32 hex digits derived from the session, like the trace id.
    package var sessionID: String { traceID.hex }

    // MARK: - Taking the output

    /// The spans ended since the last call.
    package mutating func takeSpans() -> [OTLPSpan] {
        defer { spans.removeAll(keepingCapacity: true) }
        return spans
    }

    /// The log records made since the last call.
    package mutating func takeLogs() -> [OTLPLogRecord] {
        defer { logs.removeAll(keepingCapacity: true) }
        return logs
    }

    /// The metrics as of now.
    package func metricsSnapshot(exporterDropped: [String: Int] = [:]) -> OTLPMetrics {
        var snapshot = metrics
        snapshot.time = max(lastTime, metrics.start)
        snapshot.exporterDropped = exporterDropped
        return snapshot
    }

    // MARK: - Events

    /// Folds one event.
    package mutating func consume(_ event: TraceEvent) {
        if case .sessionStart(let info) = event.kind {
            begin(info)
            return
        }
        guard session != nil else { return }
        let time = wallOrigin &+ event.time
        lastTime = max(lastTime, time)
        switch event.kind {
        case .sessionStart:
            break
        case .routerCreated(let id, let type, let interactor, let interactorType):
            routers[id] = Router(type: bounded(type), interactor: interactor, created: time,
                                 creation: event.location)
            metrics.routers[populationKey(type, in: metrics.routers), default: 0] += 1
            if interactorTypes[interactor] == nil {
                interactorTypes[interactor] = bounded(interactorType)
                metrics.interactors[populationKey(interactorType, in: metrics.interactors), default: 0] += 1
            }
            interactorRouter[interactor] = id
        case .interactorCreated(let id, let type):
            if interactorTypes[id] == nil {
                interactorTypes[id] = bounded(type)
                metrics.interactors[populationKey(type, in: metrics.interactors), default: 0] += 1
            }
        case .launch(let router):
            openAttachment(router, parent: nil, at: time, location: event.location, launched: true)
        case .attach(let parent, let child):
            if attachments[parent] == nil && routers[parent] != nil {
                // A parent that was never launched nor attached: the root of a tree built by hand.
                openAttachment(parent, parent: nil, at: time, location: nil, launched: false)
            }
            openAttachment(child, parent: parent, at: time, location: event.location, launched: false)
        case .detach(_, let child):
            guard var open = attachments.removeValue(forKey: child) else { break }
            open.add(OTLPSpan.Event(time: time, name: "napkin.router.detached", attributes: codeAttributes(event.location)),
                     limit: limits.eventsPerSpan)
            end(open, at: time)
        case .activate(let interactor):
            guard activities[interactor] == nil, canOpen() else { break }
            let router = interactorRouter[interactor]
            let parent = router.flatMap { attachments[$0]?.span.spanID } ?? router.flatMap { routers[$0]?.lastSpan } ?? 0
            let type = interactorTypes[interactor] ?? "Interactor"
            var span = newSpan(name: bounded(type + " active"), parent: parent, at: time)
            span.attributes = [attribute("napkin.interactor.type", .string(type)),
                               attribute("napkin.interactor.id", .int(Int64(clamping: interactor)))]
            activities[interactor] = Open(span: span)
        case .deactivate(let interactor):
            guard let open = activities.removeValue(forKey: interactor) else { break }
            end(open, at: time)
        case .hookEnd:
            break
        case .load(let router):
            addEvent(to: router, OTLPSpan.Event(time: time, name: "napkin.router.loaded"))
        case .view(let router, let appearance):
            addEvent(to: router, OTLPSpan.Event(time: time, name: "napkin.view." + appearance.rawValue))
        case .taskStart(let task, let owner, let label):
            guard tasks[task] == nil, canOpen() else { break }
            let router = interactorRouter[owner]
            let parent = activities[owner]?.span.spanID
                ?? router.flatMap { attachments[$0]?.span.spanID } ?? router.flatMap { routers[$0]?.lastSpan } ?? 0
            let ownerType = interactorTypes[owner] ?? "Interactor"
            var span = newSpan(name: bounded(label ?? (ownerType + " task")), parent: parent, at: time)
            span.attributes = [attribute("napkin.task.id", .int(Int64(clamping: task))),
                               attribute("napkin.interactor.type", .string(ownerType)),
                               attribute("napkin.interactor.id", .int(Int64(clamping: owner)))]
            if let label { span.attributes.append(attribute("napkin.task.label", .string(label))) }
            span.attributes += codeAttributes(event.location)
            tasks[task] = Open(span: span)
        case .taskCancel(let task):
            tasks[task]?.add(OTLPSpan.Event(time: time, name: "napkin.task.cancel_requested"), limit: limits.eventsPerSpan)
        case .taskEnd(let task, let outcome):
            guard var open = tasks.removeValue(forKey: task) else { break }
            if remembersEndedSpans { endedSpans[task] = open.span.spanID }
            open.span.attributes.append(attribute("napkin.task.outcome", .string(outcome.rawValue)))
            end(open, at: time)
        case .deallocated(let id):
            if let router = routers.removeValue(forKey: id) {
                if remembersEndedSpans { endedSpans[id] = router.lastSpan }
                decrement(router.type, in: &metrics.routers)
                if var open = attachments.removeValue(forKey: id) {
                    open.add(OTLPSpan.Event(time: time, name: "napkin.router.deallocated"), limit: limits.eventsPerSpan)
                    end(open, at: time)
                }
            } else if let type = interactorTypes.removeValue(forKey: id) {
                decrement(type, in: &metrics.interactors)
                if !remembersEndedSpans { interactorRouter[id] = nil }
                if let open = activities.removeValue(forKey: id) { end(open, at: time) }
            }
        case .retained:
            // A finding carries its retainers (the analysis and the detector attach them).
            break
        case .mark(let text):
            logs.append(OTLPLogRecord(time: time, observedTime: time, severityNumber: 9, severityText: "INFO",
                                      body: OTLPLimits.truncated(text, to: limits.bodyLength), eventName: "napkin.mark"))
        case .dropped(let count, let firstSeq, let lastSeq):
            metrics.droppedEvents &+= count
            logs.append(OTLPLogRecord(time: time, observedTime: time, severityNumber: 13, severityText: "WARN",
                                      body: "\(count) trace events dropped (seq \(firstSeq)...\(lastSeq)): the tracer's queue was full",
                                      eventName: "napkin.trace.dropped",
                                      attributes: [attribute("napkin.trace.dropped_events", .int(Int64(clamping: count)))]))
        case .sessionEnd:
            endAll(at: time)
        }
    }

    /// Ends every open span now (the trace ended without a session-end
    /// record, or the exporter is closing): marked `napkin.span.open_at_end`.
    package mutating func endAll(at time: UInt64? = nil) {
        let end = time ?? lastTime
        for key in tasks.keys.sorted() {
            guard let open = tasks.removeValue(forKey: key) else { continue }
            if remembersEndedSpans { endedSpans[key] = open.span.spanID }
            endOpen(open, at: end)
        }
        for key in activities.keys.sorted() { if let open = activities.removeValue(forKey: key) { endOpen(open, at: end) } }
        for key in attachments.keys.sorted() { if let open = attachments.removeValue(forKey: key) { endOpen(open, at: end) } }
    }

    // MARK: - Findings

    /// The log record of `finding`, correlated with its object's span; counts it per rule.
    package mutating func record(_ finding: Finding, observedAt observed: UInt64? = nil) -> OTLPLogRecord {
        metrics.findings[populationKey(finding.rule.rawValue, in: metrics.findings), default: 0] += 1
        let time = wallOrigin &+ finding.time
        let severity = switch finding.severity {
        case .error: (17, "ERROR")
        case .warning: (13, "WARN")
        }
        var attributes: [OTLPAttribute] = [
            attribute("napkin.finding.rule", .string(finding.rule.rawValue)),
            attribute("napkin.finding.fingerprint", .string(finding.fingerprint)),
            attribute("napkin.finding.subject", .string(finding.subjectName)),
            attribute("napkin.finding.subject_kind", .string(finding.subject.rawValue)),
            attribute("napkin.type", .string(finding.type)),
            attribute("napkin.node.id", .int(Int64(clamping: finding.id))),
        ]
        if let label = finding.label { attributes.append(attribute("napkin.task.label", .string(label))) }
        if let creation = finding.locations.first(where: { $0.role == .created }) ?? finding.locations.first {
            attributes += codeAttributes(creation.location)
        }
        if !finding.locations.isEmpty {
            attributes.append(attribute("napkin.finding.locations", .strings(finding.locations.map(\.description))))
        }
        if let retainers = finding.retainers {
            if !retainers.paths.isEmpty {
                attributes.append(attribute("napkin.finding.retainer.paths", .strings(retainers.paths)))
            }
            if let key = retainers.key { attributes.append(attribute("napkin.finding.retainer.key", .string(key))) }
            attributes.append(attribute("napkin.finding.retainer.tally", .string(retainers.tally)))
            if let note = retainers.note { attributes.append(attribute("napkin.finding.retainer.note", .string(note))) }
        }
        if !finding.tests.isEmpty { attributes.append(attribute("napkin.finding.tests", .strings(finding.tests))) }
        var record = OTLPLogRecord(time: time, observedTime: observed ?? max(time, lastTime),
                                   severityNumber: severity.0, severityText: severity.1,
                                   body: OTLPLimits.truncated(finding.description, to: limits.bodyLength),
                                   eventName: "napkin.finding", attributes: attributes)
        let span = spanID(of: finding)
        if span != 0 {
            record.traceID = traceID
            record.spanID = span
        }
        return record
    }

    /// Maps `finding` and queues its record with the others (``takeLogs()``).
    package mutating func add(_ finding: Finding, observedAt observed: UInt64? = nil) {
        logs.append(record(finding, observedAt: observed))
    }

    /// The span a finding is about: its task's, its router's (latest attachment), or its interactor's router's.
    private func spanID(of finding: Finding) -> UInt64 {
        switch finding.subject {
        case .task:
            return tasks[finding.id]?.span.spanID ?? endedSpans[finding.id] ?? 0
        case .router:
            return attachments[finding.id]?.span.spanID ?? routers[finding.id]?.lastSpan ?? endedSpans[finding.id] ?? 0
        case .interactor:
            if let open = activities[finding.id] { return open.span.spanID }
            guard let router = interactorRouter[finding.id] else { return 0 }
            return attachments[router]?.span.spanID ?? routers[router]?.lastSpan ?? endedSpans[router] ?? 0
        case .trace:
            return 0
        }
    }

    // MARK: - Spans

    private mutating func begin(_ info: SessionInfo) {
        if let current = session, info.resumes(current) {
            session = info
            return
        }
        if session != nil { endAll() }
        self = OTLPMapper(limits: limits, remembersEndedSpans: remembersEndedSpans)
        session = info
        wallOrigin = UInt64(clamping: info.wallClock)
        lastTime = wallOrigin
        seed = Self.seed(of: info)
        traceID = OTLPTraceID(high: Self.mix(seed &+ 1), low: Self.mix(seed &+ 2))
        if traceID.high == 0 && traceID.low == 0 { traceID.low = 1 }
        metrics = OTLPMetrics(start: wallOrigin, time: wallOrigin)
    }

    /// The session's identity hashed (FNV-1a over app, pid and wall clock).
    private static func seed(of info: SessionInfo) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        add(info.app.utf8)
        add(String(info.pid).utf8)
        add(String(info.wallClock).utf8)
        return hash
    }

    /// SplitMix64's finaliser.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    private mutating func newSpan(name: String, parent: UInt64, at time: UInt64) -> OTLPSpan {
        spanCount &+= 1
        var id = Self.mix(seed ^ (spanCount &* 0x9e37_79b9_7f4a_7c15))
        if id == 0 { id = 1 }
        return OTLPSpan(traceID: traceID, spanID: id, parentSpanID: parent, name: name, start: time, end: time)
    }

    private func canOpen() -> Bool {
        attachments.count + activities.count + tasks.count < limits.openSpans
    }

    private mutating func openAttachment(_ router: NodeID, parent: NodeID?, at time: UInt64,
                                         location: CodeLocation?, launched: Bool) {
        guard attachments[router] == nil else { return }
        guard canOpen() else {
            spansNotOpened += 1
            return
        }
        let info = routers[router]
        let parentSpan = parent.flatMap { attachments[$0]?.span.spanID } ?? 0
        let type = info?.type ?? "Router"
        var span = newSpan(name: type, parent: parentSpan, at: time)
        span.attributes = [attribute("napkin.router.type", .string(type)),
                           attribute("napkin.router.id", .int(Int64(clamping: router)))]
        if let info {
            span.attributes.append(attribute("napkin.interactor.type", .string(interactorTypes[info.interactor] ?? "")))
            span.attributes.append(attribute("napkin.interactor.id", .int(Int64(clamping: info.interactor))))
        }
        if let parent, let parentInfo = routers[parent] {
            span.attributes.append(attribute("napkin.parent.type", .string(parentInfo.type)))
            span.attributes.append(attribute("napkin.parent.id", .int(Int64(clamping: parent))))
        }
        if parent == nil { span.attributes.append(attribute(launched ? "napkin.router.launched" : "napkin.router.root", .bool(true))) }
        span.attributes += codeAttributes(location)
        var open = Open(span: span)
        if var info, !info.creationShown {
            info.creationShown = true
            var created = OTLPSpan.Event(time: min(info.created, time), name: "napkin.router.created",
                                         attributes: codeAttributes(info.creation))
            if created.attributes.isEmpty { created.attributes = [] }
            open.add(created, limit: limits.eventsPerSpan)
            routers[router] = info
        }
        routers[router]?.lastSpan = span.spanID
        attachments[router] = open
    }

    private mutating func addEvent(to router: NodeID, _ event: OTLPSpan.Event) {
        attachments[router]?.add(event, limit: limits.eventsPerSpan)
    }

    private mutating func end(_ open: Open, at time: UInt64) {
        var span = open.span
        span.end = max(time, span.start)
        spans.append(span)
    }

    private mutating func endOpen(_ open: Open, at time: UInt64) {
        var open = open
        open.span.attributes.append(attribute("napkin.span.open_at_end", .bool(true)))
        end(open, at: time)
    }

    // MARK: - Attributes

    private func attribute(_ key: String, _ value: OTLPAttribute.Value) -> OTLPAttribute {
        limits.bounded(OTLPAttribute(key, value))
    }

    private func bounded(_ name: String) -> String {
        OTLPLimits.truncated(name, to: limits.nameLength)
    }

    /// `code.file.path` and `code.line.number` for a line, `code.function.name` for a function (none for nil).
    private func codeAttributes(_ location: CodeLocation?) -> [OTLPAttribute] {
        guard let location else { return [] }
        if let function = location.function {
            var out = [attribute("code.function.name", .string(function))]
            if let module = location.module { out.append(attribute("code.namespace", .string(module))) }
            return out
        }
        return [attribute("code.file.path", .string(location.fileID)),
                attribute("code.line.number", .int(Int64(location.line)))]
    }

    /// The series `type` counts in: itself, or ``OTLPLimits/overflowType`` once `counts` holds as many types as the limit.
    private func populationKey(_ type: String, in counts: [String: Int]) -> String {
        let key = bounded(type)
        if counts[key] != nil || counts.count < limits.metricTypes { return key }
        return OTLPLimits.overflowType
    }

    private func decrement(_ type: String, in counts: inout [String: Int]) {
        let key = counts[type] != nil ? type : OTLPLimits.overflowType
        if let value = counts[key] { counts[key] = max(value - 1, 0) }
    }
}
