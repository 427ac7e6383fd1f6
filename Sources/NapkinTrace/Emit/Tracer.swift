import Dispatch
import Foundation
import Synchronization

/// One trace session: hands out ids and sequence numbers and queues events.
///
/// `emit` never waits for I/O: it takes a short lock, stamps the event and
/// appends it to a bounded queue. A background writer thread drains the queue
/// into the sink every ``flushInterval`` (or sooner when the queue is half
/// full) while events come; when a drain finds nothing and nothing else needs
/// the time to pass (the detector's checks, a socket sink's reconnection),
/// the writer sleeps until the next event is emitted, which wakes it (one
/// semaphore signal), then waits one interval to gather a batch. An idle
/// app's writer thread does not wake. When the queue is full the event is dropped and counted; the count
/// and the missing sequence numbers are written as a `dropped` record with the
/// next batch.
///
/// A tracer without a sink (the in-memory ``TraceRecorder``) keeps every event
/// in its queue, unbounded, until they are read.
package final class Tracer: Sendable {
    // MARK: - State

    package let origin: UInt64
    package let info: SessionInfo
    package let flushInterval: Duration
    let capacity: Int
    let sink: (any TraceSink)?
    let ids = Atomic<UInt64>(0)
    let queue: Locked<Queue>
    /// Serialises every call into the sink and owns the writer's spare buffer.
    let writer = Locked<[TraceEvent]>([])
    let wake = DispatchSemaphore(value: 0)
    /// Where emitted events also go as signposts, if signposts are on
    /// (``NapkinSignposts``); nil costs ``emit(_:at:)`` one check.
    package let signposts: (any SignpostObserver)?
    /// The in-app detector the writer feeds, if detection is on.
    private let detectorSlot = Locked<Detector?>(nil)
    /// The traced routers and interactors alive, for the retainer search:
    /// kept for a recording (no sink) and for a detector that searches.
    package let liveObjects: LiveObjects
    /// The sink threw while a detector was attached: the trace stopped,
    /// detection goes on.
    private let sinkFailed = Atomic<Bool>(false)
    /// The app stopped (``stop()``); mirrors the queue's `stoppedAt` for
    /// readers that must not take its lock.
    private let stopping = Atomic<Bool>(false)
    /// How many times the writer thread woke up (for the idle benchmark and tests).
    private let wakeUps = Atomic<UInt64>(0)
    /// A recording's (no sink) scope: every event wakes its verdict's wait.
    package let activity: ScopeActivity?

    struct Queue {
        var events: [TraceEvent] = []
        var seq: UInt64 = 0
        var dropped: UInt64 = 0
        var droppedFirst: UInt64 = 0
        var droppedLast: UInt64 = 0
        var totalDropped: UInt64 = 0
        var signalled = false
        /// The writer sleeps until an event comes: the next emit wakes it.
        var writerAsleep = false
        /// No more events are accepted: the session ended or the sink failed.
        var closed = false
        /// Trace time at which the app stopped (``stop()``), `.max` while it
        /// runs: no record is stamped later than this.
        var stoppedAt = UInt64.max

        /// Trace time now, or the time the app stopped if it did: the time
        /// after the app stopped is not the app's (records of the exit
        /// carry the moment it began).
        func stamp(_ origin: UInt64) -> UInt64 {
            min(MonotonicClock.now() &- origin, stoppedAt)
        }
    }

    /// Creates a session and queues its session record.
    ///
    /// - Parameters:
    ///   - sink: where events go; `nil` keeps them in memory.
    ///   - capacity: the bound of the queue (ignored without a sink).
    ///   - flushInterval: how often the background writer drains the queue.
    ///   - startWriter: start the background writer thread (with a sink).
    ///   - detector: the in-app detector to feed (with a sink).
    ///   - signposts: where events also go as signposts, as they are emitted.
    package init(sink: (any TraceSink)?, app: String? = nil, capacity: Int = 65_536,
                 flushInterval: Duration = .milliseconds(50), startWriter: Bool = true, detector: Detector? = nil,
                 signposts: (any SignpostObserver)? = nil) {
        self.origin = MonotonicClock.now()
        self.signposts = signposts
        self.sink = sink
        self.capacity = sink == nil ? Int.max : max(capacity, 16)
        self.flushInterval = flushInterval
        let process = ProcessInfo.processInfo
        self.info = SessionInfo(app: app ?? process.processName, pid: Int(process.processIdentifier),
                                wallClock: MonotonicClock.wallClock(), revision: TraceFormat.revision)
        var q = Queue()
        if sink != nil { q.events.reserveCapacity(min(self.capacity, 4096)) }
        q.seq = 1
        q.events.append(TraceEvent(seq: 1, time: 0, kind: .sessionStart(info)))
        self.queue = Locked(q)
        self.activity = sink == nil ? ScopeActivity() : nil
        self.liveObjects = LiveObjects(enabled: sink == nil || (detector?.searchesRetainers ?? false))
        if sink != nil, let detector {
            detectorSlot.withLock { $0 = detector }
            detector.bind(to: self)
        }
        if sink != nil && startWriter {
            let thread = Thread { [self] in self.writerLoop() }
            thread.name = "napkin-trace-writer"
            thread.qualityOfService = .utility
            thread.start()
        }
    }

    // MARK: - Emitting

    /// A fresh id for a router, interactor or task of this session.
    @inline(__always)
    package func nextID() -> NodeID {
        ids.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Stamps `kind` with the next sequence number and the current time, and
    /// queues it. Never blocks on I/O; drops (and counts) when the queue is
    /// full. With signposts on, the event is signposted first, on this thread
    /// (an interval must begin and end where the work happens, not when the
    /// writer gets to it).
    package func emit(_ kind: TraceEvent.Kind, at location: CodeLocation? = nil) {
        if let signposts { signposts.observe(kind) }
        var signal = false
        queue.withLock { q in
            if q.closed { return }
            q.seq &+= 1
            let time = q.stamp(origin)
            if q.writerAsleep {
                q.writerAsleep = false
                signal = true
            }
            if q.events.count < capacity {
                q.events.append(TraceEvent(seq: q.seq, time: time, kind: kind, location: location))
                if !q.signalled && q.events.count >= capacity / 2 {
                    q.signalled = true
                    signal = true
                }
            } else {
                if q.dropped == 0 { q.droppedFirst = q.seq }
                q.dropped &+= 1
                q.droppedLast = q.seq
            }
        }
        if signal { wake.signal() }
        // What the event does to its test's tally, and the wake-up of its verdict.
        if let activity {
            activity.note(ScopeTallies.delta(of: kind))
        } else if ScopeTallies.isOn {
            ScopeTallies.note(kind)
        }
    }

    // MARK: - Detection

    /// The in-app detector this tracer feeds, if any.
    package var detector: Detector? {
        detectorSlot.withLock { $0 }
    }

    /// Starts feeding `detector` (instead of the one it fed, if any), if
    /// this tracer writes to a sink and its session holds nothing but its
    /// start (no napkin object reported yet); returns whether it did.
    package func attach(_ detector: Detector) -> Bool {
        guard sink != nil else { return false }
        return writer.withLock { _ in
            // No drain runs meanwhile (they hold `writer`): the start is either
            // still queued, or already written, and then the detector gets it here.
            let (seq, drained) = queue.withLock { ($0.seq, $0.events.isEmpty) }
            guard seq == 1 else { return false }
            detectorSlot.withLock { $0 = detector }
            detector.bind(to: self)
            liveObjects.setEnabled(detector.searchesRetainers)
            if drained { detector.consume([TraceEvent(seq: 1, time: 0, kind: .sessionStart(info))], now: 0) }
            return true
        }
    }

    /// Trace time now (the moment the app stopped, once it did).
    private var now: UInt64 { queue.withLock { $0.stamp(origin) } }

    // MARK: - Reading back

    /// Everything queued so far (for a tracer without a sink: every event of
    /// the session). `resolvingLocations` false: creation lines not worked
    /// out yet stay deferred (worked out when read), for a reader that
    /// reads a line only for a finding (a verdict with none never pays for
    /// symbolication); such a location may come to nothing when read.
    package func snapshot(resolvingLocations: Bool = true) -> [TraceEvent] {
        var events = queue.withLock { $0.events }
        if resolvingLocations { Self.resolveLocations(&events) }
        return events
    }

    /// Works out the deferred code locations (creation lines, see
    /// `DeferredCodeLocation`) of `events`, off the threads that emitted
    /// them; a location that comes to nothing is removed.
    private static func resolveLocations(_ events: inout [TraceEvent]) {
        for index in events.indices where events[index].location?.isDeferred == true {
            events[index].location = events[index].location?.resolvedNow()
        }
    }

    /// Works out the deferred code locations of `events` for the sink and
    /// the detector, on ``LineResolver``'s thread, waiting for each until
    /// the app stops (then a line not known yet is left out).
    private func resolveLocationsForWriting(_ events: inout [TraceEvent]) {
        for index in events.indices where events[index].location?.isDeferred == true {
            events[index].location = events[index].location.flatMap {
                LineResolver.shared.resolve($0) { self.isStopping }
            }
        }
    }

    /// The sequence number of the last event queued (or dropped) so far.
    package var sequenceNumber: UInt64 {
        queue.withLock { $0.seq }
    }

    /// The number of events dropped so far because the queue was full.
    package var droppedCount: UInt64 {
        queue.withLock { $0.totalDropped + $0.dropped }
    }

    // MARK: - Flushing and shutting down

    /// Writes everything queued so far to the sink, on the calling thread.
    package func flush() {
        guard let sink else { return }
        writer.withLock { spare in
            drain(into: &spare, sink: sink, final: false)
        }
    }

    /// Whether the app stopped (``stop()``): the writer waits for no
    /// creation line, and records carry the moment it stopped.
    package var isStopping: Bool {
        stopping.load(ordering: .acquiring)
    }

    /// Marks the moment the app stopped (its `main` returned, `exit()` was
    /// called, a signal came, the session is being ended): records from now
    /// on carry this time, so that what the exit takes (flushing, working out
    /// creation lines, reporting) never counts as the app's time toward a
    /// grace period. Returns that trace time; a second call returns the first's.
    @discardableResult
    package func stop() -> UInt64 {
        let time = queue.withLock { q -> UInt64 in
            if q.stoppedAt == .max { q.stoppedAt = MonotonicClock.now() &- origin }
            return q.stoppedAt
        }
        stopping.store(true, ordering: .releasing)
        return time
    }

    /// Ends the session: stops the app's time (``stop()``), writes what is
    /// queued, lets the detector decide and report what the end decides
    /// (its reports' `retained` records still reach the trace), then
    /// queues the session-end record, writes everything and closes the
    /// sink. Later events are ignored. Safe to call more than once.
    ///
    /// - Parameters:
    ///   - reason: the end record's reason.
    ///   - reportingMS: how long the detector's reports may take, at most
    ///     (a blocked handler is left behind, with a line saying so).
    package func shutdown(reason: String, reportingMS: Int = 500) {
        signposts?.observe(.sessionEnd(reason: reason))
        guard let sink else {
            queue.withLock { q in
                guard !q.closed else { return }
                q.seq &+= 1
                q.events.append(TraceEvent(seq: q.seq, time: q.stamp(origin), kind: .sessionEnd(reason: reason)))
                q.closed = true
            }
            return
        }
        guard !queue.withLock({ $0.closed }) else { return }
        let stoppedAt = stop()
        if let detector {
            // Events so far reach the detector (the writer gives up waiting for lines now).
            flush()
            detector.sessionEnded(stoppedAt: stoppedAt, timeoutMS: reportingMS)
        }
        let ended = writer.withLock { spare -> Bool in
            let wasOpen = queue.withLock { q -> Bool in
                guard !q.closed else { return false }
                q.seq &+= 1
                // Appended even past capacity: the end record must not be dropped.
                q.events.append(TraceEvent(seq: q.seq, time: q.stamp(origin), kind: .sessionEnd(reason: reason)))
                // Nothing may follow it, even before the drain below takes the queue.
                q.closed = true
                return true
            }
            guard wasOpen else { return false }
            drain(into: &spare, sink: sink, final: true)
            sink.close()
            return true
        }
        wake.signal()
        _ = ended
    }

    // MARK: - The writer thread

    /// Moves the queue into `spare` and writes it; on a sink error reports once
    /// and turns tracing off for this session.
    private func drain(into spare: inout [TraceEvent], sink: any TraceSink, final: Bool) {
        queue.withLock { q in
            if q.closed && !final { return }
            swap(&q.events, &spare)
            q.signalled = false
            if q.dropped > 0 {
                q.seq &+= 1
                let record = TraceEvent(seq: q.seq, time: q.stamp(origin),
                                        kind: .dropped(count: q.dropped, firstSeq: q.droppedFirst, lastSeq: q.droppedLast))
                // Keep the session-end record last, with the highest sequence
                // number and time: the dropped record takes the end's place.
                if final, let end = spare.last, case .sessionEnd = end.kind {
                    spare[spare.count - 1] = TraceEvent(seq: end.seq, time: end.time, kind: record.kind)
                    spare.append(TraceEvent(seq: record.seq, time: record.time, kind: end.kind))
                } else {
                    spare.append(record)
                }
                q.totalDropped &+= q.dropped
                q.dropped = 0
            }
            if final { q.closed = true }
        }
        defer { spare.removeAll(keepingCapacity: true) }
        // Also for a sink that keeps nothing (detection alone): a finding
        // made just before the process exits is reported within the exit's
        // 500 ms, and the process's first line can take seconds to work out
        // in a debug build, so lines are worked out as their records come,
        // not when a finding names them. Once the app stopped, no line is
        // waited for: the records go out without the lines not known yet.
        resolveLocationsForWriting(&spare)
        let detector = self.detector
        guard !spare.isEmpty else {
            // A quiet interval: a sink with work of its own (reconnecting) does it now.
            if !final, let aware = sink as? any TracerAwareSink { aware.writerIsIdle() }
            detector?.idle(now: now)
            return
        }
        if !sinkFailed.load(ordering: .relaxed) { write(spare, to: sink, final: final, detecting: detector != nil) }
        detector?.consume(spare, now: now)
    }

    /// Hands `batch` to the sink; on an error reports once and turns tracing
    /// off for this session, or only the trace when a detector goes on.
    private func write(_ batch: [TraceEvent], to sink: any TraceSink, final: Bool, detecting: Bool) {
        do {
            try sink.write(batch)
        } catch {
            if detecting {
                sinkFailed.store(true, ordering: .relaxed)
                DeveloperNotice.report("napkin: tracing stopped: \(error); detection goes on without a trace")
                return
            }
            let wasOpen = queue.withLock { q -> Bool in
                let was = !q.closed
                q.closed = true
                q.events.removeAll()
                return was
            }
            if wasOpen || final {
                DeveloperNotice.report("napkin: tracing stopped: \(error); the app goes on without a trace")
            }
        }
    }

    /// How many times the writer thread has woken up so far: each wait that
    /// ended, by an event, a full queue, the end or its interval.
    package var writerWakeUps: UInt64 {
        wakeUps.load(ordering: .relaxed)
    }

    /// Whether the writer thread sleeps until the next event, or until its
    /// sink's idle work is due (``TracerAwareSink/idleCallDue``) (for tests).
    package var writerIsAsleep: Bool {
        queue.withLock { $0.writerAsleep }
    }

    /// Whether the detector needs the writer to wake every interval: its
    /// checks wait for the app's time.
    private var needsTime: Bool {
        if let detector, detector.isWaitingForTime { return true }
        return false
    }

    /// When the sink next has idle work (a reconnection due), on
    /// ``MonotonicClock``; `nil`: none, the writer may sleep until an event.
    private var idleCallDue: UInt64? {
        (sink as? any TracerAwareSink)?.idleCallDue
    }

    private func writerLoop() {
        let intervalNS = UInt64(flushInterval.components.seconds * 1_000_000_000
                                + flushInterval.components.attoseconds / 1_000_000_000)
        let interval = DispatchTimeInterval.nanoseconds(Int(intervalNS))
        while true {
            let ticking = needsTime
            let due = ticking ? nil : idleCallDue
            // Decided under the queue's lock: an emit after this sees the flag and wakes the writer.
            let sleeps = queue.withLock { q -> Bool in
                q.writerAsleep = !ticking && q.events.isEmpty && !q.closed
                return q.writerAsleep
            }
            if sleeps {
                if let due {
                    // Asleep until the sink's idle work is due, or an event comes.
                    let now = MonotonicClock.now()
                    let timedOut = due <= now
                        || wake.wait(timeout: .now() + .nanoseconds(Int(min(due - now, UInt64(Int.max))))) == .timedOut
                    // Timed out: unless an emit already cleared the flag (its
                    // signal is then taken, keeping the semaphore even).
                    let eventCame = timedOut && queue.withLock { q -> Bool in
                        defer { q.writerAsleep = false }
                        return !q.writerAsleep
                    }
                    if eventCame { wake.wait() }
                    wakeUps.add(1, ordering: .relaxed)
                    if queue.withLock({ $0.closed }) { return }
                    if timedOut && !eventCame {
                        // Only the sink's work: no interval to gather events for.
                        flush()
                        continue
                    }
                } else {
                    wake.wait()
                    wakeUps.add(1, ordering: .relaxed)
                    if queue.withLock({ $0.closed }) { return }
                }
            }
            // Events came (or time must pass): gather for one interval, or until the queue is half full;
            // sooner when the detector's next check falls due, or its probe runs (a finding on time).
            if let soon = detector?.nextCall(now: now), soon < intervalNS {
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(max(soon, 1_000_000))))
            } else {
                _ = wake.wait(timeout: .now() + interval)
            }
            wakeUps.add(1, ordering: .relaxed)
            if queue.withLock({ $0.closed }) { return }
            flush()
        }
    }
}
