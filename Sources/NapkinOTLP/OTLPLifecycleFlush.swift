import Foundation
import NapkinTrace

/// Sends what the exporter holds when the app enters the background or is
/// about to terminate (the notifications the trace itself flushes on,
/// ``Platform/appLifecycleFlushNotifications``; none outside UIKit): iOS
/// may end a suspended app with `SIGKILL`, which runs no exit handler.
enum OTLPLifecycleFlush {
    /// The triggers, kept for the rest of the process.
    @MainActor private static var triggers: FlushTriggers?

    /// Installs the triggers once, on the main actor; `flush` runs on the triggers' queue.
    static func install(_ flush: @escaping @Sendable () -> Void) {
        Task { @MainActor in
            let names = Platform.appLifecycleFlushNotifications
            guard !names.isEmpty, triggers == nil else { return }
            triggers = FlushTriggers(center: .default, names: names, keepAlive: Platform.appLifecycleKeepAlive) { flush() }
        }
    }
}
