// Headless Chromium driven over the DevTools protocol on a pipe
// (`--remote-debugging-pipe`: JSON messages ended by a NUL byte, the browser
// reading descriptor 3 and writing descriptor 4), for pages that never finish
// loading (the live page's event stream): `--dump-dom` waits for the network
// to go quiet, which a live page never does.
import Foundation
import Testing
import TestSupport

/// One headless Chromium with one tab, driven by a test: open a page, run
/// JavaScript in it and read the value, wait for a condition, take a screenshot.
final class BrowserSession: @unchecked Sendable {
    // @unchecked: used by one test at a time (each test has its own); the
    // state below is touched only by the awaiting caller, one call at a time.
    private let child: ChildProcess
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: ScratchDirectory
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session = ""

    /// Starts the browser (`width` × `height`) and opens `url` in a tab.
    static func open(_ url: String, width: Int = 1400, height: Int = 1000) async throws -> BrowserSession {
        guard let path = HeadlessChromium.path else { throw CocoaError(.fileNoSuchFile) }
        let browser = try BrowserSession(path: path, width: width, height: height)
        do {
            let target = try await browser.call("Target.createTarget", ["url": url], inSession: false)
            let targetID = try #require(target["targetId"] as? String)
            let attached = try await browser.call("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
            browser.session = try #require(attached["sessionId"] as? String)
        } catch {
            browser.close()
            throw error
        }
        return browser
    }

    private init(path: String, width: Int, height: Int) throws {
        var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
        guard pipe(&down) == 0, pipe(&up) == 0 else { throw POSIXError(.EMFILE) }
        profile = try ScratchDirectory("chromium-cdp")
        let arguments = [path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                         "--remote-debugging-pipe", "--window-size=\(width),\(height)", "--user-data-dir=\(profile.path)", "about:blank"]
        child = try ChildProcess.spawn(arguments, environment: ChildProcess.environment(),
                                       descriptors: [.reading("/dev/null"), .writing(profile.file("stdout")), .writing(profile.file("stderr")),
                                                     .copy(of: down[0]), .copy(of: up[1])],
                                       ownProcessGroup: true, defaultSignals: true)
        Foundation.close(down[0])
        Foundation.close(up[1])
        toBrowser = down[1]
        fromBrowser = up[0]
        _ = fcntl(fromBrowser, F_SETFL, fcntl(fromBrowser, F_GETFL) | O_NONBLOCK)
    }

    /// Ends the browser and everything it started.
    func close() {
        Foundation.close(toBrowser)
        Foundation.close(fromBrowser)
        child.killGroup()
        _ = child.waitBlocking()
        profile.remove()
    }

    /// The value of JavaScript `expression` in the page (awaited if a promise), as JSON
    /// would give it (strings, numbers, Booleans, arrays, objects; nil for undefined or null).
    func evaluate(_ expression: String) async throws -> Any? {
        let result = try await call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw BrowserError(message: "\(exception["text"] ?? "")", details: "\(exception)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// The text of `expression`'s value ("" when it is not a string).
    func text(_ expression: String) async throws -> String {
        try await evaluate(expression) as? String ?? ""
    }

    /// Evaluates `condition` (JavaScript giving a Boolean) until it is true, or
    /// `bound` passes (then false); it is evaluated once more after the bound.
    /// A condition that throws (the page is still loading) counts as false.
    func waitFor(_ condition: String, within bound: Duration = hangBound) async throws -> Bool {
        let deadline = ContinuousClock.now + bound
        while true {
            let late = ContinuousClock.now >= deadline
            let value: Any?
            do { value = try await evaluate(condition) } catch is BrowserError { value = nil }
            if value as? Bool == true { return true }
            if late { return false }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Saves a PNG of what the tab shows to `path`.
    func screenshot(to path: String) async throws {
        let result = try await call("Page.captureScreenshot", ["format": "png"])
        let data = try #require(Data(base64Encoded: result["data"] as? String ?? ""))
        try data.write(to: URL(fileURLWithPath: path))
    }

    // MARK: - The protocol

    /// Sends `method` with `params` (to the tab's session unless `inSession` is false) and returns its result.
    private func call(_ method: String, _ params: [String: Any], inSession: Bool = true) async throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if inSession { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(toBrowser, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; throw POSIXError(.EPIPE) }
                offset += n
            }
        }
        let deadline = ContinuousClock.now + hangBound
        while ContinuousClock.now < deadline {
            while let end = buffer.firstIndex(of: 0) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let reply = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      reply["id"] as? Int == id else { continue }
                if let error = reply["error"] as? [String: Any] {
                    throw BrowserError(message: "\(method): \(error["message"] ?? "")", details: "\(error)")
                }
                return reply["result"] as? [String: Any] ?? [:]
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(fromBrowser, &chunk, chunk.count)
            if n > 0 {
                buffer += chunk[..<n]
            } else if n == 0 {
                throw BrowserError(message: "the browser closed its pipe (\(method))", details: "")
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        throw BrowserError(message: "no answer to \(method) within \(hangBound)", details: "")
    }

    /// What the browser said went wrong.
    struct BrowserError: Error, CustomStringConvertible {
        var message: String
        var details: String
        var description: String { message + (details.isEmpty ? "" : " — " + details) }
    }
}
