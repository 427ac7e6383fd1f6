import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// The pieces of `check --format sarif`: URIs, the lines of events in a
/// trace, the cap on results, and a report built from values.
@Suite("SARIF report parts")
struct SARIFPartsTests {
    @Test("paths: made absolute by their text, relative to the source root inside it, a file URI outside, percent-encoded")
    func locator() {
        let sources = SourceRoot(directory: "app/./src/../")
        let locator = SARIFLocator(sources: sources, currentDirectory: "/home/me/repo")
        #expect(locator.baseIDs["%SRCROOT%"]?.uri == "file:///home/me/repo/app/")
        let inside = locator.file("app/traces/run 1#?.ndjson", line: 7)
        #expect(inside.artifactLocation.uri == "traces/run%201%23%3F.ndjson" && inside.artifactLocation.uriBaseId == "%SRCROOT%")
        #expect(inside.region.startLine == 7)
        let outside = locator.file("../elsewhere/t.ndjson", line: 0)
        #expect(outside.artifactLocation.uri == "file:///home/me/elsewhere/t.ndjson" && outside.artifactLocation.uriBaseId == nil)
        #expect(outside.region.startLine == 1, "lines start at 1")
        let absolute = locator.file("/tmp/ä:b%.ndjson", line: 2)
        #expect(absolute.artifactLocation.uri == "file:///tmp/%C3%A4%3Ab%25.ndjson")
        let guess = locator.guess(CodeLocation(fileID: "My App/Router.swift", line: 9))
        #expect(guess?.artifactLocation.uri == "My%20App/Router.swift" && guess?.region.startLine == 9)
        #expect(SARIFLocator.components("/a/../../b/./c//d", in: "/x") == ["b", "c", "d"])
    }

    @Test("the line of each sequence number: of the first event with it, as the reader counts lines")
    func seqLines() throws {
        let scratch = try ScratchDirectory("seq-lines")
        let path = try scratch.write("t.ndjson", """
            {"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":1,"wall":0}
            not a record "seq": 99

            {"t":5, "seq": 2,"ev":"mark","text":"\\"seq\\":3"}
            {"seq":3,"t":6,"ev":"mark","text":"x"}\r
            {"seq":4,"t":7,"ev":"teleport"}
            {"seq":5,"t":8,"ev":"mark","text":"y"}
            {"seq":1,"t":0,"ev":"session","v":1,"app":"a","pid":1,"wall":0}
            {"seq":2,"t":1,"ev":"mark","text":"again"}
            {"seq":6,"t":9,"ev":"mark"
            """)
        // 4 is of an unknown kind, 6 is cut short, 99 is on no record: no event; 1 and 2 again: their first.
        let found = SARIFResults.lines(of: [1, 2, 3, 4, 5, 6, 99], in: path)
        #expect(found == [1: 1, 2: 4, 3: 5, 5: 7])
        #expect(SARIFResults.lines(of: [1], in: scratch.file("missing.ndjson")).isEmpty)
        #expect(SARIFResults.lines(of: [], in: path).isEmpty)
    }

    @Test("over the cap: trace problems first, then errors, then warnings, each in order; the kept ones in their order")
    func cap() {
        let candidates: [(rank: Int, result: String)] = [(2, "w1"), (1, "e1"), (0, "p1"), (2, "w2"), (1, "e2"), (0, "p2")]
        #expect(CheckSARIFReport.keeping(candidates, max: 6) == ["w1", "e1", "p1", "w2", "e2", "p2"])
        #expect(CheckSARIFReport.keeping(candidates, max: 3) == ["e1", "p1", "p2"])
        #expect(CheckSARIFReport.keeping(candidates, max: 4) == ["e1", "p1", "e2", "p2"])
        #expect(CheckSARIFReport.keeping(candidates, max: 0).isEmpty)
        #expect(CheckSARIFReport.maxResults == 25_000)
    }

