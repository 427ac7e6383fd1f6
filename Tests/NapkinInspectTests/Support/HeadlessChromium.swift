import Foundation
import TestSupport

/// Debian's `chromium`, run headless on a report the way a person opens it:
/// the page's DOM after its scripts ran (`--dump-dom`), or a screenshot.
///
/// Each run gets its own profile directory, so that tests running in
/// parallel do not share (and lock) one. `.ci/run` installs chromium when it
/// is missing; without it these tests are not run.
enum HeadlessChromium {
    /// The browser, when installed.
    static let path: String? = CLIHarness.executable(named: "chromium")
        ?? CLIHarness.executable(named: "chromium-browser")
        ?? CLIHarness.executable(named: "chromium-headless-shell")

    /// The DOM of `file` (an absolute path) opened at `#fragment`, after its scripts ran.
    /// `virtualTime` (milliseconds) lets the page's timers and events run that
    /// long first, on a clock the browser moves on as fast as it can.
    static func dom(of file: String, fragment: String = "", virtualTime: Int? = nil, timeout: Double = 120) async throws -> String {
        let budget = virtualTime.map { ["--virtual-time-budget=\($0)"] } ?? []
        let result = try await run(budget + ["--dump-dom", url(file, fragment)], timeout: timeout)
        return result.stdout
    }

    /// Saves a screenshot of `file` at `#fragment`, `width` × `height` pixels, to `png`.
    static func screenshot(of file: String, fragment: String = "", to png: String, width: Int = 1400, height: Int = 1000) async throws {
        _ = try await run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)", url(file, fragment)], timeout: 120)
    }

    /// `file:///path#fragment`, the path's characters escaped as a URL needs.
    private static func url(_ file: String, _ fragment: String) -> String {
        URL(fileURLWithPath: file).absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
    }

    /// Runs the browser with `arguments` and a fresh profile.
    private static func run(_ arguments: [String], timeout: Double) async throws -> CLIResult {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let profile = try ScratchDirectory("chromium")
        defer { profile.remove() }
        return try await CLIHarness.run(path, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                               "--user-data-dir=\(profile.path)"] + arguments, timeout: timeout)
    }
}
