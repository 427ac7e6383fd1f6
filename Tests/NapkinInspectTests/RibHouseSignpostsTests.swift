import Foundation
import NapkinTrace
import Testing
import TestSupport

/// What Instruments would show of a rib-house run: the run is recorded with
/// `NAPKIN_TRACE`, and its events, the ones the tracer emitted, are fed
/// through the signpost seam (``SignpostIntervals``, the observer a tracer
/// calls on every emit when signposts are on) to a recording signposter.
/// Apple's signposter sits behind the same seam; only a Mac shows the result
/// in Instruments (docs/apple.md, "Instruments").
@Suite("rib-house's signpost intervals")
struct RibHouseSignpostsTests {
    @Test("a rib-house run makes one well-formed interval per attach, activation, bound task and shown view, all ended")
    func ribHouseRun() async throws {
        let events = try await RibHouseRoundsTests.record([])
        let recording = RecordingSignposter()
        let intervals = SignpostIntervals(emitter: RecordingEmitter(recording))
        for event in events { intervals.observe(event.kind) }
        let lines = recording.lines

        // The routers' attached intervals, in the order the app navigates (Examples/RibHouse/README.md).
        let attached: [String] = lines.filter { $0.hasPrefix("begin Router attached ") }.map { String($0.split(separator: " ")[3]) }
        let loggedIn: [String] = ["LoggedInRouter", "MenuRouter", "PitBoardRouter", "AnnouncementsRouter"]
        var navigation: [String] = ["LaunchNapkinRouter", "LoggedOutRouter"]
        navigation += loggedIn
        navigation += ["OrderRouter", "OrderRouter", "LoggedOutRouter"]
        navigation += loggedIn
        navigation += ["LoggedOutRouter"]
        #expect(attached == navigation, "\(lines.joined(separator: "\n"))")
        let tasks: [String] = lines.filter { $0.hasPrefix("begin Bound task ") }.map { line in
            line.split(separator: " ").dropFirst(3).dropLast().joined(separator: " ")
        }
        #expect(tasks == ["PitBoardInteractor pit-poller", "AnnouncementsInteractor announcements",
                          "PitBoardInteractor pit-poller", "AnnouncementsInteractor announcements"], "\(lines)")

        // Every interval ends once, after it began; nothing is left open at the end.
        var open: Set<String> = []
        for line in lines {
            let words = line.split(separator: " ", maxSplits: 1)
            let interval = String(words[1])
            switch words[0] {
            case "begin": #expect(open.insert(interval).inserted, "begun twice: \(line)")
            case "end": #expect(open.remove(interval) != nil, "ended without a begin: \(line)")
            default: #expect(words[0] == "event", "\(line)")
            }
        }
        #expect(open.isEmpty, "left open: \(open.sorted())")
        #expect(intervals.openIntervals.isEmpty)

        // As many intervals as the trace has attaches and launches, activations, task starts and shown views.
        let begins = lines.count { $0.hasPrefix("begin ") }
        let expected = events.count { event in
            switch event.kind {
            case .attach, .launch, .activate, .taskStart: true
            case .view(_, let appearance): appearance == .shown
            case .sessionStart, .interactorCreated, .routerCreated, .detach, .deactivate, .hookEnd, .load,
                 .taskCancel, .taskEnd, .deallocated, .mark, .dropped, .sessionEnd, .retained: false
            }
        }
        #expect(begins == expected, "\(lines)")
        #expect(lines.contains("event Mark #0 round 1"))
    }

    @Test("NAPKIN_SIGNPOSTS in a real app: where the os module is missing (Linux) one line says so and the app runs; a wrong value is named")
    func environmentInTheApp() async throws {
        let on = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet"], environment: ["NAPKIN_SIGNPOSTS": "on"])
        #expect(on.status == 0, "\(on)")
        #if canImport(os)
        #expect(!on.stderr.contains("signposts"), "\(on)")
        #else
        #expect(on.stderrLines.filter { $0.contains("signposts") }
                    == ["napkin: signposts need Apple's os module, which this platform lacks; signposts are off"], "\(on)")
        #endif
        let wrong = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet"], environment: ["NAPKIN_SIGNPOSTS": "yes"])
        #expect(wrong.status == 0, "\(wrong)")
        #expect(wrong.stderr.contains("NAPKIN_SIGNPOSTS=yes: 'yes' is not a signpost setting; use on, poi or off; signposts are off"), "\(wrong)")
    }
}
