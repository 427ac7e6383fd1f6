import NapkinTrace

/// One traced app, as `export` writes it: a trace file's history and
/// findings, and the process it becomes in the viewer (its pid and name).
struct ChromeProcess {
    /// The trace file it was read from.
    var file: String
    /// Which session of the file it is: 1, or 2 and up for the next ones
    /// (a file can hold several, e.g. standard input saved from several runs).
    var session: Int
    /// Every lifecycle of the trace.
    var history: TraceHistory
    /// What the analysis found, in the order it found it.
    var findings: [Finding]
    /// The pid in the export: the session's, unless another trace has it (see ``assigningPIDs(_:)``).
    var pid: Int = 0
    /// The process name in the export: the app's, with the file when there are
    /// several processes (and the session, for the second one of a file and up).
    var name: String = ""

    /// The first pid given to a trace whose own pid is taken or unusable:
    /// above any real one (Linux allows up to 4,194,304, macOS 99,998), so it
    /// reads as made up.
    static let firstMadeUpPID = 10_000_001

    /// Session `session` of the trace read from `file`.
    init(file: String, session: Int = 1, history: TraceHistory, findings: [Finding]) {
        self.file = file
        self.session = session
        self.history = history
        self.findings = findings
    }

    /// The app's name (the file's, when the trace has no session record).
    var app: String {
        guard let app = history.session?.app, !app.isEmpty else { return Self.fileName(file) }
        return app
    }

    /// The last component of `path`.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `processes` with their pids and names set, and a note for each one
    /// whose pid changed. In order, each keeps its session's pid unless an
    /// earlier one has it (two runs of the app that got the same pid, or the
    /// same trace given twice) or it is not a usable pid (1 to 2^31 - 1):
    /// then it gets the next made-up pid (from ``firstMadeUpPID``) that no
    /// trace uses, and its name says which pid it had. With several traces,
    /// each name also gives its file.
    static func assigningPIDs(_ processes: [ChromeProcess]) -> (processes: [ChromeProcess], notes: [String]) {
        let usable = 1...Int(Int32.max)
        /// For each pid given so far, the process that has it.
        var taken: [Int: ChromeProcess] = [:]
        let every = Set(processes.compactMap { $0.history.session?.pid }.filter { usable.contains($0) })
        var madeUp = firstMadeUpPID
        var notes: [String] = []
        var result = processes
        for index in result.indices {
            var process = result[index]
            let own = process.history.session?.pid
            var details = processes.count > 1 ? [fileName(process.file)] : []
            if process.session > 1 { details.append("session \(process.session)") }
            if let own, usable.contains(own), taken[own] == nil {
                process.pid = own
            } else {
                while every.contains(madeUp) || taken[madeUp] != nil { madeUp += 1 }
                process.pid = madeUp
                let why: String
                if let own, let holder = taken[own] {
                    let whose = holder.file == process.file && holder.session != process.session ? "session \(holder.session) of the same file" : fileName(holder.file)
                    why = "pid \(own) is also the pid of \(whose)"
                } else {
                    why = own.map { "pid \($0) is not a usable pid" } ?? "it has no session record"
                }
                let which = process.session > 1 ? " (session \(process.session))" : ""
                notes.append("note: \(process.file)\(which): \(why); exported as pid \(madeUp)")
                if let own { details.append("pid \(own)") }
            }
            process.name = process.app + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
            taken[process.pid] = process
            result[index] = process
        }
        return (result, notes)
    }
}
