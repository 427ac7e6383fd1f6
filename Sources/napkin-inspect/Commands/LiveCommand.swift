#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NapkinTrace

/// `napkin-inspect live [FILE|-]` and `live -- COMMAND`: the live tree.
enum LiveCommand {
    /// The longest a frame waits for the next one: 20 redraws a second at most.
    static let frameInterval: UInt64 = 50_000_000

    static func run(_ context: CommandContext) throws -> Int32 {
        let grace = try context.grace()
        let onTerminal = TerminalInfo.isTerminal(1)
        var child: ChildProcess?
        var pane: OutputPane?
        let reader: TraceReader
        let sourceName: String

        if let command = context.arguments.command {
            guard context.arguments.positionals.isEmpty else {
                throw UsageError("give either a trace FILE or '-- COMMAND', not both", command: "live")
            }
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw CommandFailure("cannot create a pipe for the trace") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            var outputFD: Int32?
            var outFDs: [Int32] = [0, 0]
            if onTerminal, pipe(&outFDs) == 0 {
                _ = fcntl(outFDs[0], F_SETFD, FD_CLOEXEC)
                outputFD = outFDs[1]
            }
            do {
                child = try ChildProcess(command: command, environment: ["NAPKIN_TRACE": "fd:3"], traceFD: fds[1], outputFD: outputFD)
            } catch {
                close(fds[0]); close(fds[1])
                if let outputFD { close(outputFD); close(outFDs[0]) }
                throw error
            }
            close(fds[1])
            if let outputFD {
                close(outputFD)
                let collector = OutputPane()
                collector.startReading(outFDs[0])
                pane = collector
            }
            reader = TraceReader(fileDescriptor: fds[0], source: command[0])
            sourceName = command.joined(separator: " ")
        } else {
            let path = context.tracePath
            // On a terminal a file is followed as it grows; elsewhere it is read to its end.
            let follow = onTerminal && path != "-" && !context.arguments.has("no-follow")
            do {
                reader = try TraceReader(path: path, options: .init(follow: follow))
            } catch let error as TraceReadError {
                throw CommandFailure(error.description)
            }
            sourceName = path == "-" ? "standard input" : path
        }

        let queue = LiveEventQueue()
        queue.startReading(reader)
        let view = LiveView(grace: grace, style: context.style, sourceName: sourceName, isLive: child != nil || !context.arguments.has("no-follow"))
        var outcome: LiveView.Outcome
        if onTerminal {
            outcome = view.runOnTerminal(queue: queue, reader: reader, child: child, pane: pane)
        } else {
            outcome = view.runToEnd(queue: queue)
        }
        var status: Int32?
        if let child {
            // Off a terminal the input ends when the command closes its trace, as it exits:
            // wait for it (it may not be reapable yet), so that its own status is passed on.
            // On a terminal the user quit; an unusable trace stops a command that still runs.
            if onTerminal || outcome.rejection != nil, child.poll() == nil {
                // The user quit while the command runs: stop it, politely first.
                child.signal(SIGTERM)
                var waited = 0
                while child.poll() == nil && waited < 40 {
                    usleep(50_000)
                    waited += 1
                }
                if child.poll() == nil { child.signal(SIGKILL) }
                child.wait()
                Output.error(outcome.rejection == nil ? "note: stopped '\(sourceName)' because you quit" : "note: stopped '\(sourceName)': its trace is unusable")
                status = outcome.rejection == nil ? ExitStatus.success : ExitStatus.unusable
            } else {
                status = child.wait()
            }
            // Its last events (the teardown) are still in the pipe.
            view.drainRest(queue: queue, into: &outcome, reader: reader)
        }
        reader.stop()
        queue.cancel()
        if outcome.rejection == nil { outcome.analyzer.finish() }
        if let pane {
            // The command's output was shown in the live view; show it again now that the screen is back.
            for line in pane.all.suffix(200) { Output.line(line) }
        }
        if let rejection = outcome.rejection {
            Output.error(rejection.description)
            return status ?? ExitStatus.unusable
        }
        view.printSummary(outcome.analyzer, eventCount: outcome.events)
        if let status, status != 0 { Output.error("note: '\(sourceName)' exited with status \(status)") }
        return status ?? ExitStatus.success
    }
}

/// The live view's state and drawing.
struct LiveView {
    let grace: UInt64
    let style: Style
    let sourceName: String
    let isLive: Bool

    struct Outcome {
        var analyzer: TraceAnalyzer
        var events: Int
        var rejection: TraceReadError?
    }

