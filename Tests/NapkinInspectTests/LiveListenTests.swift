import Foundation
import Testing
import TestSupport

/// `napkin-inspect live --listen` and `live -- COMMAND` with many processes:
/// every connection is a session of its own, and nothing a client sends can
/// crash the inspector or make it hold more than a bounded amount of memory.
/// All traffic is on loopback or unix sockets; apps are `TraceProbe send`
/// (a file's bytes, streamed) and, where the framework is needed, rib-house.
@Suite("napkin-inspect live --listen")
struct LiveListenTests {
    static let clean = CLIHarness.exampleTrace("clean")
    static let swipeBack = CLIHarness.exampleTrace("bug-swipe-back")

    @Test("20 apps streaming at once: 20 separate, complete, clean sessions; --record keeps each byte for byte, and check agrees",
    .disabled(if: runsUnderThreadSanitizer, "20 apps or hundreds of connections: once, in the plain run, is enough"))
    func twentyApps() async throws {
        let directory = try ScratchDirectory("listen-20")
        try FileManager.default.createDirectory(atPath: directory.file("rec"), withIntermediateDirectories: true)
        let outcome = try await ListenScenario(arguments: ["--sessions", "20", "--record", directory.file("rec")], apps: """
            pids=""
            for i in $(seq 20); do "$PROBE" send '\(Self.clean)' 2 & pids="$pids $!"; done
            wait $pids
            """).run(in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        let titles = outcome.stdoutLines.filter { $0.hasPrefix("rib-house (pid 3447) at ") && $0.hasSuffix("(192 events)") }
        #expect(titles.count == 20, "\(outcome)")
        #expect(outcome.stdoutLines.filter { $0 == "No findings." }.count == 20, "\(outcome)")
        #expect(!outcome.stderr.contains("warning"), "\(outcome)")
        let recorded = try FileManager.default.contentsOfDirectory(atPath: directory.file("rec")).sorted()
        #expect(recorded.count == 20, "one file per session, none overwritten: \(recorded)")
        #expect(recorded.contains("rib-house-3447.ndjson") && recorded.contains("rib-house-3447-20.ndjson"), "\(recorded)")
        let original = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.root.path + "/" + Self.clean))
        for name in recorded {
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("rec/" + name))) == original, "\(name)")
        }
        let check = try await CLIHarness.inspect(["check", directory.file("rec")])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdoutLines.filter { $0.hasSuffix("no findings (192 events, ended cleanly)") }.count == 20, "\(check)")
        if let peak = outcome.peakKiB { #expect(peak < 200 * 1024, "peak memory \(peak) KiB") }
    }

    @Test("20 rib-house processes tracing to one listener at once: 20 complete, clean sessions, each recorded; check on the recordings is clean",
    .disabled(if: runsUnderThreadSanitizer, "20 apps or hundreds of connections: once, in the plain run, is enough"))
    func twentyRibHouses() async throws {
        let directory = try ScratchDirectory("listen-rib-20")
        try FileManager.default.createDirectory(atPath: directory.file("rec"), withIntermediateDirectories: true)
        let outcome = try await ListenScenario(arguments: ["--sessions", "20", "--record", directory.file("rec")], apps: """
            pids=""
            for i in $(seq 20); do "$RIBHOUSE" --speed 10 --quiet 2>> "$DIR/apps.err" & pids="$pids $!"; done
            for pid in $pids; do wait $pid || echo "app $pid failed" >> "$DIR/apps.err"; done
            """).run(in: directory, timeout: 240)
        #expect(outcome.status == 0, "\(outcome)")
        let titles = outcome.stdoutLines.filter { $0.hasPrefix("rib-house (pid ") && $0.contains(" at t=") }
        #expect(titles.count == 20, "\(outcome)")
        #expect(Set(titles.map { $0.prefix(while: { $0 != ")" }) }).count == 20, "20 processes, 20 sessions: \(outcome)")
        #expect(outcome.stdoutLines.filter { $0 == "No findings." }.count == 20, "\(outcome)")
        #expect(outcome.stdoutLines.filter { $0 == "(no routers alive)" }.count == 20, "every session complete: \(outcome)")
        #expect(!outcome.stderr.contains("warning") && !outcome.stderr.contains("error"), "\(outcome)")
        let appErrors = (try? String(contentsOfFile: directory.file("apps.err"), encoding: .utf8)) ?? ""
        #expect(appErrors.isEmpty, "the apps say nothing and exit 0: \(appErrors)")
        let recorded = try FileManager.default.contentsOfDirectory(atPath: directory.file("rec"))
        #expect(recorded.count == 20, "\(recorded)")
        let check = try await CLIHarness.inspect(["check", directory.file("rec")])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdoutLines.filter { $0.contains(": no findings (") && $0.hasSuffix("events, ended cleanly)") }.count == 20, "\(check)")
        if let peak = outcome.peakKiB { #expect(peak < 200 * 1024, "peak memory \(peak) KiB") }
    }

    @Test("the inspector killed mid-run and started again: the app keeps running, reconnects, and the second recording is part 2 with the whole tree, clean")
    func inspectorRestarted() async throws {
        let directory = try ScratchDirectory("listen-restart")
        for name in ["rec1", "rec2"] { try FileManager.default.createDirectory(atPath: directory.file(name), withIntermediateDirectories: true) }
        let script = """
            INSPECT="$1"; RIBHOUSE="$2"; DIR="$3"; SOCKET="$DIR/napkin.sock"
            listening() { i=0; until grep -q 'listening on' "$1" 2>/dev/null; do i=$((i + 1)); [ $i -gt 400 ] && exit 97; sleep 0.05; done; }
            "$INSPECT" live --listen "unix:$SOCKET" --record "$DIR/rec1" > "$DIR/a.out" 2> "$DIR/a.err" & first=$!
            listening "$DIR/a.err"
            NAPKIN_TRACE="unix:$SOCKET" "$RIBHOUSE" --loop 2 --speed 1.5 --quiet > "$DIR/app.out" 2> "$DIR/app.err" & app=$!
            sleep 1.5
            kill -KILL $first
            wait $first  # gone for sure (a busy machine delivers the signal late): else its socket is still live
            "$INSPECT" live --listen "unix:$SOCKET" --record "$DIR/rec2" --sessions 1 > "$DIR/b.out" 2> "$DIR/b.err" & second=$!
            wait $app; echo $? > "$DIR/app.status"
            wait $second; echo $? > "$DIR/b.status"
            """
        let run = try await CLIHarness.run("/bin/sh", ["-c", script, "sh", CLIHarness.inspectPath, CLIHarness.ribHousePath, directory.path], timeout: 120)
        func read(_ name: String) -> String { (try? String(contentsOfFile: directory.file(name), encoding: .utf8)) ?? "" }
        #expect(read("app.status") == "0\n", "the app kept running to its end: \(read("app.err")) \(run)")
        #expect(read("b.status") == "0\n", "\(read("b.err")) \(run)")
        #expect(read("app.err").contains("napkin:"), "the app said once that its inspector went away: \(read("app.err"))")
        let second = try FileManager.default.contentsOfDirectory(atPath: directory.file("rec2"))
        #expect(second.count == 1, "\(second)")
        let part = try #require(second.first.map { read("rec2/" + $0) })
        let first = try #require(part.split(separator: "\n").first)
        #expect(first.contains(#""part":2"#) && first.contains(#""lost":"#) && first.contains(#""replay":"#), "the gap is marked: \(first)")
        #expect(read("b.out").hasPrefix("rib-house (pid "), "\(read("b.out"))")
        #expect(read("b.out").contains(", part 2, "), "the heading names the part: \(read("b.out"))")
        #expect(read("b.out").hasSuffix("No findings.\n"), "\(read("b.out"))")
        let check = try await CLIHarness.inspect(["check", directory.file("rec2/" + second[0])])
        #expect(check.status == 0, "part 2 alone is a whole, clean trace: \(check)")
    }

    @Test("live -- sh -c 'rib-house & rib-house; wait': two real processes, two clean sessions, no sequence warnings")
    func commandStartingTwoRibHouses() async throws {
        let script = "\"$0\" --speed 10 --quiet & \"$0\" --speed 10 --quiet; wait"
        let result = try await CLIHarness.inspect(["live", "--", "/bin/sh", "-c", script, CLIHarness.ribHousePath], timeout: 120)
        #expect(result.status == 0, "\(result)")
        let titles = result.stdoutLines.filter { $0.hasPrefix("rib-house (pid ") && $0.contains(" at t=") }
        #expect(Set(titles.map { $0.prefix(while: { $0 != ")" }) }).count == 2, "\(result)")
        #expect(result.stdoutLines.filter { $0 == "No findings." }.count == 2, "\(result)")
        #expect(result.stderr.isEmpty, "no 'seq does not follow', no event-after-deinit: \(result)")
    }

    @Test("hostile clients (garbage, an endless line, hundreds of idle connections) are closed; a real app afterwards is shown",
    .disabled(if: runsUnderThreadSanitizer, "20 apps or hundreds of connections: once, in the plain run, is enough"))
    func hostileClients() async throws {
        let directory = try ScratchDirectory("listen-hostile")
        try directory.write("garbage.txt", "hello, not a trace\n")
        try directory.write("endless.txt", bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 5_000_000))
        // The garbage and the endless line come first: only the first 10
        // rejections are printed, the rest counted, and the flood's idle
        // connections are rejections too.
        let outcome = try await ListenScenario(arguments: ["--sessions", "1"], apps: """
            "$PROBE" send "$DIR/garbage.txt"
            "$PROBE" send "$DIR/endless.txt"
            sleep 0.5
            "$PROBE" connections 600 2500 2> "$DIR/flood.err"
            "$PROBE" send '\(Self.clean)'
            """).run(in: directory, timeout: 180)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdoutLines.first?.hasPrefix("rib-house (pid 3447) at ") == true, "\(outcome)")
        #expect(outcome.stdoutLines.filter { $0 == "No findings." }.count == 1, "\(outcome)")
        #expect(outcome.stderr.contains("not a napkin trace: line 1"), "the garbage: \(outcome)")
        #expect(outcome.stderr.contains("longer than 65536 bytes"), "the endless line: \(outcome)")
        #expect(outcome.stderr.contains("connections in all were not napkin traces and were closed"), "\(outcome)")
        // How many of the 600 connected depends on how busy the machine is; beyond 256 open, the rest are refused.
        let flood = (try? String(contentsOfFile: directory.file("flood.err"), encoding: .utf8)) ?? ""
        let opened = Int(flood.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(opened > 0, "the flood connected: \(flood)")
        if opened > 256 { #expect(outcome.stderr.contains("were already open"), "more than 256 at once are refused: \(outcome)") }
        if let peak = outcome.peakKiB { #expect(peak < 256 * 1024, "peak memory \(peak) KiB: \(outcome)") }
    }

    @Test("a slow loris (half a line, then nothing) is closed after 10 s; the app after it is shown")
    func slowLoris() async throws {
        let directory = try ScratchDirectory("listen-loris")
        let clean = try String(contentsOfFile: PackagePaths.root.path + "/" + Self.clean, encoding: .utf8)
        try directory.write("loris.txt", String(clean.prefix(30)))
        let outcome = try await ListenScenario(arguments: ["--sessions", "1"], apps: """
            "$PROBE" send "$DIR/loris.txt" 0 12000
            "$PROBE" send '\(Self.clean)'
            """).run(in: directory, timeout: 120)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.contains("connection 1 from 127.0.0.1:"), "\(outcome)")
        #expect(outcome.stderr.contains("sent no trace record within 10 s; closed"), "\(outcome)")
        #expect(outcome.stdoutLines.last == "No findings.", "\(outcome)")
    }

    @Test("an app killed in the middle of a line: its session ends with a warning, the other session is untouched")
    func appKilledMidLine() async throws {
        let directory = try ScratchDirectory("listen-cut")
        let original = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.root.path + "/" + Self.swipeBack))
        try directory.write("cut.ndjson", bytes: Array(original.prefix(original.count / 2)))
        let outcome = try await ListenScenario(arguments: ["--sessions", "2"], apps: """
            "$PROBE" send '\(Self.clean)' 0 1500 & other=$!
            "$PROBE" send "$DIR/cut.ndjson" 0 0 9
            wait $other
            """).run(in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdoutLines.filter { $0.hasPrefix("rib-house (pid 3501) at ") }.count == 1, "the cut session: \(outcome)")
        #expect(outcome.stdoutLines.filter { $0.hasPrefix("rib-house (pid 3447) at ") && $0.hasSuffix("(192 events)") }.count == 1, "\(outcome)")
        #expect(outcome.stderr.contains("rib-house (pid 3501)"), "the warning names the cut session: \(outcome)")
        #expect(!outcome.stderr.contains("rib-house (pid 3447)"), "nothing to say about the whole one: \(outcome)")
    }

    @Test("live -- sh -c 'app & app; wait': two processes, two separate sessions, no mixing")
    func commandStartingTwoProcesses() async throws {
        let script = "\"$0\" send \"$1\" 1 & \"$0\" send \"$2\" 1; wait"
        let result = try await CLIHarness.inspect(["live", "--", "/bin/sh", "-c", script, CLIHarness.traceProbePath, Self.clean, Self.swipeBack])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.filter { $0.hasPrefix("rib-house (pid 3447) at ") && $0.hasSuffix("(192 events)") }.count == 1, "\(result)")
        #expect(result.stdoutLines.filter { $0.hasPrefix("rib-house (pid 3501) at ") && $0.hasSuffix("(191 events)") }.count == 1, "\(result)")
        #expect(result.stdoutLines.filter { $0.hasPrefix("  error[view-gone-still-attached] OrderRouter#18") }.count == 1, "\(result)")
        #expect(!result.stderr.contains("seq"), "no sequence warnings: the processes never mix: \(result)")
    }

    @Test("off a terminal the verdict is check's however slowly the lines arrive (slower than the trace's own clock)")
    func slowArrivalSameVerdict() async throws {
        // 191 lines 40 ms apart: 7.6 s of wall time for 4.8 s of trace time.
        let result = try await CLIHarness.inspect(["live", "--", CLIHarness.traceProbePath, "send", Self.swipeBack, "40"], timeout: 120)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.filter { $0.hasPrefix("  error[view-gone-still-attached] OrderRouter#18") }.count == 1, "\(result)")
    }

    @Test("--listen unix:PATH: an app connects through the socket file, which is removed at the end; a regular file there is refused")
    func unixSocket() async throws {
        let directory = try ScratchDirectory("listen-unix")
        let socket = directory.file("napkin.sock")
        let outcome = try await ListenScenario(arguments: ["--sessions", "1"], listen: "unix:" + socket, apps: """
            "$PROBE" send '\(Self.clean)'
            """).run(in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.contains("start the app with NAPKIN_TRACE=unix:\(socket)"), "\(outcome)")
        #expect(outcome.stdoutLines.last == "No findings.", "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed")

        let taken = try directory.write("taken.txt", "mine\n")
        let refused = try await CLIHarness.inspect(["live", "--listen", "unix:" + taken])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderrLines == ["napkin-inspect: cannot listen on \(taken): it exists and is not a socket; remove it or choose another path"], "\(refused)")
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "mine\n", "never touched")
    }

    @Test("--listen on an address other than loopback needs it spelled out, and warns")
    func nonLoopbackWarns() async throws {
        let directory = try ScratchDirectory("listen-any")
        let outcome = try await ListenScenario(arguments: ["--sessions", "1"], listen: "0.0.0.0:0", apps: """
            "$PROBE" send '\(Self.clean)'
            """).run(in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.contains("warning: 0.0.0.0:"), "\(outcome)")
        #expect(outcome.stderr.contains("is not a loopback address"), "\(outcome)")
    }

    @Test("--listen PORT alone listens on 127.0.0.1 only, without a warning; SIGTERM stops it with each session's summary")
    func loopbackByDefault() async throws {
        let directory = try ScratchDirectory("listen-default")
        let outcome = try await ListenScenario(arguments: [], apps: """
            "$PROBE" send '\(Self.clean)'
            """, terminate: true).run(in: directory)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("napkin-inspect: listening on 127.0.0.1:"), "\(outcome)")
        #expect(!outcome.stderr.contains("warning"), "\(outcome)")
        #expect(outcome.stdoutLines.last == "No findings.", "\(outcome)")
    }

    @Test("usage mistakes: exit 2 with one line naming the fix")
    func usageMistakes() async throws {
        let cases: [([String], String)] = [
            (["live", "--listen", "nowhere"], "--listen takes PORT, HOST:PORT or unix:PATH (e.g. --listen 7700), not 'nowhere'"),
            (["live", "--listen", "7700", CLIHarness.exampleTrace("clean")], "--listen waits for apps to connect; give no FILE and no '-- COMMAND' with it"),
            (["live", "--record", "/tmp", CLIHarness.exampleTrace("clean")], "--record and --sessions go with --listen"),
            (["live", "--listen", "0", "--record", "/no/such/napkin-dir"], "--record /no/such/napkin-dir: no such directory; create it first (mkdir -p /no/such/napkin-dir)"),
        ]
        for (arguments, message) in cases {
            let result = try await CLIHarness.inspect(arguments, timeout: 20)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderrLines.first?.contains(message) == true, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }
}
