import Foundation
import Testing
import TestSupport

/// `napkin-inspect live --web PORT` as a user runs it: the page in a real
/// browser (headless Chromium, driven over the DevTools protocol), the tree
/// of RibHouse changing while the visit plays, the retain cycle's finding
/// arriving with its `retained by:` path, stepping back to an earlier tree,
/// following again, and the page saying when the inspector went away and
/// came back.
@Suite("napkin-inspect live --web in a browser", .enabled(if: HeadlessChromium.path != nil, "chromium is not installed"),
       .serialized)
struct LiveWebTests {
    /// `napkin-inspect live --web PORT ARGUMENTS` running in the background.
    struct WebInspect {
        let child: ChildProcess
        let scratch: ScratchDirectory
        /// The page's address, as the inspector printed it.
        let url: String

        /// Starts the inspector and waits until it says where the page is.
        static func start(_ arguments: [String], port: UInt16 = 0) async throws -> WebInspect {
            let scratch = try ScratchDirectory("live-web")
            let env = ChildProcess.environment(removing: ["NO_COLOR", "NAPKIN_TRACE", "NAPKIN_DETECT"])
            let child = try ChildProcess.spawn(["/bin/sh", "-c", "cd -- \"$1\" && shift && exec \"$@\"", "sh", PackagePaths.root.path,
                                                CLIHarness.inspectPath, "live", "--web", "\(port)"] + arguments,
                                               environment: env,
                                               descriptors: [.reading("/dev/null"), .writing(scratch.file("stdout")), .writing(scratch.file("stderr"))],
                                               ownProcessGroup: true, defaultSignals: true)
            var url = ""
            let found = await waitUntil {
                let text = (try? String(contentsOfFile: scratch.file("stderr"), encoding: .utf8)) ?? ""
                guard let range = text.range(of: "the page is at ") else { return child.exitStatus() != nil }
                url = String(text[range.upperBound...].prefix { $0 != " " && $0 != "\n" })
                return true
            }
            guard found, !url.isEmpty else {
                child.killGroup()
                let err = (try? String(contentsOfFile: scratch.file("stderr"), encoding: .utf8)) ?? ""
                throw CLITimeout(command: arguments, seconds: 0, stdout: "", stderr: err)
            }
            return WebInspect(child: child, scratch: scratch, url: url)
        }

        /// Stops it as Ctrl-C does (SIGINT); its exit status, standard output and error.
        func stop() async throws -> (status: ChildProcess.Status?, stdout: String, stderr: String) {
            _ = kill(child.pid, SIGINT)
            let status = try await child.wait(until: .now + hangBound)
            child.killGroup()
            if status == nil { _ = child.waitBlocking() }
            defer { scratch.remove() }
            return (status, (try? String(contentsOfFile: scratch.file("stdout"), encoding: .utf8)) ?? "",
                    (try? String(contentsOfFile: scratch.file("stderr"), encoding: .utf8)) ?? "")
        }
    }

    /// The text of the page's tree panel.
    static let treeText = "document.getElementById('tree').innerText"

    @Test("the RibHouse tree changes while the visit plays; the retain cycle arrives with its path; stepping back shows an earlier tree")
    func ribHouseLive() async throws {
        // The visit plays until the inspector stops it (--loop 0): a browser that
        // starts late on a busy machine still sees the tree change.
        let inspect = try await WebInspect.start(["--", CLIHarness.ribHousePath, "--loop", "0", "--quiet", "--bug", "retain-cycle"])
        let browser: BrowserSession
        do { browser = try await BrowserSession.open(inspect.url) } catch { _ = try await inspect.stop(); throw error }
        defer { browser.close() }

        // The tree, as it changes: at least three different trees with RibHouse's routers.
        let changed = try await browser.waitFor("""
            (() => { const t = \(Self.treeText); window.__trees = window.__trees || new Set();
                     if (t.includes('Router#')) window.__trees.add(t); return window.__trees.size >= 3; })()
            """)
        let tree = try await browser.text(Self.treeText)
        #expect(changed, "the tree did not change while the visit played: \(tree)")
        let banner = try await browser.text("document.getElementById('live-status').innerText")
        #expect(banner.contains("connected"), "\(banner)")

        // The leak: the finding with its retained-by path.
        let found = try await browser.waitFor("document.getElementById('findings').innerText.includes('retained by:')")
        let findings = try await browser.text("document.getElementById('findings').innerText")
        #expect(found, "no finding with its path on the page: \(findings)")
        #expect(findings.contains("not-deallocated") && findings.contains("LoggedInRouter#"), "\(findings)")
        #expect(findings.contains("LoggedInInteractor#") && findings.contains("retainedRouter"), "\(findings)")

        // The finding's subject opens the node's details: its creation and attach lines.
        _ = try await browser.evaluate("document.querySelector('#findings button.subject').click()")
        let detailed = try await browser.waitFor("document.getElementById('details').innerText.includes('LoggedInBuilder.swift:21')")
        let details = try await browser.text("document.getElementById('details').innerText")
        #expect(detailed, "\(details)")
        #expect(details.contains("LaunchNapkinRouter.swift:50, detached at ") && details.contains("retained by:"), "\(details)")
        _ = try await browser.evaluate("document.getElementById('follow').click()")

        // Stepping back: the first moment's tree is not the newest one, and the page says it is paused.
        let newest = try await browser.text(Self.treeText)
        _ = try await browser.evaluate("document.getElementById('first').click()")
        let back = try await browser.waitFor("document.getElementById('live-mode').innerText.startsWith('paused')")
        let early = try await browser.text(Self.treeText)
        #expect(back, "stepping back did not pause the page")
        #expect(early != newest, "the first moment shows the newest tree: \(early)")
        // The moment stays while snapshots arrive.
        try await Task.sleep(for: .seconds(1))
        let still = try await browser.text(Self.treeText)
        #expect(still == early)
        // Following again.
        _ = try await browser.evaluate("document.getElementById('follow').click()")
        let following = try await browser.waitFor("document.getElementById('live-mode').innerText === 'live'")
        #expect(following)

        let (status, stdout, stderr) = try await inspect.stop()
        #expect(status?.code == 0, "\(String(describing: status)) \(stderr)")
        #expect(stdout.contains("error[not-deallocated] LoggedInRouter#"), "the summary after the page: \(stdout)")
    }

