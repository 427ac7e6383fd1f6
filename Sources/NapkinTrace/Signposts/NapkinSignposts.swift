// The switch for napkin's signposts: the public API (`NapkinSignposts`), the
// environment variable's values, and the observer a tracer gets when they
// are on. What the signposts are is in SignpostIntervals.swift; the calls to
// Apple's OSSignposter in Platform/OSSignposts.swift.

/// Shows napkin's lifecycle in Instruments, as signposts: every router's
/// attached interval, every interactor's active interval, every bound task,
/// every view's visible interval, and each mark and finding as an event,
/// under the subsystem ``subsystem``, with the object's type and id in a
/// public message.
///
/// Off unless switched on, with no code, by `NAPKIN_SIGNPOSTS=on` (the
/// `.dynamicTracing` category) or `NAPKIN_SIGNPOSTS=poi` (Points of
/// Interest) in the scheme's environment, or in code, once, before the tree
/// is built:
///
/// ```swift
/// NapkinSignposts.bootstrap()                    // .dynamicTracing
/// NapkinSignposts.bootstrap(.pointsOfInterest)   // shown by the Points of Interest instrument
/// ```
///
/// It works with or without a trace destination or the detector. Off, it
/// costs one nil check per traced event, and nothing when tracing is off
/// too. Signposts exist only where Apple's `os` module does; elsewhere
/// switching them on writes one line on standard error and leaves them off.
/// See `docs/apple.md`, "Instruments".
public enum NapkinSignposts {
    /// The log category the signposts go to.
    public enum Category: String, Sendable, CaseIterable {
        /// `OSLog.Category.dynamicTracing`: Apple's category for signposts
        /// that are recorded only while a tool asks for them.
        case dynamicTracing
        /// `OSLog.Category.pointsOfInterest`: shown by Instruments' Points
        /// of Interest instrument, and recorded whenever signposts are.
        case pointsOfInterest
    }

    /// The subsystem napkin's signposts are logged under.
    public static let subsystem = "dev.napkin.lifecycle"

    /// Switches signposts on for the whole process. Call it once, before
    /// building the napkin tree; it takes precedence over
    /// `NAPKIN_SIGNPOSTS`. A second call is a programming error and stops
    /// the process; a call after the traced tree started is ignored, with a
    /// line on standard error.
    ///
    /// - Parameter category: where the signposts go (``Category/dynamicTracing`` by default).
    public static func bootstrap(_ category: Category = .dynamicTracing) {
        TraceContext.bootstrapSignposts(category)
    }

    /// Whether signposts are on in this process.
    public static var isEnabled: Bool {
        TraceContext.globalTracer?.signposts != nil
    }

    /// The category `NAPKIN_SIGNPOSTS=value` asks for: `on` or
    /// `dynamic-tracing` for ``Category/dynamicTracing``, `poi` or
    /// `points-of-interest` for ``Category/pointsOfInterest``, `off` (and
    /// empty) for none. Anything else throws, naming the values.
    package static func category(fromEnvironment value: String) throws(TraceSinkError) -> Category? {
        switch value {
        case "", "off": return nil
        case "on", "dynamic-tracing": return .dynamicTracing
        case "poi", "points-of-interest": return .pointsOfInterest
        default: throw TraceSinkError("'\(value)' is not a signpost setting; use on, poi or off")
        }
    }

    /// What a tracer observes for `category`: the intervals sent to Apple's
    /// signposter where the `os` module exists; elsewhere nil, with a line
    /// on standard error.
    static func observer(for category: Category) -> (any SignpostObserver)? {
        #if canImport(os)
        return SignpostIntervals(emitter: OSSignpostEmitter(category: category))
        #else
        DeveloperNotice.report("napkin: signposts need Apple's os module, which this platform lacks; signposts are off")
        return nil
        #endif
    }
}
