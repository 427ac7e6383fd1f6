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
/// ``Finding/fingerprint`` per process; what holds its object follows in a
/// second line. When the process ends (`exit()`, a return from `main`,
/// SIGTERM), the checks due are decided and reported, and those the exit
/// cut short are named in one line. The analysis runs on the trace's
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
    ///     alive searches what holds it (``Finding/retainers``); by default
    ///     on in a debug build and off in a release build
    ///   (``retainersByDefault``). `NAPKIN_RETAINERS=on` or `off` in the
    ///     environment wins. The search itself runs only when such a finding
    ///     comes; keeping the live objects it starts from costs each router
    ///     and interactor one weak reference (docs/detect.md, "Who retains it").
    ///   - handler: called with each new finding, off the main actor, on the
    ///     detector's reporting thread, one call at a time: once per
    ///     fingerprint per process when the finding is decided, and once
    ///     more with ``Finding/retainers`` set when a retainer search ran for
    ///     it (the path follows the finding; an exit cuts the search short,
    ///     and the note says so).
    public static func bootstrap(_ mode: Mode = .log, grace: Duration = .seconds(1), viewGrace: Duration = .seconds(5),
                                 maxAlive: [String: Int] = [:], retainers: Bool = retainersByDefault,
                                 handler: (@Sendable (Finding) throws -> Void)? = nil) {
        let switched = ProcessInfo.processInfo.environment["NAPKIN_RETAINERS"]
        let search = switched == "on" ? true : switched == "off" ? false : retainers
        TraceContext.bootstrapDetector(DetectorSettings(mode: mode, grace: grace, viewGrace: viewGrace, maxAlive: maxAlive,
                                                        retainers: search, handler: handler))
    }

    /// Whether the detector searches what holds a leaked object unless told:
    /// true in a debug build, false in a release build, where the detector
    /// keeps its promise of no allocation on the app's threads (keeping the
    /// live objects a search starts from costs each router and interactor
    /// one weak reference).
    public static var retainersByDefault: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
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