    /// Non-terminal: fold everything, then report.
    func runToEnd(queue: LiveEventQueue) -> Outcome {
        var analyzer = TraceAnalyzer(options: .init(grace: grace))
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
                Output.error("\(sourceName): \(diagnostic.severity.rawValue): \(diagnostic)")
            }
            if finished {
                if rejection == nil, count == 0 {
                    return Outcome(analyzer: analyzer, events: 0, rejection: TraceReadError(source: sourceName, message: "no trace records (was NAPKIN_TRACE set?)"))
                }
                return Outcome(analyzer: analyzer, events: count, rejection: rejection)
            }
            if idle { usleep(5_000) }
        }
    }

    /// Terminal: redraw in place until the user quits.
    func runOnTerminal(queue: LiveEventQueue, reader: TraceReader, child: ChildProcess?, pane: OutputPane?) -> Outcome {
        LiveSignals.install()
        let terminal = TerminalSession()
        defer { terminal.restore() }
        var analyzer = TraceAnalyzer(options: .init(grace: grace))
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
            let now = Self.now()
            let drained = queue.drain(into: &batch)
            if !batch.isEmpty {
                for event in batch { analyzer.consume(event) }
                count += batch.count
                rate.add(batch.count, at: now)
                lastEventWall = now
                lastEventTrace = analyzer.state.time
                batch.removeAll(keepingCapacity: true)
                dirty = true
            } else if isLive && !finished && lastEventWall > 0 && analyzer.state.session != nil {
                // Trace time passes while the app is quiet: let due checks run. (From the
                // last event's time: adding the quiet time to the already advanced clock
                // on every frame made it run away, about 25× too fast after a second.)
                analyzer.advance(to: lastEventTrace &+ (now &- lastEventWall))
            }
            if let diagnostic = drained.diagnostics.last { lastDiagnostic = diagnostic }
            if drained.finished && !finished {
                finished = true
                rejection = drained.rejection
                dirty = true
                if rejection != nil { break }
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
                terminal.draw(frame(analyzer, events: count, rate: rate.perSecond(at: now), finished: finished,
                                    childStatus: childStatus, pane: pane, diagnostic: lastDiagnostic))
                lastFrame = now
                dirty = false
            }
            let elapsed = Self.now() &- now
            if elapsed < LiveCommand.frameInterval { usleep(useconds_t((LiveCommand.frameInterval - elapsed) / 1000)) }
        }
        return Outcome(analyzer: analyzer, events: count, rejection: rejection)
    }

    /// Folds what is still queued or in flight, until the input ends (at most ~2 s).
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
            usleep(20_000)
        }
        reader.stop()
        queue.cancel()
    }

    /// One screen: header, tree (cut to fit), findings, the command's output, help line.
    func frame(_ analyzer: TraceAnalyzer, events: Int, rate: Int, finished: Bool, childStatus: Int32?,
               pane: OutputPane?, diagnostic: TraceDiagnostic?) -> [String] {
        let (rows, columns) = TerminalInfo.size(1)
        let state = analyzer.state
        let routers = state.routerCount
        let app = state.session.map { "\($0.app) (pid \($0.pid))" } ?? sourceName
        var header = style.bold("napkin-inspect live") + "  " + app + "  t=" + TimeFormat.duration(state.time)
        header += "  \(StatsCommand.grouped(events)) events (\(StatsCommand.grouped(rate))/s)"
        header += "  routers \(routers)  tasks \(state.taskCount)"
        let findings = analyzer.findings
        header += "  " + (findings.isEmpty ? style.green("no findings") : style.red("\(findings.count) finding\(findings.count == 1 ? "" : "s")"))
        var status: String
        if let childStatus {
            status = "command exited with status \(childStatus); press q to quit"
        } else if finished {
            status = "end of trace; press q to quit"
        } else {
            status = "q quit"
        }
        if let diagnostic { status += "  " + style.yellow("(\(diagnostic))") }

        let findingLines = findings.suffix(5).map { "  " + FindingFormats.styled($0, style: style) }
        let outputLines = pane.map { Array($0.all.suffix(5)).map { "  " + style.dim($0) } } ?? []
        var fixed = 2 + 1 // header, rule, footer
        if !findingLines.isEmpty { fixed += findingLines.count + 1 }
        if !outputLines.isEmpty { fixed += outputLines.count + 1 }
        let room = max(3, rows - fixed)
        var tree = TreeRenderer(style: style, findings: findings).rows(state).map(\.text)
        if tree.count > room {
            let hidden = tree.count - (room - 1)
            tree = Array(tree.prefix(room - 1)) + [style.dim("… \(hidden) more lines (enlarge the terminal to see them)")]
        }
        var lines = [header, style.dim(String(repeating: "─", count: max(0, columns)))]
        lines += tree
        if !findingLines.isEmpty {
            lines.append(style.bold("Findings") + (findings.count > 5 ? style.dim(" (last 5 of \(findings.count))") : ""))
            lines += findingLines
        }
        if !outputLines.isEmpty {
            lines.append(style.bold("Output"))
            lines += outputLines
        }
        while lines.count < rows - 1 { lines.append("") }
        lines = Array(lines.prefix(rows - 1))
        lines.append(style.dim(status))
        return lines.map { truncateVisible($0, to: columns) }
    }

    /// After the view closes (or without a terminal): the final tree and findings.
    func printSummary(_ analyzer: TraceAnalyzer, eventCount: Int) {
        Output.line(TreeRenderer.title(analyzer.state, style: style) + style.dim(" (\(eventCount) events)"))
        for row in TreeRenderer(style: style, findings: analyzer.findings).rows(analyzer.state) { Output.line(row.text) }
        Output.line()
        if analyzer.findings.isEmpty {
            Output.line(style.green("No findings."))
        } else {
            Output.line(style.bold("Findings:"))
            for finding in analyzer.findings { Output.line("  " + FindingFormats.styled(finding, style: style)) }
        }
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// Events per second over the last couple of seconds.
struct RateMeter {
    private var buckets: [(time: UInt64, count: Int)] = []

    mutating func add(_ count: Int, at time: UInt64) {
        buckets.append((time, count))
        buckets.removeAll { time &- $0.time > 2_000_000_000 }
    }

    func perSecond(at time: UInt64) -> Int {
        let recent = buckets.filter { time &- $0.time <= 2_000_000_000 }
        guard let first = recent.first else { return 0 }
        let span = max(1_000_000_000, time &- first.time)
        return Int(Double(recent.reduce(0) { $0 + $1.count }) / (Double(span) / 1e9))
    }
}
