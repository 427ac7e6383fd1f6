import Foundation

/// When to try a refused or failed request again: on 429, 502, 503 and 504
/// and when the collector cannot be reached, after `Retry-After` if the
/// collector sent one, else after a backoff that doubles from 1 s to 32 s
/// (with a little jitter, so that a fleet does not come back at once).
package enum OTLPRetry {
    /// The first backoff.
    static let initial: Duration = .seconds(1)
    /// The longest backoff.
    static let maximum: Duration = .seconds(32)
    /// The longest `Retry-After` honoured (a larger one is taken as this).
    static let longestRetryAfter: Duration = .seconds(300)

    /// What a response means for the batch sent.
    package enum Verdict: Sendable, Hashable {
        /// Delivered: remove it.
        case delivered
        /// Try again later (the batch stays queued).
        case retry(after: Duration?)
        /// Refused for good (a 4xx other than 429): drop it, counted.
        case rejected(String)
    }

    /// The verdict on `response`.
    package static func verdict(_ response: OTLPResponse, now: Date = Date()) -> Verdict {
        switch response {
        case .failed:
            return .retry(after: nil)
        case .status(let code, let retryAfter):
            switch code {
            case 200..<300: return .delivered
            case 429, 502, 503, 504: return .retry(after: retryAfter.flatMap { delay(retryAfter: $0, now: now) })
            default: return .rejected("HTTP \(code)")
            }
        }
    }

    /// `Retry-After`'s delay: whole seconds, or an HTTP date; nil when unreadable.
    package static func delay(retryAfter text: String, now: Date = Date()) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 {
            return min(.seconds(seconds), longestRetryAfter)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let seconds = max(date.timeIntervalSince(now), 0)
        return min(.milliseconds(Int(seconds * 1000)), longestRetryAfter)
    }

    /// The backoff after `failures` failures in a row (1 s, 2 s, 4 s … 32 s), plus up to 10% jitter.
    package static func backoff(failures: Int) -> Duration {
        let exponent = min(max(failures - 1, 0), 5)
        let base = initial * (1 << exponent)
        let capped = min(base, maximum)
        let jitterMS = Int.random(in: 0...max(Int(capped.components.seconds) * 100, 1))
        return capped + .milliseconds(jitterMS)
    }
}
