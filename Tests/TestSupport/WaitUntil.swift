/// How long the waits of the test support give a condition before they call
/// it a hang: long enough for a loaded machine running the whole suite
/// (a main-actor job waited more than 45 s behind a thousand parallel tests
/// on 2 cores in CI, and a ready job can wait many seconds for a thread of
/// the cooperative pool under the thread sanitizer). A wait returns as soon
/// as its condition holds: this is only how long a hang takes to be named
/// (a test with a shorter time limit is stopped by that limit first).
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
