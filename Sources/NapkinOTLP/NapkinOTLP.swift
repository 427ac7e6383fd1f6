import Foundation
import NapkinTrace

/// Sends a napkin app's lifecycle to the team's OpenTelemetry pipeline:
/// the router tree as nested spans, findings as log records, populations as
/// metrics, over OTLP/HTTP as JSON (docs/otlp.md).
///
/// Off unless the standard variables ask for it. One call, before the
/// napkin tree is built, reads them:
///
/// ```swift
/// import NapkinOTLP
/// NapkinOTLP.bootstrap()   // OTEL_EXPORTER_OTLP_ENDPOINT=https://collector:4318
/// ```
///
/// Turned on, it traces the process (and writes `NAPKIN_TRACE`'s destination
/// too, when that is set) and switches the in-app detector on, quietly
/// unless `NAPKIN_DETECT` says otherwise, so that findings reach the
/// collector. A bad value is one line on standard error; the app runs on
/// without the export.
public enum NapkinOTLP {
    private struct Installed: Sendable {
        var sink: OTLPTraceSink
    }

    private static let installed = Locked<Installed?>(nil)

    /// Reads the `OTEL_*` variables and, if they ask for an export, turns it
    /// on for the whole process; returns whether it did. Call it once,
    /// before building the napkin tree, instead of ``NapkinTrace/bootstrap(_:bufferCapacity:)``
    /// and ``NapkinDetector/bootstrap(_:grace:viewGrace:maxAlive:retainers:handler:)``
    /// (it makes both calls; they may be made once per process).
    ///
    /// - Parameters:
    ///   - detection: what a finding does besides being exported (`NAPKIN_DETECT` wins);
    ///     nil: no detector, and so no findings exported.
    ///   - handler: the app's own handler, called with each new finding after it is queued for export.
    ///   - bufferCapacity: the tracer's queue (see ``NapkinTrace/bootstrap(_:bufferCapacity:)``).
    @discardableResult
    public static func bootstrap(detection: NapkinDetector.Mode? = .quiet,
                                 handler: (@Sendable (Finding) throws -> Void)? = nil,
                                 bufferCapacity: Int = 65_536) -> Bool {
        let configuration: OTLPConfiguration
        do {
            guard let asked = try OTLPConfiguration.fromEnvironment() else { return false }
            configuration = asked
        } catch {
            DeveloperNotice.report("napkin: \(error); OTLP export is off")
            return false
        }
        return bootstrap(configuration, detection: detection, handler: handler, bufferCapacity: bufferCapacity)
    }

    /// Turns the export to `configuration` on for the whole process (the
    /// `OTEL_*` variables are not read); see ``bootstrap(detection:handler:bufferCapacity:)``.
    @discardableResult
    public static func bootstrap(_ configuration: OTLPConfiguration, detection: NapkinDetector.Mode? = .quiet,
                                 handler: (@Sendable (Finding) throws -> Void)? = nil,
                                 bufferCapacity: Int = 65_536) -> Bool {
        guard configuration.isEnabled else { return false }
        let environment = ProcessInfo.processInfo.environment
        var next: (any TraceSink)?
        if let value = environment["NAPKIN_TRACE"], !value.isEmpty {
            do {
                next = try TraceDestination.sink(for: value)
            } catch {
                DeveloperNotice.report("napkin: NAPKIN_TRACE=\(value): \(error); only the OTLP export is on")
            }
        }
        let process = ProcessInfo.processInfo
        let exporter = OTLPExporter(configuration: configuration,
                                    resource: OTLPResource.attributes(configuration, app: process.processName,
                                                                      pid: Int(process.processIdentifier), sessionID: nil))
        let sink = OTLPTraceSink(configuration: configuration, exporter: exporter, next: next)
        let first = installed.withLock { slot -> Bool in
            guard slot == nil else { return false }
            slot = Installed(sink: sink)
            return true
        }
        precondition(first, "NapkinOTLP.bootstrap may be called only once per process")
        // Registered before the tracer's own exit handler, so it runs after it (atexit is last in, first out).
        Platform.atExit { NapkinOTLP.processExits() }
        NapkinTrace.bootstrap(sink, bufferCapacity: bufferCapacity)
        var mode = detection
        if let value = environment["NAPKIN_DETECT"] {
            do {
                mode = try DetectorSettings.fromEnvironment(value)?.mode
            } catch {
                DeveloperNotice.report("napkin: NAPKIN_DETECT=\(value): \(error); detection is \(mode.map(\.rawValue) ?? "off")")
            }
        }
        if let mode {
            // The detector's default; NAPKIN_RETAINERS switches it as NapkinDetector.bootstrap reads it.
            let switched = environment["NAPKIN_RETAINERS"]
            let searches = switched == "on" ? true : switched == "off" ? false : NapkinDetector.retainersByDefault
            NapkinDetector.bootstrap(mode) { [sink] finding in
                sink.found(finding, pathFollows: searches && RetainerSearch.asks(finding))
                try handler?(finding)
            }
        }
        OTLPLifecycleFlush.install { flush(within: configuration.exitBudget) }
        return true
    }

    /// Whether the export is on in this process.
    public static var isEnabled: Bool {
        installed.withLock { $0 != nil }
    }

    /// What the exporter sent and dropped so far (all zero when it is off).
    public static var statistics: OTLPStatistics {
        installed.withLock { $0?.sink.exporter.statistics } ?? OTLPStatistics()
    }

    /// Writes what the tracer holds, then sends everything queued, waiting
    /// at most `budget`; returns whether nothing is left waiting. The app's
    /// move to the background does this by itself (on UIKit), and so does
    /// a normal exit.
    @discardableResult
    public static func flush(within budget: Duration = .seconds(2)) -> Bool {
        guard let sink = installed.withLock({ $0?.sink }) else { return true }
        NapkinTrace.flush()
        return sink.exporter.flush(within: budget)
    }

    /// The exit: ends the trace (its last spans, the findings the end
    /// decides), then sends what is queued within the exit budget.
    private static func processExits() {
        guard let installed = installed.withLock({ $0 }) else { return }
        installed.sink.processWillExit()
        NapkinTrace.shutdown()
        // What the tracer's close left of the budget: the whole exit waits at most one budget.
        installed.sink.exporter.shutdown(within: installed.sink.exitBudgetLeft)
    }
}
