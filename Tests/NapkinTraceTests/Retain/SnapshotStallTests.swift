import Foundation
import NapkinTrace
import Testing
import TestSupport

/// The forked snapshot reader's stall rule (`Platform.collect`): a child that
/// sends no heartbeat while it sleeps in the kernel (a lock held at the
/// fork) is given up on after the stall time; one that sends none because it
/// waits for a core or works without beating (a busy machine) is not, on
/// Linux, where the kernel says which (`/proc/PID/stat`).
@Suite("Snapshot reader: a silent child", .disabled(if: runsUnderThreadSanitizer, "a child forked under the thread sanitizer can hang in its runtime"))
struct SnapshotStallTests {
    @Test("asleep without a heartbeat: given up on after the stall time, not at the deadline")
    func asleepIsStuck() throws {
        let started = ContinuousClock.now
        guard case .success(let reader) = Platform.startReader(timeoutMS: 60_000, stallMS: 300, { _ in sleep(30); return [1] }) else {
            Issue.record("no child")
            return
        }
        let outcome = Platform.collect(reader) { false }
        guard case .timedOut(let why) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(why.contains("stopped answering"), "\(why)")
        #expect(ContinuousClock.now - started < .seconds(30), "waited for the sleep, not the stall")
    }

    #if os(Linux)
    @Test("running without a heartbeat (a busy machine's child): waited for, and its answer read")
    func runningIsWaitedFor() throws {
        guard case .success(let reader) = Platform.startReader(timeoutMS: 60_000, stallMS: 200, { _ in
            // One second of work without a beat: five stall times.
            var now = timespec(), start = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            var spins: UInt64 = 0
            repeat {
                spins &+= 1
                clock_gettime(CLOCK_MONOTONIC, &now)
            } while (now.tv_sec - start.tv_sec) * 1_000_000_000 + (now.tv_nsec - start.tv_nsec) < 1_000_000_000
            return [7, UInt8(truncatingIfNeeded: spins & 1)]
        }) else {
            Issue.record("no child")
            return
        }
        let outcome = Platform.collect(reader) { false }
        guard case .finished(let bytes) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(bytes.first == 7, "\(bytes)")
    }
    #endif
}
