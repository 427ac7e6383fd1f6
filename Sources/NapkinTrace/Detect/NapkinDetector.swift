import Foundation

/// Runs the finding rules inside the app, on its own lifecycle events, while
/// it runs: RIBs' `LeakDetector`, with every rule of `napkin-inspect check`.
///
/// Switch it on with no code, `NAPKIN_DETECT=log` (or `assert`; `off`) in the
/// scheme or the environment, or in code, once, before the tree is built:
///
/// ```swift
/// NapkinDetector.bootstrap(.assert)
/// NapkinDetector.bootstrap(.quiet) { finding in
///     CrashReporter.recordNonFatal(finding.message, groupingKey: finding.fingerprint)
/// }
/// ```
///
/// A finding is decided about one grace period after it happens (1 s; 5 s
/// for views), also while the app is idle, and reported once per
/// ``Finding/fingerprint`` per process. The analysis runs on the trace's
/// background writer thread; findings are reported on a thread of their own;
/// the app's threads only emit events, as with tracing on. See
/// `docs/detect.md`.
public enum NapkinDetector {
    /// What a finding does, besides calling the handler, if there is one.
    public enum Mode: String, Sendable, CaseIterable {
        /// One line on standard error per finding.
        case log
        /// The line, then `assertionFailure` (in a debug build: the app
        /// stops; in a release build: only the line).
        case assert
        /// Nothing but the handler.
        case quiet
    }

    /// What the detector did so far in this process.
    public struct Statistics: Sendable, Hashable {
        /// Findings the rules established.
        public var findings = 0
        /// Findings reported: a line written, the handler called.
        public var reported = 0
        /// Findings not reported because one with the same fingerprint was.
        public var repeats = 0
        /// Findings not reported because reporting fell behind: the handler
        /// was slow or blocked (a bounded queue), or more arrived at once
        /// than the rate limit lets through.
        public var dropped = 0
        /// Calls of the handler that threw.
        public var handlerErrors = 0

        /// Creates statistics (all zero by default).
        public init(findings: Int = 0, reported: Int = 0, repeats: Int = 0, dropped: Int = 0, handlerErrors: Int = 0) {
            self.findings = findings
            self.reported = reported
            self.repeats = repeats
            self.dropped = dropped
            self.handlerErrors = handlerErrors
        }
    }

    /// Switches detection on for the whole process, like
    /// ``NapkinTrace/bootstrap(_:bufferCapacity:)`` switches tracing on.
    /// Call it once, before building the napkin tree; it takes precedence
    /// over `NAPKIN_DETECT`, and works with or without a trace destination.
    /// A second call is a programming error and stops the process; a call
    /// after the traced tree started is ignored, with a line on standard error.
    ///
    /// - Parameters:
    ///   - mode: what a finding does (``Mode/log`` by default).
    ///   - grace: how long something may take to go after it should (1 s).
    ///   - viewGrace: how long a view may stay after its router left (5 s).
    ///   - maxAlive: the most instances of a type alive at once, by type
    ///     name (`["LoggedInRouter": 1]`): more is an `over-budget` finding.
    ///   - retainers: whether a finding about a router or interactor still
    ///     alive searches what holds it (``Finding/retainers``; on by
    ///     default, in debug and release builds: it costs nothing until such
    ///     a finding; `NAPKIN_RETAINERS=off` in the environment also
    ///     switches it off).
    ///   - handler: called with each new finding, off the main actor, on the
    ///     detector's reporting thread, one call at a time; at most once per
    ///     fingerprint per process.
    public static func bootstrap(_ mode: Mode = .log, grace: Duration = .seconds(1), viewGrace: Duration = .seconds(5),
                                 maxAlive: [String: Int] = [:], retainers: Bool = true,
                                 handler: (@Sendable (Finding) throws -> Void)? = nil) {
        let search = retainers && ProcessInfo.processInfo.environment["NAPKIN_RETAINERS"] != "off"
        TraceContext.bootstrapDetector(DetectorSettings(mode: mode, grace: grace, viewGrace: viewGrace, maxAlive: maxAlive,
                                                        retainers: search, handler: handler))
    }

    /// Whether detection is on in this process.
    public static var isEnabled: Bool {
        TraceContext.globalTracer?.detector != nil
    }

    /// What the detector did so far (all zero when detection is off).
    public static var statistics: Statistics {
        TraceContext.globalTracer?.detector?.statistics ?? Statistics()
    }
}
