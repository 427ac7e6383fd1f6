import Foundation
import NapkinTrace

/// Where `live` gets its sessions: a trace file or standard input (one
/// session), a command it runs (a session for every traced process the
/// command starts), or a socket traced apps connect to (a session for every
/// connection).
struct LiveFeed {
    /// The sessions, as they arrive.
    let sessions: LiveSessionList
    /// How the header names the source before a session says which process
    /// it is: the file, `standard input`, the command line, or the address.
    let name: String
    /// The program, with `-- COMMAND`.
    let child: ChildProcess?
    /// The program's output, when the live view shows it (on a terminal).
    let pane: OutputPane?
    /// The listener, with a command or `--listen`.
    let listener: LiveSocketListener?
    /// The reader of a file or standard input.
    private let reader: ReaderBox?
    /// The private directory of a command's socket, removed by ``stop()``.
    private let socketDirectory: String?

    /// Reads the trace at `path` (`-`: standard input), following it as it grows when `follow` is set.
    /// With `keepsPages` (here and below), every session keeps what the page of `live --web` draws.
    static func reading(_ path: String, follow: Bool, analysis: TraceAnalyzer.Options, keepsPages: Bool = false) throws(CommandFailure) -> LiveFeed {
        let sessions = LiveSessionList(analysis: analysis, keepsPages: keepsPages)
        let name = path == "-" ? "standard input" : path
        let box = ReaderBox(try TraceInput.openReader(path, follow: follow))
        let session = sessions.open(sourceName: name, isLive: follow || path == "-")
        session.startReading(box)
        return LiveFeed(sessions: sessions, name: name, child: nil, pane: nil, listener: nil, reader: box, socketDirectory: nil)
    }

    /// Runs `command` with `NAPKIN_TRACE=unix:SOCKET`, a socket in a private
    /// directory that only this inspector listens on: every process the
    /// command starts (and that inherits the variable) connects on its own,
    /// so their traces never mix. With `collectOutput`, the command's
    /// standard output and error go to a pane instead of ours.
    static func running(_ command: [String], collectOutput: Bool, analysis: TraceAnalyzer.Options, keepsPages: Bool = false) throws(CommandFailure) -> LiveFeed {
        let sessions = LiveSessionList(analysis: analysis, keepsPages: keepsPages)
        let directory = try privateDirectory()
        let socketPath = directory + "/trace.sock"
        let listener: LiveSocketListener
        do {
            listener = try LiveSocketListener(address: .unix(path: socketPath), sessions: sessions, recordDirectory: nil)
        } catch {
            rmdir(directory)
            throw error
        }
        listener.start()
        let output = collectOutput ? PipeEnds() : nil
        let child: ChildProcess
        do {
            child = try ChildProcess(command: command, environment: TraceEnvironment.variables(tracingTo: listener.socket.address.description),
                                     outputFD: output?.writeEnd)
        } catch {
            listener.stop()
            rmdir(directory)
            output?.closeBoth()
            throw error
        }
        var pane: OutputPane?
        if let output {
            close(output.writeEnd)
            let collector = OutputPane()
            collector.startReading(output.readEnd)
            pane = collector
        }
        return LiveFeed(sessions: sessions, name: command.joined(separator: " "), child: child, pane: pane,
                        listener: listener, reader: nil, socketDirectory: directory)
    }

    /// Listens on `address` for any number of traced apps; with `record`,
    /// each session is also written to a file of its own in that directory.
    static func listening(on address: TraceSocketAddress, record: String?, analysis: TraceAnalyzer.Options, keepsPages: Bool = false) throws(CommandFailure) -> LiveFeed {
        let sessions = LiveSessionList(analysis: analysis, keepsPages: keepsPages)
        let listener = try LiveSocketListener(address: address, sessions: sessions, recordDirectory: record)
        listener.start()
        return LiveFeed(sessions: sessions, name: "listening on " + listener.socket.address.shortDescription, child: nil,
                        pane: nil, listener: listener, reader: nil, socketDirectory: nil)
    }

    /// Stops taking input and lets what already reached us be read. The
    /// listener accepts every connection still queued and stops listening;
    /// its connections go on being read until they end or `grace` nanoseconds
    /// pass, and are then cut (their sessions say they were still connected).
    /// A file's reader stops at once. Returns once every session finished,
    /// or about two seconds after the cut for a reader that does not notice.
    func finish(grace: UInt64) {
        listener?.stopAccepting()
        reader?.reader.stop()
        waitUntilFinished(nanoseconds: grace)
        listener?.cutOpenConnections()
        // Cut readers finish their sessions with what they read.
        waitUntilFinished(nanoseconds: 2_000_000_000)
        if let socketDirectory { rmdir(socketDirectory) }
    }

    private func waitUntilFinished(nanoseconds: UInt64) {
        let deadline = Platform.monotonicNanoseconds() &+ nanoseconds
        while !sessions.all.allSatisfy({ $0.isFinished }) && Platform.monotonicNanoseconds() < deadline {
            Platform.sleep(nanoseconds: LiveSummaryLoop.tick)
        }
    }

    /// A new directory only we can enter, for a command's socket: in `TMPDIR`
    /// when its path is short enough for a socket address, else in `/tmp`.
    private static func privateDirectory() throws(CommandFailure) -> String {
        var bases = ["/tmp"]
        if let temporary = ProcessInfo.processInfo.environment["TMPDIR"], !temporary.isEmpty, temporary.utf8.count < 60 {
            bases.insert(temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary, at: 0)
        }
        for base in bases {
            var template = Array((base + "/napkin-live-XXXXXX").utf8CString)
            if let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) {
                return String(cString: made)
            }
        }
        throw CommandFailure("cannot create a private directory for the trace socket in /tmp: \(String(cString: strerror(errno)))")
    }
}
