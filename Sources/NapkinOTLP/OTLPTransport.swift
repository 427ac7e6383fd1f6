import Foundation
import NapkinTrace
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a payload reaches the collector: one HTTP POST, answered with a
/// status (and a `Retry-After`, if any) or failing. The exporter calls it on
/// its own thread, one request at a time; tests give it a transport of their own.
package protocol OTLPTransport: Sendable {
    /// Posts `body` to `url` with `headers`; waits at most `timeout`.
    func post(_ body: [UInt8], to url: URL, headers: [String: String], timeout: Duration) -> OTLPResponse
}

/// What one request came to.
package enum OTLPResponse: Sendable, Hashable {
    /// The collector answered with `status` (and `Retry-After`'s value, if any).
    case status(Int, retryAfter: String?)
    /// No answer: refused, unreachable, timed out, cancelled.
    case failed(String)
}

/// The platform's HTTP client: URLSession (FoundationNetworking on Linux,
/// which ships with the toolchain). No cookies, no cache, no redirects to
/// another host are followed beyond URLSession's defaults; one session per exporter.
package final class URLSessionTransport: OTLPTransport {
    private let session: URLSession

    /// A transport with a session of its own (ephemeral: no cookies, no cache).
    package init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    /// Posts with `Content-Type: application/json`, waiting at most `timeout` for the whole request.
    package func post(_ body: [UInt8], to url: URL, headers: [String: String], timeout: Duration) -> OTLPResponse {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        request.timeoutInterval = max(seconds, 0.001)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let outcome = Locked<OTLPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { _, response, error in
            let result: OTLPResponse
            if let http = response as? HTTPURLResponse {
                result = .status(http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
            } else {
                result = .failed(error.map { "\($0.localizedDescription)" } ?? "no response")
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        // URLSession's own timeout is for idle time; this bounds the whole request.
        if done.wait(timeout: .now() + .milliseconds(Int(seconds * 1000) + 1)) == .timedOut {
            task.cancel()
            _ = done.wait(timeout: .now() + .seconds(1))
            return .failed("no answer within \(Int(seconds * 1000)) ms")
        }
        return outcome.withLock { $0 } ?? .failed("no response")
    }
}
