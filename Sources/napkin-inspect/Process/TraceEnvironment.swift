/// The environment `check -- CMD` and `live -- CMD` give the command, so
/// that every process it starts traces to `destination`: `NAPKIN_TRACE`,
/// and the same value under the prefixes that reach processes which do not
/// inherit the command's environment.
///
/// - `TEST_RUNNER_NAPKIN_TRACE`: `xcodebuild test` passes every
///   `TEST_RUNNER_`-prefixed variable, prefix stripped, to the test runner
///   processes it launches (`man xcodebuild`), the app hosting unit tests
///   included, also on a simulator.
/// - `SIMCTL_CHILD_NAPKIN_TRACE`: `xcrun simctl launch` and `spawn` pass
///   every `SIMCTL_CHILD_`-prefixed variable, prefix stripped, to the
///   process they start in the simulator (`xcrun simctl help launch`).
///
/// A simulator's processes run on the host and see its file system, so a
/// `DIR/` destination (check's) and a `unix:` socket (live's) reach them; a
/// device does not: it needs `tcp:HOST:PORT` to the Mac (docs/apple.md).
enum TraceEnvironment {
    /// The prefixes, besides none, under which the destination is set.
    static let forwardingPrefixes = ["TEST_RUNNER_", "SIMCTL_CHILD_"]

    /// The variables for a command whose processes trace to `destination`.
    static func variables(tracingTo destination: String) -> [String: String] {
        var variables = ["NAPKIN_TRACE": destination]
        for prefix in forwardingPrefixes { variables[prefix + "NAPKIN_TRACE"] = destination }
        return variables
    }
}
