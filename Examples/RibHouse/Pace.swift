/// How fast the app's clock runs: every delay the app and its script take is
/// divided by `speed` (`--speed 10` makes a run ten times shorter).
struct Pace: Sendable {
    let speed: Double

    /// `duration` at this pace.
    func scaled(_ duration: Duration) -> Duration {
        duration / speed
    }

    /// Sleeps for `duration` at this pace; returns early if the task is cancelled.
    func pause(_ duration: Duration) async {
        try? await Task.sleep(for: scaled(duration))
    }
}
