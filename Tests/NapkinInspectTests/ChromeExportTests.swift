import Foundation
import Testing
import TestSupport

/// `napkin-inspect export --format chrome` on recorded traces: the output is
/// a Chrome trace a viewer reads (valid JSON, known phases, slices that nest
/// and end), and each napkin thing is where docs/export.md says, at the
/// trace's times in microseconds.
@Suite("napkin-inspect export --format chrome")
struct ChromeExportTests {
    static let clean = CLIHarness.exampleTrace("clean")
    static let ignoreCancel = CLIHarness.exampleTrace("bug-ignore-cancel")
    /// The names a router's state slices may have.
    static let stateNames: Set<String> = {
        var names: Set<String> = []
        for base in ["active", "inactive", "created", "created · active", "detached", "detached · active"] {
            names.insert(base)
            names.insert(base + " · view shown")
        }
        return names
    }()

    /// Runs `export ARGUMENTS`, expects success with nothing on stderr, and parses stdout.
    static func export(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ChromeTraceFile {
        let result = try await CLIHarness.inspect(["export"] + arguments)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let file = try ChromeTraceFile(result.stdoutData, sourceLocation: sourceLocation)
        #expect(file.problems.isEmpty, "\(file.problems.prefix(20))", sourceLocation: sourceLocation)
        return file
    }

    /// `a` and `b` (microseconds) are the same time to the nanosecond.
    static func same(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) < 0.0005
    }

