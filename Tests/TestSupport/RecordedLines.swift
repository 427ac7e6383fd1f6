/// A recording's events with their creation lines, and its analysis,
/// worked out on a thread of its own: for a test that reads the lines (or
/// the NDJSON, which carries them, or a finding, which names them) and runs
/// on the main actor.
///
/// `TraceRecorder.events` works out every creation line not known yet
/// before it returns, from the binary's debug information: seconds for the
/// process's first on a busy machine, about a second for each new call
/// stack, one at a time under a process-wide lock. Read on the main actor,
/// that holds every other main-actor test of the process for as long (the
/// cause of the long waits `docs/contributing.md` measures, "A test that a
/// busy machine cannot fail"). A test that reads only kinds, ids and order
/// reads `eventsAsRecorded`, which works nothing out. An analysis works
/// out the lines of its findings: a test that waits for a finding asks
/// ``TraceRecorder/analyzeOnOwnThread(grace:expectTeardown:viewGrace:maxAlive:)``
/// (the answers are shared, so a later `analyze` on the main actor reads
/// them at no cost).
import NapkinTrace

extension TraceRecorder {
    /// ``TraceRecorder/events``, read on a new thread while the caller waits
    /// suspended (its actor free for other work).
    public func eventsWithLines() async -> [TraceEvent] {
        await onOwnThread("creation-lines") { self.events }
    }

    /// ``TraceRecorder/ndjson``, read on a new thread while the caller waits
    /// suspended (its actor free for other work).
    public func ndjsonWithLines() async -> String {
        await onOwnThread("creation-lines") { self.ndjson }
    }

    /// ``TraceRecorder/analyze(grace:expectTeardown:viewGrace:maxAlive:)``,
    /// run on a new thread while the caller waits suspended: the lines its
    /// findings name are worked out there.
    public func analyzeOnOwnThread(grace: Duration = .seconds(1), expectTeardown: Bool = false,
                                   viewGrace: Duration = .seconds(5), maxAlive: [String: Int] = [:]) async -> AnalysisReport {
        await onOwnThread("analysis") {
            self.analyze(grace: grace, expectTeardown: expectTeardown, viewGrace: viewGrace, maxAlive: maxAlive)
        }
    }
}
