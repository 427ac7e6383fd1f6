import Foundation
import NapkinTrace

/// `live --web PORT`: the live tree served as a page (``LivePage``, drawn by
/// the HTML report's renderer) instead of drawn on the terminal. The input is
/// whatever `live` reads: a file (followed), standard input, `-- COMMAND`,
/// `--listen`. The page stays up until Ctrl-C or SIGTERM, also after the
/// command or the file ended, so that its verdict can be read; then each
/// session's summary is printed as `live` prints it off a terminal.
///
/// Exit status: the command's, with `-- COMMAND`; otherwise 0 (2 when the
/// only input was not a trace); 1 when the port cannot be served.
struct LiveWebCommand {
    /// The parsed `live` command.
    let live: LiveCommand
    /// The port to serve on.
    let port: UInt16

    /// Serves until interrupted; returns the exit status.
    func run() throws -> Int32 {
        let server = try WebServer(host: live.webHost, port: port)
        let feed: LiveFeed
        if let listen = live.listen {
            if let directory = live.recordDirectory { try LiveCommand.checkDirectory(directory) }
            feed = try LiveFeed.listening(on: listen, record: live.recordDirectory, analysis: live.analysis, keepsPages: true)
            let address = feed.listener!.socket.address
            Output.error("listening on \(address.shortDescription); start the app with NAPKIN_TRACE=\(address)")
        } else if let command = live.command {
            feed = try LiveFeed.running(command, collectOutput: false, analysis: live.analysis, keepsPages: true)
        } else {
            feed = try LiveFeed.reading(live.path, follow: live.path != "-" && !live.noFollow, analysis: live.analysis, keepsPages: true)
        }
        server.setPage(Array(LivePage.html(title: feed.name).utf8))
        server.start()
        Output.error("the page is at \(server.url) (Ctrl-C stops)")
        if !server.isLoopback {
            Output.error("warning: \(live.webHost) is not a loopback address: whoever can reach it sees the page, "
                         + "with its source paths and type names")
        }
        var instance = SystemRandomNumberGenerator()
        let loop = LiveWebLoop(server: server, sources: SourceRoot(directory: live.sourceRoot),
                               instance: String(instance.next() as UInt64, radix: 16))
        let exited = loop.run(feed)
        var status = exited
        if let child = feed.child, status == nil {
            child.stop()
            Output.error("note: stopped '\(feed.name)' because you quit")
            status = ExitStatus.success
        }
        feed.finish(grace: 0)
        server.stop()
        var printer = SummaryPrinter(view: LiveView(style: live.style, sourceName: feed.name))
        for session in feed.sessions.all { printer.report(session, final: true) }
        if let status { return status }
        return printer.unusable && feed.listener == nil ? ExitStatus.unusable : ExitStatus.success
    }
}
