import Synchronization

/// The kitchen's announcements ("brisket is out of the smoker"). App-wide: one
/// instance, held by the LaunchNapkin's component. Every subscriber gets its
/// own `AsyncStream`; a stream ends when its consumer stops iterating (for
/// instance because its task was cancelled), which also unsubscribes it.
final class AnnouncementService: Sendable {
    private struct Subscribers {
        var continuations: [Int: AsyncStream<String>.Continuation] = [:]
        var nextKey = 0
    }

    private let subscribers = Mutex(Subscribers())

    /// A new stream of the announcements posted from now on.
    func subscribe() -> AsyncStream<String> {
        AsyncStream(bufferingPolicy: .bufferingNewest(8)) { continuation in
            let key = subscribers.withLock { s in
                let key = s.nextKey
                s.nextKey += 1
                s.continuations[key] = continuation
                return key
            }
            continuation.onTermination = { [weak self] _ in
                self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: key) }
            }
        }
    }

    /// Sends `text` to every current subscriber.
    func post(_ text: String) {
        let continuations = subscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(text) }
    }
}
