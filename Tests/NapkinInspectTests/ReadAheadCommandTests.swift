import Foundation
import NapkinTrace
import Testing
import TestSupport

/// A trace file of more than 1 MiB is read ahead on a second thread
/// (`TraceInput`, `TraceReader.readAhead`); standard input never is. The same
/// damaged trace with findings, given both ways, must give the same output,
/// the same diagnostics and the same exit status, whether the command reads
/// it to the end or stops early (`tree --at SEQ`).
@Suite("Commands read a large file ahead: the same output as from standard input")
struct ReadAheadCommandTests {
    /// A trace of about 2 MB: 2,500 screens attached and detached one after
    /// the other, every 500th not deallocated (a finding), with damaged lines,
    /// the app's own output and records out of order on both sides of the
    /// reader's 2,048-event batches, and a cut last line.
    static let trace: [UInt8] = {
        var bytes: [UInt8] = []
        var seq: UInt64 = 0
        var time: UInt64 = 0
        var events = 0
        func record(_ kind: TraceEvent.Kind) {
            seq += 1
            time += 1_000_000
            TraceEncoder.append(TraceEvent(seq: seq, time: time, kind: kind), to: &bytes)
            events += 1
            // Damage where the batches meet, and a little elsewhere.
            if events % 2_048 >= 2_046 || events % 2_048 == 0 || events % 2_048 == 1 || events % 3_001 == 0 {
                switch (events / 2_048 + events) % 3 {
                case 0: bytes += Array(#"{"seq":\#(seq + 1),"t":\#(time),"ev":"mark","text":"cut}"#.utf8) + [10]
                case 1: bytes += Array("[app] saving state \(events)\n".utf8)
                default:
                    TraceEncoder.append(TraceEvent(seq: seq - 1, time: time, kind: .mark(text: "late")), to: &bytes)
                    events += 1
                }
            }
        }
        record(.sessionStart(SessionInfo(app: "ReadAheadApp", pid: 4242, wallClock: 1_700_000_000_000_000_000)))
        record(.interactorCreated(id: 1, type: "RootInteractor"))
        record(.routerCreated(id: 2, type: "RootRouter", interactor: 1, interactorType: "RootInteractor"))
        record(.launch(router: 2))
        record(.activate(interactor: 1))
        record(.load(router: 2))
        for k in 0..<2_500 {
            let router = NodeID(2 * k + 4), interactor = NodeID(2 * k + 3)
            record(.interactorCreated(id: interactor, type: "Screen\(k % 40)Interactor"))
            record(.routerCreated(id: router, type: "Screen\(k % 40)Router", interactor: interactor,
                                  interactorType: "Screen\(k % 40)Interactor"))
            record(.attach(parent: 2, child: router))
            record(.activate(interactor: interactor))
            record(.load(router: router))
            record(.mark(text: "screen \(k) shows its content, with some text to make the trace long enough"))
            record(.detach(parent: 2, child: router))
            record(.deactivate(interactor: interactor))
            if k % 500 != 7 {
                record(.deallocated(id: router))
                record(.deallocated(id: interactor))
            }
        }
        time += 2_000_000_000
        record(.sessionEnd(reason: "exit"))
        bytes += Array(#"{"seq":\#(seq + 1),"t":\#(time),"ev":"ma"#.utf8)
        return bytes
    }()

    /// Runs `napkin-inspect ARGUMENTS` on the trace as a file and on standard
    /// input, and expects the same, the file's path aside.
    static func expectSame(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (file: CLIResult, stdin: CLIResult) {
        let directory = try ScratchDirectory("read-ahead")
        let path = try directory.write("large-trace.ndjson", bytes: trace)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, sourceLocation: sourceLocation)
        #expect(size > 1 << 20, "too small to be read ahead", sourceLocation: sourceLocation)

        var fileArguments = arguments, stdinArguments = arguments
        fileArguments.insert(path, at: 1)
        stdinArguments.insert("-", at: 1)
        let file = try await CLIHarness.inspect(fileArguments, timeout: 300)
        let stdin = try await CLIHarness.inspect(stdinArguments, stdin: .file(path), timeout: 300)

        // The file's name as the commands write it, in text and in JSON (with `/` escaped or not).
        func normalised(_ text: String) -> String {
            text.replacingOccurrences(of: path.replacingOccurrences(of: "/", with: "\\/"), with: "-")
                .replacingOccurrences(of: path, with: "-")
        }
        #expect(file.status == stdin.status, "file: \(file)\nstdin: \(stdin)", sourceLocation: sourceLocation)
        #expect(normalised(file.stdout) == stdin.stdout, "file: \(file)\nstdin: \(stdin)", sourceLocation: sourceLocation)
        #expect(normalised(file.stderr) == stdin.stderr, "file: \(file)\nstdin: \(stdin)", sourceLocation: sourceLocation)
        return (file, stdin)
    }

    @Test("check: the findings, the diagnostics (the first five of each kind, then how many more) and the damage",
          .timeLimit(.minutes(10)))
    func check() async throws {
        let (file, _) = try await Self.expectSame(["check"])
        // 2: findings, in a damaged trace (its verdict cannot be trusted).
        #expect(file.status == 2, "\(file)")
        #expect(file.stdout.contains("not-deallocated"), "\(file)")
        // The trace's damage is reported, so the comparison covers diagnostics.
        #expect(file.stderr.contains("error:") && file.stderr.contains("more errors not shown"), "\(file)")
        #expect(file.stderr.contains("warning:") && file.stderr.contains("cut short"), "\(file)")
        #expect(file.stderr.contains("note:"), "\(file)")
    }

    @Test("check --format json", .timeLimit(.minutes(10)))
    func checkJSON() async throws {
        let (file, _) = try await Self.expectSame(["check", "--format", "json"])
        #expect(file.status == 2, "\(file)")
        #expect(file.stdout.contains("not-deallocated"), "\(file)")
        #expect(file.stderr.contains("more errors not shown"), "\(file)")
    }

    @Test("stats, as text and as JSON", .timeLimit(.minutes(10)))
    func stats() async throws {
        let (text, _) = try await Self.expectSame(["stats"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("ReadAheadApp"), "\(text)")
        let (json, _) = try await Self.expectSame(["stats", "--format", "json"])
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout.contains("ReadAheadApp"), "\(json)")
    }

    @Test("tree --at SEQ stops reading part way; tree at the end reads it all", .timeLimit(.minutes(10)))
    func tree() async throws {
        let (early, _) = try await Self.expectSame(["tree", "--at", "6000"])
        #expect(early.status == 0, "\(early)")
        #expect(early.stdout.contains("(after seq 6000)"), "\(early)")
        // Only the diagnostics before seq 6000 (the first at about event 2,046).
        #expect(early.stderr.contains("error:") || early.stderr.contains("note:") || early.stderr.contains("warning:"), "\(early)")
        #expect(!early.stderr.contains("cut short"), "\(early)")
        let (end, _) = try await Self.expectSame(["tree"])
        #expect(end.status == 0, "\(end)")
        #expect(end.stdout.contains("not-deallocated"), "\(end)")
    }

    @Test("timeline", .timeLimit(.minutes(10)))
    func timeline() async throws {
        let (file, _) = try await Self.expectSame(["timeline"])
        #expect(file.status == 0, "\(file)")
        #expect(file.stdout.contains("Screen"), "\(file)")
    }
}