    @Test("from values: a trace problem, the findings not kept, a finding whose code is not found and whose trace is not a file")
    func fromValues() throws {
        let finding = Finding(rule: .orphanedTask, subject: .task, type: "FeedInteractor", id: 7, label: "poll", seqs: [40], time: 0, message: "still runs",
                              locations: [.init(.started, CodeLocation(fileID: "Feed/FeedInteractor.swift", line: 31)),
                                          .init(.created, CodeLocation(fileID: "Feed/Nowhere.swift", line: 3))])
        let trace = FindingGroupsTests.checked([finding], notKept: 12_345, problems: ["sequence-gap: seq 5 missing"])
        let scratch = try ScratchDirectory("sarif-values")
        let text = CheckSARIFReport.render([trace], sources: SourceRoot(directory: scratch.path), exitStatus: 2)
        let log = try SARIFValidation.check(text)
        #expect(log.invocation["executionSuccessful"] as? Bool == false && log.invocation["exitCode"] as? Int == 2)
        #expect(log.results.map { $0["ruleId"] as? String } == ["trace-integrity", "orphaned-task"])
        // t.ndjson is not a file: the finding's #fileID is the best guess; the trace problem names the trace
        // (outside the source root: a file URI).
        let guessed = try #require(SARIFValidation.place(log.results[1]))
        #expect(guessed.uri == "Feed/FeedInteractor.swift" && guessed.line == 31)
        let problem = try #require(SARIFValidation.place(log.results[0]))
        #expect(problem.uri.hasPrefix("file:///") && problem.uri.hasSuffix("/t.ndjson") && problem.line == 1, "\(problem)")
        #expect(log.results[1]["relatedLocations"] == nil, "a related location only for a file that is found")
        let properties = try #require(log.results[1]["properties"] as? [String: Any])
        #expect(properties["codeLocations"] as? [String] == ["started=Feed/FeedInteractor.swift:31", "created=Feed/Nowhere.swift:3"])
        #expect(SARIFValidation.fingerprint(log.results[1]) == finding.fingerprint)
        let notes = log.invocation["toolExecutionNotifications"] as? [[String: Any]] ?? []
        #expect(notes.count == 1 && notes.first?["level"] as? String == "warning")
        #expect(((notes.first?["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("t.ndjson: 12,345 more findings were established but not kept") == true)
    }

    @Test("a function (recorded on a device): no file, no guess, never a region; a logical location with its last component as name")
    func functions() throws {
        let builder = CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:)")
        let scratch = try ScratchDirectory("sarif-functions")
        // Even a file whose name the function's text would give is not taken.
        try scratch.write("LoggedInBuilder.build(withListener:)", "")
        let locator = SARIFLocator(sources: SourceRoot(directory: scratch.path), currentDirectory: scratch.path)
        #expect(locator.code(builder) == nil)
        #expect(locator.guess(builder) == nil)
        let logical = try #require(SARIFLocator.logical(builder))
        #expect(logical.name == "build(withListener:)" && logical.fullyQualifiedName == "LoggedInBuilder.build(withListener:)" && logical.kind == "function")
        #expect(SARIFLocator.logical(CodeLocation(module: "App", function: "makeRoot()"))?.name == "makeRoot()")
        #expect(SARIFLocator.logical(CodeLocation(module: "App", function: "A.B.c(x:y:)"))?.name == "c(x:y:)")
        #expect(SARIFLocator.logical(CodeLocation(fileID: "App/A.swift", line: 3)) == nil)

        // Its only code location a function, its trace not a file: the trace's name, line 1, as a finding
        // without code; the function related, with its role and its index.
        let finding = Finding(rule: .aliveAtEnd, subject: .router, type: "LoggedInRouter", id: 4, seqs: [8], time: 0, message: "still alive",
                              locations: [.init(.created, builder), .init(.attached, CodeLocation(fileID: "RibHouse/Nowhere.swift", line: 5))])
        let trace = FindingGroupsTests.checked([finding])
        let log = try SARIFValidation.check(CheckSARIFReport.render([trace], sources: SourceRoot(directory: scratch.path), exitStatus: 1))
        let result = try #require(log.results.first)
        // The first line (the attach, not found) is the guess; the function is never one.
        #expect(SARIFValidation.place(result)?.uri == "RibHouse/Nowhere.swift" && SARIFValidation.place(result)?.line == 5)
        let related = try #require(result["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1 && related[0]["id"] as? Int == 0 && related[0]["physicalLocation"] == nil)
        #expect((related[0]["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String == "LoggedInBuilder.build(withListener:)")
        #expect(SARIFValidation.messageText(result["message"]).hasSuffix("; at RibHouse/LoggedInBuilder.build(withListener:) (created)"))
        // Only the function: the trace's name, line 1.
        let alone = Finding(rule: .aliveAtEnd, subject: .router, type: "LoggedInRouter", id: 4, seqs: [8], time: 0, message: "still alive",
                            locations: [.init(.created, builder)])
        let aloneLog = try SARIFValidation.check(CheckSARIFReport.render([FindingGroupsTests.checked([alone])],
                                                                         sources: SourceRoot(directory: scratch.path), exitStatus: 1))
        let place = try #require(SARIFValidation.place(aloneLog.results[0]))
        #expect(place.uri.hasSuffix("/t.ndjson") && place.line == 1, "\(place)")
        #expect((aloneLog.results[0]["locations"] as? [[String: Any]])?.first?["logicalLocations"] == nil)
    }
}
