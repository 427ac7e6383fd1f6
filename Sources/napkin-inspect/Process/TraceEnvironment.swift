import Foundation

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
/// The command's processes also run the in-app detector quietly
/// (`NAPKIN_DETECT=quiet`, under the same prefixes), so that a finding about
/// an object still alive searches what holds it while the object lives and
/// writes the result into the trace (a `retained` record), which `check`
/// and `live` then show: nothing is printed by the command itself. A
/// `NAPKIN_DETECT` the user set wins (`NAPKIN_DETECT=off` keeps the
/// command's detector off, and with it the paths); so does
/// `NAPKIN_RETAINERS`, set to `on` (a release build's detector searches
/// only when told). docs/check-output.md says so.
///
/// A simulator's processes run on the host and see its file system, so a
/// `DIR/` destination (check's) and a `unix:` socket (live's) reach them; a
/// device does not: it needs `tcp:HOST:PORT` to the Mac (docs/apple.md).
enum TraceEnvironment {
    /// The prefixes, besides none, under which the destination is set.
    static let forwardingPrefixes = ["TEST_RUNNER_", "SIMCTL_CHILD_"]

    /// The variables for a command whose processes trace to `destination`,
    /// given the environment the command would otherwise get.
    static func variables(tracingTo destination: String,
                          inheriting environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var variables = ["NAPKIN_TRACE": destination]
        let defaults = ["NAPKIN_DETECT": "quiet", "NAPKIN_RETAINERS": "on"]
        for (name, value) in defaults where environment[name] == nil { variables[name] = value }
        for prefix in forwardingPrefixes {
            variables[prefix + "NAPKIN_TRACE"] = destination
            for (name, value) in defaults where environment[prefix + name] == nil {
                variables[prefix + name] = environment[name] ?? value
            }
        }
        return variables
    }
}
