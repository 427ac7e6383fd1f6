// TraceProbe's `background` mode: what an iOS app's trace holds when the app
// goes to the background and is then killed (SIGKILL runs no atexit handler).

import Foundation
import NapkinTrace

/// Runs the app as `exit` does, writes `marks` marks ("bg 1"...), then
/// flushes the trace the way entering the background does on iOS: through
/// ``FlushTriggers``, here on a private center under a name of its own
/// (Linux has no app lifecycle). Then "flushed" on standard error, and a
/// wait of an hour for the test to kill the process. Returns the routers.
@MainActor
func backgroundMode(marks: Int) async -> [AnyObject] {
    let kept = await runApp()
    for i in 0..<marks { NapkinTrace.mark("bg \(i + 1)") }
    let center = NotificationCenter()
    let didEnterBackground = Notification.Name("TraceProbe.didEnterBackground")
    // A patience far beyond the default: "flushed" must mean flushed, even on a loaded machine.
    let triggers = FlushTriggers.forProcessTrace(on: center, names: [didEnterBackground], patience: .seconds(120))
    center.post(name: didEnterBackground, object: nil)
    writeStderr("flushed\n")
    try? await Task.sleep(for: .seconds(3600))
    triggers.cancel()
    return kept
}
