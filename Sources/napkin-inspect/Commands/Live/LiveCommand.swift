import Foundation
import NapkinTrace

/// `napkin-inspect live [FILE|-]`, `live -- COMMAND` and `live --listen ADDRESS`: the live tree.
struct LiveCommand: Command {
    /// The options only `live` has.
    enum Options {
        /// `--no-follow`.
        static let noFollow = Flag("no-follow", help: "Read FILE to its end and stop, instead of waiting for more.")
        /// `--listen [HOST:]PORT|unix:PATH`.
        static let listen = ValueOption.text(
            "listen", valueName: "[HOST:]PORT|unix:PATH",
            help: "Wait for traced apps to connect (NAPKIN_TRACE=tcp:HOST:PORT or unix:PATH in the app), any number at once; "
                + "HOST is 127.0.0.1 unless given (another address prints a warning); port 0 picks a free port.")
        /// `--record DIR`.
        static let record = ValueOption.text(
            "record", valueName: "DIR",
            help: "With --listen: also write each session to a file of its own in DIR (app-pid.ndjson), for check afterwards.")
        /// `--web PORT`.
        static let web = ValueOption.port(
            "web",
            help: "Serve the live tree as a page at http://127.0.0.1:PORT/ instead of drawing it here (port 0 picks a free one); "
                + "Ctrl-C stops it. See docs/live.md, \"In a browser\".")
        /// `--host HOST`.
        static let host = ValueOption.text(
            "host", valueName: "HOST",
            help: "With --web: the address to serve on (default 127.0.0.1; another shows source paths and type names to whoever can reach it).")
        /// `--sessions N`.
        static let sessions = ValueOption.count(
            "sessions", range: 1...1_000_000, noun: "sessions",
            help: "With --listen off a terminal: stop once N sessions have ended (otherwise Ctrl-C or SIGTERM stops it).")
    }

    static let configuration = CommandConfiguration(
        options: [Options.noFollow, Options.listen, Options.record, Options.sessions, Options.web, Options.host, CommonOptions.sourceRoot]
            + CommonOptions.analysisOptions + CommonOptions.colorOptions, help: """
        live [FILE|-] [options]
        live [options] -- COMMAND [ARGS...]
        live --listen [HOST:]PORT|unix:PATH [--record DIR] [options]
        live --web PORT [--host HOST] [FILE|-|-- COMMAND|--listen ADDRESS] [options]
        Show the live tree of a running app, redrawn in place like top.
        Reads a trace from FILE (following it as it grows, like tail -F), from standard input (- or no FILE),
        runs COMMAND with tracing switched on (NAPKIN_TRACE=unix:SOCKET, a private socket: every process the
        command starts is shown on its own), or listens for apps that connect (an iOS app in the simulator or on
        a device, a server): each connection is a session with its own tree and findings.
        On a terminal the tree is redrawn at most 20 times a second. Keys: q or Ctrl-C quit, ? help, space pause,
        left/right and [/] step back and forth in time, up/down select, Enter details, / filter, Tab or 1-9 switch process.
        Elsewhere (a pipe, a file, CI) it prints each session's final tree and findings when its input ends.
        With --web PORT it serves the same, live, as a page in a browser (tree, findings with their paths,
        time travel, node details, the population chart) until Ctrl-C, then prints the summaries.
        With COMMAND, the exit status is the command's; otherwise 0 (2 for unusable input).
        $ napkin-inspect live -- .build/debug/rib-house --loop 3
        $ napkin-inspect live --listen 7700
        $ NAPKIN_TRACE=stdout ./MyServer | napkin-inspect live
        $ napkin-inspect live /tmp/app.ndjson
        $ napkin-inspect live --web 8080 -- .build/debug/rib-house --loop 0
        """)

