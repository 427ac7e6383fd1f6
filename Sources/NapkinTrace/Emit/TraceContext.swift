import Foundation
import Synchronization

/// Decides which tracer a newly created router or interactor reports to.
///
/// The answer is read once, when the object is created, and kept by the object,
/// so every later hook is a nil check on a stored property (an atomic load for
/// an interactor's lifecycle). With tracing off the whole decision is one
/// atomic load.
///
/// An object created untraced can still be traced later, and only then: when
/// a traced router attaches it (or its router, or an ancestor of its router),
/// it *adopts* the parent's tracer (see Napkin's `Router`). That never
/// consults this context, so adoption works the same for recorders and for
/// the process-wide tracer, and an object never changes tracer once it has one.
package enum TraceContext {
    /// Packed state, read with one atomic load on every creation:
    /// - `0`: not resolved yet (the environment has not been read);
    /// - bit 0 set: resolved; bit 1 set: at least one ``TraceRecorder`` scope is active;
    /// - the remaining bits: the address of the global ``Tracer`` (16-byte aligned), or 0 when off.
    /// A global tracer, once published, is retained forever so that a reader
    /// holding the old address can never see a freed object.
    private static let state = Atomic<UInt>(0)
    private static let resolvedBit: UInt = 1
    private static let recordingBit: UInt = 2
    /// Guards the slow paths (resolution, bootstrap, recorder scopes).
    private static let slow = Locked<SlowState>(SlowState())

    private struct SlowState {
        var activeRecordings = 0
        var bootstrapped = false
        /// ``NapkinDetector/bootstrap(_:grace:viewGrace:maxAlive:retainers:handler:)`` was called.
        var detectorBootstrapped = false
        /// What the bootstrap asked for, until a tracer is made.
        var detectorSettings: DetectorSettings?
        /// The process's detector, once made (one per process).
        var detector: Detector?
        /// `NAPKIN_DETECT` was read.
        var readDetectEnvironment = false
        /// ``NapkinSignposts/bootstrap(_:)`` was called.
        var signpostsBootstrapped = false
        /// The signpost category asked for (by the bootstrap or `NAPKIN_SIGNPOSTS`), until a tracer is made.
        var signpostCategory: NapkinSignposts.Category?
        /// `NAPKIN_SIGNPOSTS` was read.
        var readSignpostEnvironment = false
        /// The process's signpost observer, once made (one per process).
        var signposts: (any SignpostObserver)?
    }

    /// The tracer a recording scope installed for the current task.
    @TaskLocal package static var recording: Tracer?

    /// The tracer for a router, interactor or mark created now, or `nil` when tracing is off.
    @inline(__always)
    package static func current() -> Tracer? {
        let s = state.load(ordering: .acquiring)
        if s == resolvedBit { return nil }
        return slowCurrent(s)
    }

    @inline(never)
    private static func slowCurrent(_ s: UInt) -> Tracer? {
        if s == 0 {
            resolveFromEnvironment()
            return current()
        }
        if s & recordingBit != 0, let scoped = recording { return scoped }
        return global(from: s)
    }

    private static func global(from s: UInt) -> Tracer? {
        let bits = s & ~(resolvedBit | recordingBit)
        guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<Tracer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The process-wide tracer, if tracing is on for the whole process.
    package static var globalTracer: Tracer? {
        let s = state.load(ordering: .acquiring)
        if s == 0 { resolveFromEnvironment() }
        return global(from: state.load(ordering: .acquiring))
    }

    /// Reads `NAPKIN_TRACE` (and `NAPKIN_DETECT`, `NAPKIN_SIGNPOSTS`) once and installs the tracer they ask for.
    private static func resolveFromEnvironment() {
        slow.withLock { slowState in
            guard state.load(ordering: .acquiring) == 0 else { return }
            var sink: (any TraceSink)?
            if let value = ProcessInfo.processInfo.environment["NAPKIN_TRACE"], !value.isEmpty {
                do {
                    sink = try TraceDestination.sink(for: value)
                } catch {
                    DeveloperNotice.report("napkin: NAPKIN_TRACE=\(value): \(error); tracing is off")
                }
            }
            let detector = detector(&slowState)
            let signposts = signposts(&slowState)
            if sink == nil && (detector != nil || signposts != nil) { sink = DiscardingSink() }
            publish(sink.map { Tracer(sink: $0, detector: detector, signposts: signposts) },
                    recordings: slowState.activeRecordings > 0)
        }
    }

    /// The observer a new process-wide tracer gets: from the bootstrap's
    /// category, else from `NAPKIN_SIGNPOSTS`; nil when off.
    private static func signposts(_ slowState: inout SlowState) -> (any SignpostObserver)? {
        if let made = slowState.signposts { return made }
        if slowState.signpostCategory == nil && !slowState.readSignpostEnvironment {
            slowState.readSignpostEnvironment = true
            if let value = ProcessInfo.processInfo.environment["NAPKIN_SIGNPOSTS"] {
                do {
                    slowState.signpostCategory = try NapkinSignposts.category(fromEnvironment: value)
                } catch {
                    DeveloperNotice.report("napkin: NAPKIN_SIGNPOSTS=\(value): \(error); signposts are off")
                }
            }
        }
        slowState.signposts = slowState.signpostCategory.flatMap(NapkinSignposts.observer(for:))
        return slowState.signposts
    }

    /// Switches signposts on. Called by ``NapkinSignposts/bootstrap(_:)``.
    package static func bootstrapSignposts(_ category: NapkinSignposts.Category) {
        slow.withLock { slowState in
            precondition(!slowState.signpostsBootstrapped, "NapkinSignposts.bootstrap(_:) may be called only once per process")
            slowState.signpostsBootstrapped = true
            slowState.signpostCategory = category
            slowState.readSignpostEnvironment = true
            let s = state.load(ordering: .acquiring)
            // Not resolved yet: the tracer made at resolution (or by NapkinTrace.bootstrap) gets them.
            guard s != 0 else { return }
            if global(from: s) != nil {
                // A tracer's observer is fixed when it is made, before any event.
                DeveloperNotice.report("napkin: NapkinSignposts.bootstrap was called after tracing started; "
                                       + "call it before building the tree (and before NapkinTrace.bootstrap); signposts are off")
            } else if let signposts = signposts(&slowState) {
                // Tracing was off: objects created from now on are traced for the signposts.
                publish(Tracer(sink: DiscardingSink(), signposts: signposts), recordings: slowState.activeRecordings > 0)
            }
        }
    }

    /// The process's detector, made the first time a tracer needs it: from
    /// the bootstrap's settings, else from `NAPKIN_DETECT`; nil when off.
    private static func detector(_ slowState: inout SlowState) -> Detector? {
        if let detector = slowState.detector { return detector }
        if slowState.detectorSettings == nil && !slowState.readDetectEnvironment {
            slowState.readDetectEnvironment = true
            if let value = ProcessInfo.processInfo.environment["NAPKIN_DETECT"] {
                do {
                    slowState.detectorSettings = try DetectorSettings.fromEnvironment(
                        value, retainers: ProcessInfo.processInfo.environment["NAPKIN_RETAINERS"])
                } catch {
                    DeveloperNotice.report("napkin: NAPKIN_DETECT=\(value): \(error); detection is off")
                }
            }
        }
        slowState.detector = slowState.detectorSettings.map { settings in
            Detector(settings: withFindingSignposts(settings, slowState: &slowState))
        }
        return slowState.detector
    }

    /// `settings` whose handler first signposts each finding it is called
    /// with, when signposts are on (the detector reports a finding through
    /// its handler once per fingerprint, on its reporting thread).
    private static func withFindingSignposts(_ settings: DetectorSettings, slowState: inout SlowState) -> DetectorSettings {
        guard let signposts = signposts(&slowState) else { return settings }
        var settings = settings
        let handler = settings.handler
        settings.handler = { finding in
            signposts.found(finding)
            try handler?(finding)
        }
        return settings
    }

    /// Switches the in-app detector on. Called by ``NapkinDetector/bootstrap(_:grace:viewGrace:maxAlive:retainers:handler:)``.
    package static func bootstrapDetector(_ settings: DetectorSettings) {
        slow.withLock { slowState in
            precondition(!slowState.detectorBootstrapped, "NapkinDetector.bootstrap(_:) may be called only once per process")
            slowState.detectorBootstrapped = true
            slowState.detectorSettings = settings
            let s = state.load(ordering: .acquiring)
            // Not resolved yet: the tracer made at resolution (or by NapkinTrace.bootstrap) gets it.
            guard s != 0 else { return }
            let detector = Detector(settings: withFindingSignposts(settings, slowState: &slowState))
            slowState.detector = detector
            if let tracer = global(from: s) {
                if !tracer.attach(detector) {
                    DeveloperNotice.report("napkin: NapkinDetector.bootstrap was called after the traced napkin tree "
                                           + "started; call it before building the tree; detection is off")
                }
            } else {
                // Tracing was off: objects created from now on are traced for the detector.
                publish(Tracer(sink: DiscardingSink(), detector: detector, signposts: signposts(&slowState)),
                        recordings: slowState.activeRecordings > 0)
            }
        }
    }

    private static func publish(_ tracer: Tracer?, recordings: Bool) {
        var bits: UInt = resolvedBit
        if let tracer {
            bits |= UInt(bitPattern: Unmanaged.passRetained(tracer).toOpaque())
            ExitFlush.register()
        }
        if recordings { bits |= recordingBit }
        state.store(bits, ordering: .releasing)
    }

    /// Installs the tracer `make` returns, given the signposts it must
    /// feed, as the process-wide tracer. Called by ``NapkinTrace/bootstrap(_:bufferCapacity:)``.
    package static func bootstrap(_ make: ((any SignpostObserver)?) -> Tracer) {
        slow.withLock { slowState in
            precondition(!slowState.bootstrapped, "NapkinTrace.bootstrap(_:) may be called only once per process")
            slowState.bootstrapped = true
            let tracer = make(signposts(&slowState))
            let s = state.load(ordering: .acquiring)
            if let previous = global(from: s), s != 0 {
                previous.shutdown(reason: "replaced")
            }
            if let detector = detector(&slowState) { _ = tracer.attach(detector) }
            publish(tracer, recordings: slowState.activeRecordings > 0)
        }
    }

    /// Marks a recording scope as active so `current()` consults the task-local.
    package static func beginRecording() {
        _ = current()
        slow.withLock { slowState in
            slowState.activeRecordings += 1
            var s = state.load(ordering: .acquiring)
            while true {
                let (done, now) = state.compareExchange(expected: s, desired: s | recordingBit, ordering: .acquiringAndReleasing)
                if done { break }
                s = now
            }
        }
    }

    /// Ends a recording scope started with ``beginRecording()``.
    package static func endRecording() {
        slow.withLock { slowState in
            slowState.activeRecordings -= 1
            guard slowState.activeRecordings == 0 else { return }
            var s = state.load(ordering: .acquiring)
            while true {
                let (done, now) = state.compareExchange(expected: s, desired: s & ~recordingBit, ordering: .acquiringAndReleasing)
                if done { break }
                s = now
            }
        }
    }
}

/// Flushes the process-wide trace when the process exits normally, and when
/// the app may be about to be ended without exiting normally (see ``FlushTriggers``).
package enum ExitFlush {
    private static let registered = Atomic<Bool>(false)
    /// The app lifecycle's triggers, kept for the rest of the process.
    @MainActor private static var lifecycleTriggers: FlushTriggers?
    /// The triggers the framework added (``alsoFlush(on:)``), kept for the rest of the process.
    @MainActor private static var addedTriggers: FlushTriggers?

    /// Flushes the process-wide trace also when one of `names` is posted:
    /// how the framework adds AppKit's `willTerminateNotification`, which
    /// NapkinTrace does not name (a command-line tool linking NapkinTrace
    /// must not link AppKit). The poster does not wait: a normal exit
    /// follows, whose handler drains the trace (``NormalExitFollows``). The
    /// first call counts; later ones do nothing.
    @MainActor
    package static func alsoFlush(on names: [Notification.Name]) {
        guard addedTriggers == nil else { return }
        addedTriggers = FlushTriggers.forProcessTrace(on: .default, names: names, keepAlive: NormalExitFollows())
    }

    /// How long the detector's reports may take when the process ends, at
    /// most: the line, the handler, the retainer search's result (cut short).
    static let reportingMS = 1_000

    /// The process ends (`exit()`, a return from `main`, SIGTERM): the app's
    /// time stops now; a retainer search under way is cut short; what the
    /// end decides is reported; everything is written with the end record.
    static func processEnds(reason: String) {
        guard let tracer = TraceContext.globalTracer else { return }
        tracer.stop()
        if tracer.detector != nil { SearchCutShort.now() }
        (tracer.sink as? any TracerAwareSink)?.processWillExit()
        tracer.shutdown(reason: reason, reportingMS: reportingMS)
    }

    static func register() {
        guard !registered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Platform.atExit { ExitFlush.processEnds(reason: "exit") }
        Platform.onTermination { ExitFlush.processEnds(reason: "terminated") }
        // On the main actor, where the kits declare their notifications'
        // names; tracing may start on any thread. Once per process.
        Task { @MainActor in
            let names = Platform.appLifecycleFlushNotifications
            guard !names.isEmpty, lifecycleTriggers == nil else { return }
            lifecycleTriggers = FlushTriggers.forProcessTrace(on: .default, names: names, keepAlive: Platform.appLifecycleKeepAlive)
        }
    }
}