    @Test("the page says when the inspector stops, and that sessions start over when it comes back on the same port")
    func reconnects() async throws {
        let fixture = CLIHarness.fixture("growing-population")
        let first = try await WebInspect.start(["--no-follow", fixture])
        let port = try #require(URL(string: first.url)?.port)
        let browser: BrowserSession
        do { browser = try await BrowserSession.open(first.url) } catch { _ = try await first.stop(); throw error }
        defer { browser.close() }
        let status = "document.getElementById('live-status').innerText"
        let drawn = try await browser.waitFor("\(Self.treeText).includes('OrderRouter#')")
        let connected = try await browser.waitFor("\(status).includes('connected')")
        let firstTree = try await browser.text(Self.treeText)
        #expect(drawn && connected, "\(firstTree)")

        _ = try await first.stop()
        let gone = try await browser.waitFor("\(status).includes('disconnected')")
        let goneBanner = try await browser.text(status)
        #expect(gone, "\(goneBanner)")

        let second = try await WebInspect.start(["--no-follow", fixture], port: UInt16(port))
        let restarted = try await browser.waitFor("\(status).includes('restarted')")
        let redrawn = try await browser.waitFor("\(Self.treeText).includes('OrderRouter#')")
        let backBanner = try await browser.text(status)
        #expect(restarted && redrawn, "\(backBanner)")
        _ = try await second.stop()
    }
}

/// `live --web`'s arguments and the errors a user can meet before any page:
/// one line naming the problem and the fix, exit status 2.
@Suite("napkin-inspect live --web: bad arguments")
struct LiveWebArgumentTests {
    @Test("a port that is not one, --host without --web, --sessions with --web, an empty host",
          arguments: [(["--web", "abc"], "'--web' takes a port from 0 to 65535 (0 picks a free one), e.g. --web 8080; got 'abc'"),
                      (["--web", "70000"], "got '70000'"),
                      (["--host", "0.0.0.0"], "--host goes with --web PORT"),
                      (["--web", "0", "--host", ""], "--host needs an address"),
                      (["--web", "0", "--listen", "0", "--sessions", "2"], "--sessions does not go with --web")])
    func badArguments(_ arguments: [String], _ message: String) async throws {
        let result = try await CLIHarness.inspect(["live"] + arguments + (arguments.contains("--listen") ? [] : ["--no-follow", CLIHarness.fixture("growing-population")]))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test("a port in use: one line naming it and the fix, exit 2")
    func portInUse() async throws {
        let first = try await LiveWebTests.WebInspect.start(["--no-follow", CLIHarness.fixture("growing-population")])
        let port = try #require(URL(string: first.url)?.port)
        let second = try await CLIHarness.inspect(["live", "--web", "\(port)", "--no-follow", CLIHarness.fixture("growing-population")])
        _ = try await first.stop()
        #expect(second.status == 2, "\(second)")
        #expect(second.stderr.contains("cannot serve the live page on 127.0.0.1:\(port): port \(port) is in use; choose another port, or 0 for a free one"), "\(second.stderr)")
    }
}