    /// The trace file, or `-` (standard input).
    var path: String
    /// `-- COMMAND`: the program to run and watch.
    var command: [String]?
    /// `--listen`: where apps connect.
    var listen: TraceSocketAddress?
    /// `--record DIR`.
    var recordDirectory: String?
    /// `--sessions N`.
    var sessionLimit: Int?
    /// `--no-follow`: read FILE to its end, do not wait for more.
    var noFollow: Bool
    /// `--web PORT`: serve a page instead of drawing on the terminal.
    var webPort: UInt16?
    /// `--host HOST`, with `--web`.
    var webHost: String
    /// `--source-root DIR`, for the page's code locations.
    var sourceRoot: String
    /// `--grace` and `--view-grace`, as the analysis takes them.
    var analysis: TraceAnalyzer.Options
    /// `--color`, `--no-color`.
    var style: Style

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        command = arguments.command
        noFollow = arguments.isSet(Options.noFollow)
        analysis = try arguments.analysisOptions()
        style = try arguments.style()
        if command != nil && !arguments.positionals.isEmpty {
            throw UsageError("give either a trace FILE or '-- COMMAND', not both")
        }
        if let text = try arguments.value(Options.listen) {
            guard let address = TraceSocketAddress.listenAddress(text) else {
                throw UsageError("--listen takes PORT, HOST:PORT or unix:PATH (e.g. --listen 7700), not '\(text)'")
            }
            guard command == nil, arguments.positionals.isEmpty else {
                throw UsageError("--listen waits for apps to connect; give no FILE and no '-- COMMAND' with it")
            }
            listen = address
        }
        recordDirectory = try arguments.value(Options.record)
        sessionLimit = try arguments.value(Options.sessions)
        if listen == nil && (recordDirectory != nil || sessionLimit != nil) {
            throw UsageError("--record and --sessions go with --listen")
        }
        webPort = try arguments.value(Options.web)
        let host: String? = try arguments.value(Options.host)
        if webPort == nil && host != nil { throw UsageError("--host goes with --web PORT (e.g. --web 8080 --host 0.0.0.0)") }
        if let host, host.isEmpty { throw UsageError("--host needs an address, e.g. --host 127.0.0.1") }
        webHost = host ?? "127.0.0.1"
        sourceRoot = try arguments.value(CommonOptions.sourceRoot) ?? "."
        if webPort != nil && sessionLimit != nil { throw UsageError("--sessions does not go with --web: the page stays up until Ctrl-C") }
    }

    func run() throws -> Int32 {
        if let webPort { return try LiveWebCommand(live: self, port: webPort).run() }
        let onTerminal = TerminalInfo.isTerminal(1)
        let feed: LiveFeed
        if let listen {
            if let recordDirectory { try Self.checkDirectory(recordDirectory) }
            feed = try LiveFeed.listening(on: listen, record: recordDirectory, analysis: analysis)
            let address = feed.listener!.socket.address
            Output.error("listening on \(address.shortDescription); start the app with NAPKIN_TRACE=\(address)")
            if !feed.listener!.socket.isLocal {
                Output.error("warning: \(address.shortDescription) is not a loopback address: any machine that can reach it can send traces here "
                             + "(they are only read, never answered)")
            }
        } else if let command {
            feed = try LiveFeed.running(command, collectOutput: onTerminal, analysis: analysis)
        } else {
            // On a terminal a file is followed as it grows; elsewhere it is read to its end.
            feed = try LiveFeed.reading(path, follow: onTerminal && path != "-" && !noFollow, analysis: analysis)
        }
        let view = LiveView(style: style, sourceName: feed.name)
        guard onTerminal else {
            return LiveSummaryLoop(view: view, sessionLimit: sessionLimit).run(feed)
        }
        _ = LiveScreenLoop(view: view).run(feed)
        var status: Int32?
        if let child = feed.child {
            if child.poll() == nil {
                child.stop()
                Output.error("note: stopped '\(feed.name)' because you quit")
                status = ExitStatus.success
            } else {
                status = child.wait()
            }
        }
        // You quit: what is queued is accepted and what is open is cut, with no wait.
        feed.finish(grace: 0)
        if let pane = feed.pane {
            // The command's output was shown in the live view; show it again now that the screen is back.
            for line in pane.last(200) { Output.line(PrintableText.printable(line)) }
        }
        var printer = SummaryPrinter(view: view)
        for session in feed.sessions.all { printer.report(session, final: true) }
        if let status, status != 0 { Output.error("note: '\(feed.name)' exited with status \(status)") }
        return status ?? (printer.unusable && feed.listener == nil ? ExitStatus.unusable : ExitStatus.success)
    }

    /// Throws unless `path` is a directory we can write into.
    static func checkDirectory(_ path: String) throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("--record \(path): no such directory; create it first (mkdir -p \(path))")
        }
        guard access(path, W_OK) == 0 else { throw CommandFailure("--record \(path): the directory is not writable") }
    }
}
