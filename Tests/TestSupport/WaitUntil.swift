/// How long the waits of the test support give a condition before they call
/// it a hang. A wait returns as soon as its condition holds: this is only
/// how long a hang takes to be named (a test with a shorter time limit is
/// stopped by that limit first). `@MainActor` tests no longer work out
/// creation lines on the main actor (they read the recording without them,
/// or work them out on a thread of their own: `RecordedLines.swift`), but
/// what waits for a line still queues for the process-wide symbolication
/// lock behind every other test's: a detector's finding waited over 60 s
/// in a plain run of `NapkinTests` with two busy loops, and over 120 s
/// under the thread sanitizer (docs/contributing.md, "A test that a busy
/// machine cannot fail"). So it stays at 200 s. A wait on a child process
/// gets ``childHangBound``.
public let hangBound: Duration = .seconds(200)

/// Polls `condition` every few milliseconds, without holding a thread
/// between polls, until it holds (true) or `timeout` passes (false).
public nonisolated(nonsending) func waitUntil(timeout: Duration = hangBound, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// How long a child process a test starts (TraceProbe, napkin-inspect,
/// rib-house) may run before the test calls it hung and kills it: its work
/// takes seconds, but a loaded machine running the whole suite (under the
/// thread sanitizer, next to other builds) slows a child many times over.
/// A test returns as soon as its child exits: this is only how long a hang
/// takes to be named.
public let childHangBound: Duration = .seconds(300)
