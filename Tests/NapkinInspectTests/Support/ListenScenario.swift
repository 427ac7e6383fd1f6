import Foundation
import TestSupport

/// Runs `napkin-inspect live --listen …` in the background with apps that
/// connect to it, the way a user would from two terminals: a shell script
/// starts the inspector, waits for its `listening on` line, exports
/// `NAPKIN_TRACE` for the apps, runs them, and waits for the inspector
/// (stopped by `--sessions N`, or by SIGTERM after the apps when
/// `terminate` is set). The inspector's peak memory (`VmHWM`, Linux) is
/// sampled while it runs.
struct ListenScenario {
    /// What the inspector printed and how it ended.
    struct Outcome: CustomStringConvertible {
        /// The inspector's exit status.
        var status: Int32
        var stdout: String
        var stderr: String
        /// The inspector's peak resident memory in KiB, when it could be read.
        var peakKiB: Int?
        /// The whole script's output (the apps' stderr), for failure messages.
        var script: CLIResult

        var description: String { "inspector exited \(status)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---\n\(script)" }
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// `live` arguments after `--listen ADDRESS`.
    var arguments: [String]
    /// The address given to `--listen` (`0` for a free TCP port on 127.0.0.1).
    var listen = "0"
    /// Shell lines run once `NAPKIN_TRACE` is exported; `$PROBE` is TraceProbe,
    /// `$RIBHOUSE` rib-house, `$INSPECT` napkin-inspect, `$DIR` a scratch directory.
    var apps: String
    /// Send SIGTERM to the inspector once the apps are done (instead of `--sessions N`).
    var terminate = false

    /// Runs the scenario in `directory` (a scratch directory the caller owns).
    func run(in directory: ScratchDirectory, timeout: Double = 120) async throws -> Outcome {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            INSPECT="$1"; PROBE="$2"; RIBHOUSE="$3"; DIR="$4"
            "$INSPECT" live --listen '\(listen)' \(quoted) > "$DIR/inspector.out" 2> "$DIR/inspector.err" &
            INSPECTOR=$!
            ( while kill -0 $INSPECTOR 2>/dev/null; do grep VmHWM /proc/$INSPECTOR/status > "$DIR/peak.tmp" 2>/dev/null && mv "$DIR/peak.tmp" "$DIR/peak"; sleep 0.05; done ) &
            i=0
            until grep -q 'listening on' "$DIR/inspector.err" 2>/dev/null; do
                i=$((i + 1)); [ $i -gt 400 ] && { echo "no listening line" >&2; kill $INSPECTOR; exit 97; }
                sleep 0.05
            done
            export NAPKIN_TRACE="$(sed -n 's/.*start the app with NAPKIN_TRACE=\\([^ ]*\\).*/\\1/p' "$DIR/inspector.err" | head -n 1)"
            \(apps)
            \(terminate ? "sleep 0.5; kill -TERM $INSPECTOR" : "")
            wait $INSPECTOR
            echo $? > "$DIR/status"
            """
        let result = try await CLIHarness.run("/bin/sh", ["-c", script, "sh", CLIHarness.inspectPath, CLIHarness.traceProbePath,
                                                         CLIHarness.ribHousePath, directory.path], timeout: timeout)
        func read(_ name: String) -> String { (try? String(contentsOfFile: directory.file(name), encoding: .utf8)) ?? "" }
        let peak = read("peak").split(whereSeparator: { !$0.isNumber }).first.flatMap { Int($0) }
        return Outcome(status: Int32(read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
                       stdout: read("inspector.out"), stderr: read("inspector.err"), peakKiB: peak, script: result)
    }
}
