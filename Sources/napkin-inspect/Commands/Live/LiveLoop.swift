import NapkinTrace

/// The live view's event loop: folds the events the reader thread queues into
/// the analysis, and (on a terminal) redraws, reads keys and watches the command.
struct LiveLoop {
    /// The shortest time between two turns of the terminal loop: at most 20 redraws a second.
    static let frameInterval: UInt64 = 50_000_000

    /// The analysis settings (the grace periods).
    let analysis: TraceAnalyzer.Options
    /// Draws the frames.
    let view: LiveView
    /// Whether more events may come while the input is quiet (a followed file or a command),
    /// so that trace time passes with the wall clock.
    let isLive: Bool

    /// What the loop ends with.
    struct Outcome {
        var analyzer: TraceAnalyzer
        var events: Int
        /// Why the input is not a trace, if it is not.
        var rejection: TraceReadError?
    }

    /// Off a terminal: folds everything until the input ends (diagnostics go to standard error).
    func runToEnd(queue: LiveEventQueue) -> Outcome {
        var analyzer = TraceAnalyzer(options: analysis)
        var batch: [TraceEvent] = []
        var count = 0
        var shownDiagnostics = 0
        while true {
            let (diagnostics, finished, rejection) = queue.drain(into: &batch)
            for event in batch { analyzer.consume(event) }
            count += batch.count
            let idle = batch.isEmpty
            batch.removeAll(keepingCapacity: true)
            for diagnostic in diagnostics where shownDiagnostics < 10 {
                shownDiagnostics += 1
                Output.error("\(view.sourceName): \(diagnostic.severity.rawValue): \(diagnostic)")
            }
            if finished {
                if rejection == nil, count == 0 {
                    return Outcome(analyzer: analyzer, events: 0, rejection: TraceReadError(source: view.sourceName, message: "no trace records (was NAPKIN_TRACE set?)"))
                }
                return Outcome(analyzer: analyzer, events: count, rejection: rejection)
            }
            if idle { Platform.sleep(nanoseconds: 5_000_000) }
        }
    }

    /// On a terminal: redraws in place until the user quits (or the input is not a trace).
    func runOnTerminal(queue: LiveEventQueue, child: ChildProcess?, pane: OutputPane?) -> Outcome {
        LiveSignals.install()
        let terminal = TerminalSession()
        defer { terminal.restore() }
        var analyzer = TraceAnalyzer(options: analysis)
        var batch: [TraceEvent] = []
        var count = 0
        var finished = false
        var rejection: TraceReadError?
        var lastDiagnostic: TraceDiagnostic?
        var lastEventWall: UInt64 = 0
        var lastEventTrace: UInt64 = 0
        var rate = RateMeter()
        var childStatus: Int32?
        var lastFrame: UInt64 = 0
        var dirty = true

        while !LiveSignals.quit.load(ordering: .relaxed) {
            let now = Platform.monotonicNanoseconds()
            let drained = queue.drain(into: &batch)
            if !batch.isEmpty {
                for event in batch { analyzer.consume(event) }
                count += batch.count
                rate.add(batch.count, at: now)
                lastEventWall = now
                lastEventTrace = analyzer.state.time
                batch.removeAll(keepingCapacity: true)
                dirty = true
            } else if isLive && !finished && !analyzer.state.ended && lastEventWall > 0 && analyzer.state.session != nil {
                // Trace time passes while the app is quiet: let due checks run. (From the
                // last event's time: adding the quiet time to the already advanced clock
                // on every frame made it run away, about 25× too fast after a second.)
                // Not after the session's end record: nothing happens after it, and
                // `check` would not let time pass either.
                // Saturating: a trace's times may be close to 2^64.
                let (later, overflow) = lastEventTrace.addingReportingOverflow(now &- lastEventWall)
                analyzer.advance(to: overflow ? .max : later)
            }
            if let diagnostic = drained.diagnostics.last { lastDiagnostic = diagnostic }
            if drained.finished && !finished {
                finished = true
                rejection = drained.rejection
                dirty = true
                if rejection != nil { break }
                // The whole trace is in: the same verdict as `check` gives it.
                analyzer.finish()
            }
            if let child, childStatus == nil, let status = child.poll() {
                childStatus = status
                dirty = true
            }
            if LiveSignals.resized.exchange(false, ordering: .relaxed) { dirty = true }
            while let key = terminal.readKey() {
                if key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") || key == 3 { LiveSignals.quit.store(true, ordering: .relaxed) }
            }
            if dirty || now &- lastFrame >= 1_000_000_000 {
                terminal.draw(view.frame(analyzer, events: count, rate: rate.perSecond(at: now), finished: finished,
                                         childStatus: childStatus, pane: pane, diagnostic: lastDiagnostic, size: TerminalInfo.size(1)))
                lastFrame = now
                dirty = false
            }
            let elapsed = Platform.monotonicNanoseconds() &- now
            if elapsed < Self.frameInterval { Platform.sleep(nanoseconds: Self.frameInterval - elapsed) }
        }
        return Outcome(analyzer: analyzer, events: count, rejection: rejection)
    }

    /// Folds what is still queued or in flight, until the input ends (at most ~2 s);
    /// then stops the reader if it has not ended.
    func drainRest(queue: LiveEventQueue, into outcome: inout Outcome, reader: TraceReader) {
        var batch: [TraceEvent] = []
        for _ in 0..<100 {
            let (_, finished, rejection) = queue.drain(into: &batch)
            for event in batch { outcome.analyzer.consume(event) }
            outcome.events += batch.count
            batch.removeAll(keepingCapacity: true)
            if finished {
                if outcome.rejection == nil { outcome.rejection = rejection }
                return
            }
            Platform.sleep(nanoseconds: 20_000_000)
        }
        reader.stop()
        queue.cancel()
    }
}
