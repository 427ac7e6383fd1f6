import Foundation
import NapkinTrace

/// `live --web`'s loop: lets trace time pass with the wall clock, as the
/// terminal view does, and publishes each session's snapshot to the page
/// (``WebServer``) when it changed, until Ctrl-C or SIGTERM.
///
/// Publishing costs the inspector, never the app: a snapshot is whole (the
/// window ``LivePageHistory`` keeps), written at most every
/// ``minInterval``, and less often when writing it takes long (at most a
/// fifth of the time is spent writing), so a huge session is shown less
/// often rather than slowing the reading. The server keeps only the latest
/// snapshot of each session; a slow browser skips to it.
struct LiveWebLoop {
    /// How often the loop looks at the sessions.
    static let tick: UInt64 = 50_000_000
    /// The shortest time between two snapshots of the page: 250 ms.
    static let minInterval: UInt64 = 250_000_000
    /// The longest: 5 s.
    static let maxInterval: UInt64 = 5_000_000_000

    /// Where the page is served.
    let server: WebServer
    /// Where code locations are looked up.
    let sources: SourceRoot
    /// The inspector's instance, told to the page so it knows a restart.
    let instance: String

    /// Publishes until Ctrl-C or SIGTERM (or `until` returns true); returns the command's status if it exited.
    func run(_ feed: LiveFeed, until: () -> Bool = { false }) -> Int32? {
        LiveSignals.install()
        server.publish(key: "hello", line: Self.line(#"{"kind":"hello","instance":"\#(instance)","version":"\#(NapkinInspect.version)"}"#))
        var publisher = Publisher(server: server, sources: sources)
        var childStatus: Int32?
        var next: UInt64 = 0
        while !LiveSignals.quit.load(ordering: .relaxed) && !until() {
            let now = Platform.monotonicNanoseconds()
            let sessions = feed.sessions.all
            for session in sessions { session.passTime(at: now) }
            if let child = feed.child, childStatus == nil, let status = child.poll() {
                childStatus = status
                feed.listener?.acceptQueued()
                Output.error("note: '\(feed.name)' exited with status \(status); the page stays up until Ctrl-C")
            }
            if now >= next {
                let took = publisher.publish(sessions, commandStatus: childStatus)
                next = now &+ min(Self.maxInterval, max(Self.minInterval, took &* 5))
            }
            Platform.sleep(nanoseconds: Self.tick)
        }
        return childStatus
    }

    /// `text` as the bytes of one line.
    static func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// What the page was sent, so that only changes are sent again.
    struct Publisher {
        let server: WebServer
        let sources: SourceRoot
        /// Per index: the session shown there and the version sent.
        private var sent: [(session: ObjectIdentifier, version: Int)] = []
        /// The last meta line sent.
        private var lastMeta: [UInt8] = []

        init(server: WebServer, sources: SourceRoot) {
            self.server = server
            self.sources = sources
        }

        /// Publishes what changed in `sessions`; returns the time it took (ns).
        mutating func publish(_ sessions: [LiveSession], commandStatus: Int32?) -> UInt64 {
            let start = Platform.monotonicNanoseconds()
            var titles: [ReportTrace] = []
            var states: [(running: Bool, note: String)] = []
            for (index, session) in sessions.enumerated() {
                let id = ObjectIdentifier(session)
                let known = index < sent.count && sent[index].session == id ? sent[index].version : nil
                if let snapshot = session.pageSnapshot(unless: known) {
                    var line = Array(#"{"kind":"trace","index":\#(index),"data":"#.utf8)
                    line += ReportData.json(snapshot.trace, sources: sources).utf8
                    line += Array("}".utf8)
                    server.publish(key: "trace-\(index)", line: line)
                    if index < sent.count { sent[index] = (id, snapshot.version) } else { sent.append((id, snapshot.version)) }
                }
                let (title, findings, running, note) = session.pageHeading()
                titles.append(ReportTrace(title: title, history: nil, findings: findings, problems: []))
                states.append((running, note))
            }
            // Sessions forgotten by the list (beyond its bound of finished ones): their keys go.
            if sent.count > sessions.count {
                for index in sessions.count..<sent.count { server.remove(key: "trace-\(index)") }
                sent.removeLast(sent.count - sessions.count)
            }
            var meta = ReportJSON()
            meta.openObject()
            meta.member("kind", "meta")
            meta.key("sessions")
            meta.openArray()
            for state in states {
                meta.openObject()
                meta.key("running")
                meta.bool(state.running)
                meta.member("note", state.note)
                meta.closeObject()
            }
            meta.closeArray()
            if let commandStatus { meta.member("commandStatus", Int(commandStatus)) }
            meta.closeObject()
            // The report's own meta object goes in whole, as the page's renderer reads it.
            var line = Array(meta.text.utf8.dropLast())
            line += Array(#","meta":"#.utf8) + Array(ReportPage.meta(titles).utf8) + Array("}".utf8)
            if line != lastMeta {
                server.publish(key: "meta", line: line)
                lastMeta = line
            }
            return Platform.monotonicNanoseconds() &- start
        }
    }
}
