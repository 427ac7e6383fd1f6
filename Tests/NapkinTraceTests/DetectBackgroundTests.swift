import Foundation
import NapkinTrace
import Testing
import TestSupport

/// An app sent to the background may be suspended or killed without an
/// exit: the findings the detector decided are reported before that
/// (``Detector/flushReports(timeoutMS:)``, which the background and
/// termination notifications' flush calls), not left in its queue.
@Suite("Detect: reports before the app is suspended")
struct DetectBackgroundTests {
    @Test("a decided finding whose handler is slow: reported by the time the background flush returns, and nothing is said of it")
    func reportsBeforeSuspension() throws {
        let (result, _) = try readAll(path: PackagePaths.url("Examples/traces/bug-retain-cycle.ndjson").path)
        let finding = try #require(TraceAnalyzer.analyze(result.events).findings.first)
        let handled = Locked(0)
        let delivery = FindingDelivery(settings: DetectorSettings(mode: .quiet) { _ in
            Thread.sleep(forTimeInterval: 0.2)
            handled.withLock { $0 += 1 }
        })
        delivery.report([FindingDelivery.Item(finding: finding)])
        // The handler sleeps: not reported yet when the report is queued.
        #expect(handled.withLock { $0 } == 0)
        delivery.waitForReports(timeoutMS: 60_000)
        #expect(handled.withLock { $0 } == 1)
        #expect(delivery.statistics.reported == 1)
    }
}