    @Test("a clean trace: one process, a track per router with its lifetime and states, marks, no findings")
    func cleanTrace() async throws {
        let result = try await CLIHarness.inspect(["export", "--format", "chrome", Self.clean])
        #expect(result.stdout.hasPrefix("{\"traceEvents\":[\n"))
        #expect(result.stdout.hasSuffix("\"tool\":\"napkin-inspect\"}}\n"))
        let file = try await Self.export([Self.clean])
        let records = try TraceRecords.read(Self.clean)
        let pid = 3447
        #expect(file.metadataName("process_name", pid: pid) == "rib-house")
        #expect(Set(file.events.compactMap(\.pid)) == [pid])

        let created = Dictionary(records.filter { $0["ev"] as? String == "interactor" }
            .map { (TraceRecords.number($0, "id")!, TraceRecords.number($0, "t")!) }, uniquingKeysWith: { a, _ in a })
        let deinits = Dictionary(records.filter { $0["ev"] as? String == "deinit" }
            .map { (TraceRecords.number($0, "id")!, TraceRecords.number($0, "t")!) }, uniquingKeysWith: { a, _ in a })
        let routers = records.filter { $0["ev"] as? String == "router" }
        #expect(routers.count == 14)
        var lifetimeIDs: Set<String> = []
        for router in routers {
            let id = try #require(TraceRecords.number(router, "id"))
            let name = "\(router["type"] as? String ?? "")#\(id)"
            // The router's slice starts with its unit: its interactor, created just before it.
            let start = min(TraceRecords.number(router, "t")!, created[TraceRecords.number(router, "interactor")!] ?? .max)
            let begins = file.events("b").filter { $0.name == name }
            try #require(begins.count == 1, "\(name): \(begins.count) lifetime slices")
            let begin = begins[0]
            #expect(begin.cat == "napkin.router" && begin.id == TraceRecords.hex(id), "\(name)")
            #expect(Self.same(begin.ts, Double(start) / 1000), "\(name) starts at \(begin.ts ?? -1), not \(Double(start) / 1000)")
            #expect(begin.args["type"] as? String == router["type"] as? String)
            #expect(file.metadataName("thread_name", pid: pid, tid: begin.tid ?? -1) == name, "\(name): its thread is not named after it")
            #expect(lifetimeIDs.insert(begin.id ?? "").inserted, "\(name): id \(begin.id ?? "") is another router's too")
            let end = try #require(file.events("e").first { $0.name == name && $0.id == begin.id })
            if let gone = deinits[id] {
                #expect(Self.same(end.ts, Double(gone) / 1000), "\(name) ends at \(end.ts ?? -1), not at its deinit")
                #expect(!end.isUnfinished)
            } else {
                #expect(end.isUnfinished, "\(name) is alive at the end: its slice is unfinished")
                // And so is its last state, cut by the end of the trace with it.
                let last = file.events("e").filter { $0.track == begin.track && $0.name != name }.last
                #expect(last?.isUnfinished == true && last?.ts == end.ts, "\(name): its last state is not unfinished")
            }
            // Its states: nested slices on its track, one after another, from its start to its end.
            let states = file.events("b").filter { $0.track == begin.track && $0.name != name }
            #expect(!states.isEmpty, "\(name) has no state slices")
            for state in states { #expect(Self.stateNames.contains(state.name), "\(name): unknown state \(state.name)") }
            #expect(states.first?.ts == begin.ts)
        }
        // The launched root, and a router attached under it, say so.
        let launch = try #require(file.events("b").first { $0.id == "0x2" && $0.name == "active" })
        #expect(launch.args["launched"] as? Bool == true)
        #expect(file.events("b").contains { $0.id == "0x6" && $0.args["attached_to"] as? String == "LaunchNapkinRouter#2" })
        #expect(file.events("b").contains { $0.name.hasSuffix("view shown") })

        let marksThread = try #require(file.thread(named: "marks", pid: pid))
        let marks = records.filter { $0["ev"] as? String == "mark" }
        let instants = file.events("i").filter { $0.tid == marksThread }
        #expect(instants.count == marks.count)
        for (mark, instant) in zip(marks, instants) {
            #expect(instant.name == mark["text"] as? String)
            #expect(instant.cat == "napkin.mark")
            #expect(Self.same(instant.ts, Double(TraceRecords.number(mark, "t")!) / 1000))
        }
        #expect(file.thread(named: "findings", pid: pid) == nil)
        #expect(!file.events.contains { $0.cat == "napkin.finding" })
    }

    @Test("a bug trace: findings as instants with rule, message and code locations; tasks under their owner, unfinished when they never end")
    func bugTrace() async throws {
        let file = try await Self.export([Self.ignoreCancel])
        let pid = 3521
        let findingsThread = try #require(file.thread(named: "findings", pid: pid))
        // What `check` reports is what the export shows.
        let check = try await CLIHarness.inspect(["check", Self.ignoreCancel, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdoutData) as? [String: Any])
        let findings = try #require(((report["traces"] as? [[String: Any]])?.first?["findings"]) as? [[String: Any]])
        #expect(findings.count == 2)
        let instants = file.events("i").filter { $0.tid == findingsThread }
        #expect(instants.count == findings.count)
        for finding in findings {
            let label = (finding["label"] as? String).map { " '\($0)'" } ?? ""
            let name = "\(finding["severity"] as! String)[\(finding["rule"] as! String)] \(finding["type"] as! String)#\(finding["id"] as! Int)\(label)"
            let instant = try #require(instants.first { $0.name == name }, "no instant \(name)")
            #expect(instant.cat == "napkin.finding")
            #expect(Self.same(instant.ts, (finding["time_ns"] as! Double) / 1000))
            #expect(instant.args["rule"] as? String == finding["rule"] as? String)
            #expect(instant.args["message"] as? String == finding["message"] as? String)
            #expect(instant.args["locations"] as? [String] == ["RibHouse/PitBoardInteractor.swift:55 (started)"])
            #expect(instant.args["documentation"] as? String == "docs/findings.md#orphaned-task")
        }
        // Each finding is also on its subject's track (the router that owns the task's interactor).
        let onTracks = file.events("n").filter { $0.name == "error[orphaned-task]" }
        #expect(onTracks.count == 2)
        for instant in onTracks {
            let owner = try #require(file.events("b").first { $0.track == instant.track && $0.name.hasPrefix("PitBoardRouter#") })
            #expect(owner.tid == instant.tid)
        }

        // Tasks: a track each, named after the owner, on its owner's thread.
        let records = try TraceRecords.read(Self.ignoreCancel)
        let starts = records.filter { $0["ev"] as? String == "task_start" }
        #expect(starts.count == 4)
        var owners: [UInt64: String] = [:]
        for router in records where router["ev"] as? String == "router" {
            owners[TraceRecords.number(router, "interactor")!] = "\(router["type"] as! String)#\(TraceRecords.number(router, "id")!)"
        }
        for start in starts {
            let task = TraceRecords.number(start, "task")!
            let owner = try #require(owners[TraceRecords.number(start, "owner")!])
            let begin = try #require(file.events("b").first { $0.cat == "napkin.task" && $0.id == TraceRecords.hex(task) && !$0.name.hasPrefix("cancel") })
            #expect(begin.name == "\(owner) task '\(start["label"] as! String)'")
            #expect(begin.args["owner"] as? String == owner)
            #expect(Self.same(begin.ts, Double(TraceRecords.number(start, "t")!) / 1000))
            let ownerSlice = try #require(file.events("b").first { $0.name == owner })
            #expect(begin.tid == ownerSlice.tid, "\(begin.name) is not on its owner's thread")
            let end = try #require(file.events("e").first { $0.track == begin.track && $0.name == begin.name })
            if let ended = records.first(where: { $0["ev"] as? String == "task_end" && TraceRecords.number($0, "task") == task }) {
                #expect(Self.same(end.ts, Double(TraceRecords.number(ended, "t")!) / 1000))
                #expect(end.args["outcome"] as? String == ended["outcome"] as? String)
            } else {
                #expect(end.isUnfinished, "\(begin.name) never ended: unfinished")
                #expect(file.events("b").contains { $0.track == begin.track && $0.name == "cancel requested" })
            }
        }
    }

    @Test("a trace that ends with routers and tasks alive: their slices end at the trace's end, unfinished", arguments: [
        ("not-deallocated", "OrderRouter#4"), ("orphaned-task-at-end", "ImageCacheRouter#5 task 'warm-up'"),
    ])
    func openAtEnd(_ fixture: String, _ slice: String) async throws {
        let file = try await Self.export([CLIHarness.fixture(fixture)])
        let end = try #require(file.events("e").first { $0.name == slice })
        #expect(end.isUnfinished)
        #expect(Self.same(end.ts, 2_600_000), "the trace ends at 2.6 s")
        #expect(file.endByPID[4242] == 2_600_000)
        // What is nested in it and still open is cut with it: for a router, its last state.
        let cut = file.events("e").filter { $0.track == end.track && $0.ts == end.ts }
        #expect(cut.allSatisfy { $0.isUnfinished }, "\(cut.map(\.name))")
        #expect(cut.count == (slice.contains("task") ? 1 : 2), "\(cut.map(\.name))")
        // Its begin has no such mark: only the end that was not in the trace says so.
        #expect(file.events("b").contains { $0.name == slice && !$0.isUnfinished })
    }

    @Test("a directory and repeated pids: a process per trace, distinct pids, a note on stderr, the same bytes every time")
    func severalTraces() async throws {
        let scratch = try ScratchDirectory("export-dir")
        let clean = try String.repoFile(Self.clean)
        try scratch.write("a.ndjson", clean)
        try scratch.write("b.ndjson", clean)
        try scratch.write("c.ndjson", try String.repoFile(Self.ignoreCancel))
        let result = try await CLIHarness.inspect(["export", scratch.path])
        #expect(result.status == 0, "\(result)")
        let note = try #require(result.stderrLines.first)
        #expect(result.stderrLines.count == 1)
        #expect(note.contains("b.ndjson") && note.contains("pid 3447 is also the pid of a.ndjson") && note.contains("10000001"), "\(note)")
        let file = try ChromeTraceFile(result.stdoutData)
        #expect(file.problems.isEmpty, "\(file.problems.prefix(20))")
        #expect(file.metadataName("process_name", pid: 3447) == "rib-house (a.ndjson)")
        #expect(file.metadataName("process_name", pid: 10_000_001) == "rib-house (b.ndjson, pid 3447)")
        #expect(file.metadataName("process_name", pid: 3521) == "rib-house (c.ndjson)")
        #expect(Set(file.events.compactMap(\.pid)) == [3447, 10_000_001, 3521])
        // The two copies of one trace are the same events in two processes.
        let a = file.events.filter { $0.pid == 3447 }, b = file.events.filter { $0.pid == 10_000_001 }
        #expect(a.count == b.count)
        #expect(a.map(\.name) == b.map(\.name))
        #expect(a.map(\.ts) == b.map(\.ts))
        let again = try await CLIHarness.inspect(["export", scratch.path])
        #expect(again.stdoutData == result.stdoutData, "the export is not deterministic")
    }

    @Test("a file with two sessions: a process each, with its own routers, tasks and findings")
    func twoSessions() async throws {
        let path = HostileCorpus.directory + "/two-sessions.ndjson"
        let result = try await CLIHarness.inspect(["export", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("note: \(path) (session 2): pid 4242 is also the pid of session 1 of the same file; exported as pid 10000001"))
        let file = try ChromeTraceFile(result.stdoutData)
        #expect(file.problems.isEmpty, "\(file.problems.prefix(20))")
        #expect(file.metadataName("process_name", pid: 4242) == "hostile (two-sessions.ndjson)")
        #expect(file.metadataName("process_name", pid: 10_000_001) == "second (two-sessions.ndjson, session 2, pid 4242)")
        for pid in [4242, 10_000_001] {
            #expect(file.events("b").filter { $0.pid == pid && $0.cat == "napkin.task" && $0.name.hasSuffix("task 'poll'") }.count == 1)
            #expect(file.events("i").filter { $0.pid == pid && $0.cat == "napkin.finding" }.map(\.name)
                    == ["error[not-deallocated] ChildRouter#4", "error[orphaned-task] ChildRouterI#3 'poll'"])
        }
    }

    @Test("hostile names (quotes, backslashes, controls, </script>, separators) still give valid JSON that says them exactly")
    func hostileNames() async throws {
        let scratch = try ScratchDirectory("export-hostile")
        let router = "R\"q\\b\u{1B}[31m</script>\u{2028}\u{7F}\u{9B}&<>"
        let label = "l\"\u{0}</SCRIPT>"
        let mark = "m\\\"\u{1}\u{202E}"
        func json(_ text: String) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description }
        let trace = """
            {"seq":1,"t":0,"ev":"session","v":1,"app":\(try json("app</script>\u{1}")),"pid":77,"wall":1}
            {"seq":2,"t":1000,"ev":"interactor","id":1,"type":"I"}
            {"seq":3,"t":1500,"ev":"router","id":2,"type":\(try json(router)),"interactor":1,"itype":"I"}
            {"seq":4,"t":2000,"ev":"launch","id":2}
            {"seq":5,"t":2500,"ev":"activate","id":1}
            {"seq":6,"t":3000,"ev":"task_start","task":3,"owner":1,"label":\(try json(label))}
            {"seq":7,"t":4000,"ev":"mark","text":\(try json(mark))}
            {"seq":8,"t":5000,"ev":"end","reason":"exit"}

            """
        let path = try scratch.write("hostile.ndjson", trace)
        let result = try await CLIHarness.inspect(["export", path])
        #expect(result.status == 0, "\(result)")
        if let problem = OutputSafety.problem(in: result.stdoutData) { Issue.record("stdout: \(problem)") }
        #expect(!result.stdout.lowercased().contains("</script"), "a raw </script> could end an HTML script element")
        let file = try ChromeTraceFile(result.stdoutData)
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.metadataName("process_name", pid: 77) == "app</script>\u{1}")
        #expect(file.events("b").contains { $0.name == router + "#2" })
        #expect(file.metadataName("thread_name", pid: 77, tid: 3) == router + "#2")
        #expect(file.events("b").contains { $0.name == "\(router)#2 task '\(label)'" && $0.args["label"] as? String == label })
        #expect(file.events("i").contains { $0.name == mark })
    }

    @Test("every file of the hostile corpus: the documented status, and a valid, nested trace", arguments: HostileCorpus.cases)
    func hostileCorpus(_ item: HostileCorpus.Case) async throws {
        let variant = HostileCorpus.Variant(name: "export", arguments: ["export"])
        let result = try await CLIHarness.inspect(["export", HostileCorpus.directory + "/" + item.file], timeout: 300, memoryLimit: 1_024)
        let expected = try #require(item.expectedStatus(variant))
        // `export` reports no findings by its status: where `check` exits 1, it exits 0.
        #expect(result.status == (expected == 1 ? 0 : expected), "\(result)")
        if let problem = OutputSafety.problem(in: result.stdoutData) { Issue.record("stdout: \(problem)") }
        if let problem = OutputSafety.problem(in: result.stderrData) { Issue.record("stderr: \(problem)") }
        if result.status == 0 {
            let file = try ChromeTraceFile(result.stdoutData)
            #expect(file.problems.isEmpty, "\(file.problems.prefix(20))")
        } else {
            #expect(result.stdout.isEmpty, "a failed export printed a part of a trace")
        }
    }

    @Test("-o FILE: written whole, replaced when it is an earlier export or empty, never otherwise (exit 2, file untouched)")
    func outputFile() async throws {
        let scratch = try ScratchDirectory("export-o")
        let out = scratch.file("out.json")
        let first = try await CLIHarness.inspect(["export", Self.clean, "-o", out])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.isEmpty)
        let line = try #require(first.stderrLines.first)
        #expect(first.stderrLines.count == 1 && line.hasPrefix("napkin-inspect: wrote \(out): ") && line.contains("1 process"), "\(line)")
        let written = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(try ChromeTraceFile(written).problems.isEmpty)
        let stdout = try await CLIHarness.inspect(["export", Self.clean])
        #expect(written == stdout.stdoutData, "-o writes what standard output gets")

        // An earlier export is replaced; so is an empty file.
        let second = try await CLIHarness.inspect(["export", Self.ignoreCancel, "--output", out])
        #expect(second.status == 0, "\(second)")
        #expect(try ChromeTraceFile(Data(contentsOf: URL(fileURLWithPath: out))).metadataName("process_name", pid: 3521) == "rib-house")
        let empty = try scratch.write("empty.json", "")
        #expect(try await CLIHarness.inspect(["export", Self.clean, "-o", empty]).status == 0)

        // Anything else is refused, before any work, and left as it was.
        let others = [("notes.txt", "my notes\n"), ("other.json", "{\"traceEvents\":[]}\n"),
                      ("trace.ndjson", try String.repoFile(Self.clean))]
        for (name, text) in others {
            let path = try scratch.write(name, text)
            let refused = try await CLIHarness.inspect(["export", Self.clean, "-o", path])
            let message = try refused.expectOneStderrLine(status: 2, emptyStdout: true)
            #expect(message == "napkin-inspect: refusing to overwrite \(path): it is not a napkin export (give another path, or delete the file first)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "\(name) was changed")
        }
        let directory = try await CLIHarness.inspect(["export", Self.clean, "-o", scratch.path])
        #expect(try directory.expectOneStderrLine(status: 2, emptyStdout: true).contains("cannot write the export \(scratch.path): it is a directory (give a file path)"))
        let nowhere = try await CLIHarness.inspect(["export", Self.clean, "-o", scratch.file("no/such/dir/out.json")])
        #expect(try nowhere.expectOneStderrLine(status: 2, emptyStdout: true).contains("cannot write the export \(scratch.file("no/such/dir/out.json")): no directory \(scratch.file("no/such/dir")) (create it first)"))
        // A trace that cannot be read leaves the earlier export as it was, and no temporary file.
        let before = try Data(contentsOf: URL(fileURLWithPath: out))
        let bad = try await CLIHarness.inspect(["export", Self.clean, "/no/such/trace.ndjson", "-o", out])
        #expect(bad.status == 2, "\(bad)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".napkin-export") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var mentions: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: [], mentions: ["missing trace file", "napkin-inspect export FILE|DIR... [-o FILE] [options]"]),
        UsageCase(arguments: [clean, "--format", "svg"], mentions: ["'--format' must be one of chrome, otlp; got 'svg'"]),
        UsageCase(arguments: [clean, "-o"], mentions: ["'--output' needs a value: --output FILE"]),
        UsageCase(arguments: [clean, "--output"], mentions: ["'--output' needs a value: --output FILE"]),
        UsageCase(arguments: [clean, "-x"], mentions: ["unknown option '-x' for 'export'", "napkin-inspect export --help"]),
        UsageCase(arguments: [clean, "-ofile.json"], mentions: ["unknown option '-o' for 'export'"]),
        UsageCase(arguments: [clean, "--", "ls"], mentions: ["'export' does not run a command", "remove '--'"]),
        UsageCase(arguments: [clean, "--grace", "soon"], mentions: ["'--grace' needs a duration"]),
        UsageCase(arguments: ["/no/such/trace.ndjson"], mentions: ["/no/such/trace.ndjson"]),
        UsageCase(arguments: ["Tests/Fixtures/hostile/not-a-trace.txt"], mentions: ["not-a-trace.txt"]),
        UsageCase(arguments: ["Tests/Fixtures/hostile/empty.ndjson"], mentions: ["empty.ndjson: empty: no trace records"]),
    ]

    @Test("usage errors and unusable input: exit 2, nothing on stdout, one line on stderr", arguments: usageCases)
    func usageError(_ usage: UsageCase) async throws {
        let result = try await CLIHarness.inspect(["export"] + usage.arguments)
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        for fragment in usage.mentions {
            #expect(line.contains(fragment), "\(line) lacks \(fragment)")
        }
    }
}
