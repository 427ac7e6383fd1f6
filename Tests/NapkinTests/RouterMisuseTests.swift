import Foundation
import Napkin
import NapkinTrace
import Testing

/// Misuse of the router tree is reported without tracing (`docs/lifecycle.md`,
/// section 3.7): each case changes only what the table says, and writes one
/// warning line naming the call, the routers' types and the fix.
@Suite("Router misuse")
@MainActor
struct RouterMisuseTests {
    /// The warning lines `body` makes, with the reporting set to warn for this task only.
    private func warnings(_ body: () async -> Void) async -> [String] {
        let lines = Locked<[String]>([])
        await RouterMisuse.withReporting(.warning) {
            await RouterMisuse.$warningSink.withValue({ line in lines.withLock { $0.append(line) } }) {
                await body()
            }
        }
        return lines.withLock { $0 }
    }

    /// `RouterMisuseTests.swift:<line>`, as a warning names the call.
    private static func here(_ line: Int) -> String { "NapkinTests/RouterMisuseTests.swift:\(line)" }

    @Test("attaching a router that is already a child: changes nothing, one warning naming the call, the types and the fix")
    func alreadyAChild() async {
        let parent = RecordedHostRouter(), child = RecordedMenuRouter()
        await parent.attachChild(child)
        var line = 0
        let lines = await warnings {
            line = #line; await parent.attachChild(child)
        }
        #expect(parent.children.count == 1 && parent.children.first === child)
        #expect(child.interactor.lifecycle.isActiveNow)
        #expect(lines == ["napkin: misuse: RecordedHostRouter.attachChild(RecordedMenuRouter) at \(Self.here(line)): "
                          + "RecordedMenuRouter is already a child of it; the call changed nothing; fix: attach a child once, or detach it first"])
        await parent.detachChild(child)
    }

    @Test("detaching a router that is not a child: changes nothing, one warning; a second detach warns again")
    func notAChild() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log), child = TestRouter("c", log: log), stranger = TestRouter("s", log: log)
        await parent.attachChild(child)
        await parent.detachChild(child)
        var line = 0
        let lines = await warnings {
            line = #line; await parent.detachChild(stranger)
            await parent.detachChild(child)
        }
        #expect(parent.children.isEmpty)
        #expect(log.all == ["c+", "c.load", "c-"])
        #expect(lines.count == 2)
        #expect(lines.first == "napkin: misuse: TestRouter.detachChild(TestRouter) at \(Self.here(line)): TestRouter is not a child of it; "
                + "the call changed nothing; fix: detach a child once, from the router that attached it")
    }

    @Test("attaching a router another router still lists: goes on (both list it, it stays active), one warning naming the other parent")
    func childOfAnotherParent() async {
        let first = RecordedHostRouter(), second = RecordedTabRouter(), child = RecordedMenuRouter()
        await first.attachChild(child)
        var line = 0
        let lines = await warnings {
            line = #line; await second.attachChild(child)
        }
        #expect(first.children.first === child && second.children.first === child)
        #expect(child.interactor.lifecycle.isActiveNow)
        #expect(lines == ["napkin: misuse: RecordedTabRouter.attachChild(RecordedMenuRouter) at \(Self.here(line)): "
                          + "RecordedMenuRouter is still a child of RecordedHostRouter; both now list it; fix: detach it from RecordedHostRouter first"])
        // Detached from both, it can go anywhere without a warning.
        let after = await warnings {
            await second.detachChild(child)
            await first.detachChild(child)
            await second.attachChild(child)
            await second.detachChild(child)
        }
        #expect(after.isEmpty)
    }

    @Test("correct moves between parents warn nothing: detach then attach elsewhere, and a released parent's child")
    func correctMovesAreSilent() async {
        let first = RecordedHostRouter(), second = RecordedTabRouter(), child = RecordedMenuRouter()
        var released: RecordedHostRouter? = RecordedHostRouter()
        let lines = await warnings {
            await first.attachChild(child)
            await first.detachChild(child)
            await second.attachChild(child)
            await second.detachChild(child)
            // A parent released while it lists the child no longer counts as its parent.
            await released!.attachChild(child)
            released = nil
            await first.attachChild(child)
            await first.detachChild(child)
        }
        #expect(lines.isEmpty, "\(lines)")
        #expect(first.children.isEmpty && second.children.isEmpty)
    }

    @Test("attaching a router under itself or its own descendant (a cycle): refused, nothing activated, one warning each")
    func cycle() async {
        let log = HookLog()
        let top = TestRouter("top", log: log), middle = TestRouter("middle", log: log), leaf = TestRouter("leaf", log: log)
        await top.attachChild(middle)
        await middle.attachChild(leaf)
        await middle.detachChild(leaf)
        await middle.attachChild(leaf)
        await top.detachChild(middle) // middle and leaf inactive, middle keeps leaf
        let before = log.all.count
        var lines: [Int] = []
        let warned = await warnings {
            await leaf.attachChild(top) // top is not above leaf: no cycle
            await leaf.detachChild(top)
            lines.append(#line); await leaf.attachChild(middle) // middle is leaf's parent
            lines.append(#line); await leaf.attachChild(leaf) // itself
        }
        #expect(leaf.children.isEmpty && middle.children.count == 1)
        #expect(Array(log.all.dropFirst(before)) == ["top+", "top.load", "top-"])
        #expect(warned == [
            "napkin: misuse: TestRouter.attachChild(TestRouter) at \(Self.here(lines[0])): TestRouter is an ancestor of it (a cycle); refused; "
                + "fix: detach it from its place in the tree before attaching it lower down",
            "napkin: misuse: TestRouter.attachChild(TestRouter) at \(Self.here(lines[1])): TestRouter is this router itself; refused; "
                + "fix: detach it from its place in the tree before attaching it lower down",
        ])
        // A longer way round (top > middle > leaf) is refused too.
        await top.attachChild(middle)
        let around = await warnings { await leaf.attachChild(top) }
        #expect(around.count == 1 && around.first?.contains("an ancestor of it (a cycle)") == true, "\(around)")
        #expect(leaf.children.isEmpty && top.children.count == 1)
        await top.detachChild(middle)
    }

    @Test("a call through the Routing protocol has no location: the warning leaves it out")
    func noLocation() async {
        let parent: Routing = RecordedHostRouter()
        let lines = await warnings { await parent.detachChild(RecordedMenuRouter()) }
        #expect(lines == ["napkin: misuse: RecordedHostRouter.detachChild(RecordedMenuRouter): RecordedMenuRouter is not a child of it; "
                          + "the call changed nothing; fix: detach a child once, from the router that attached it"])
    }

    @Test("with tracing on the trace still records each misuse, as well as the warning")
    func traceStillRecords() async {
        let recorder = TraceRecorder(app: "misuse")
        var parent: RecordedHostRouter?, child: RecordedMenuRouter?
        let lines = await warnings {
            await recorder.record { () async -> Void in
                parent = RecordedHostRouter()
                child = RecordedMenuRouter()
                await parent!.attachChild(child!)
                await parent!.attachChild(child!)
                await child!.attachChild(parent!)
                await child!.detachChild(parent!)
                await parent!.detachChild(child!)
            }
        }
        #expect(lines.count == 3, "\(lines)")
        let report = await recorder.analyzeOnOwnThread(grace: .seconds(2))
        #expect(report.findings(.doubleAttach).count == 1, "\(report)")
        #expect(report.findings(.attachUnderDescendant).count == 1, "\(report)")
        #expect(report.findings(.detachNonChild).count == 1, "\(report)")
        #expect(parent!.children.isEmpty && child!.children.isEmpty)
    }

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("the process-wide setting: a misuse warns on standard error and the program goes on")
    func processWideWarning() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            RouterMisuse.reporting = .warning
            let parent = await RecordedHostRouter(), child = await RecordedMenuRouter()
            await parent.detachChild(child)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("napkin: misuse: RecordedHostRouter.detachChild(RecordedMenuRouter) at NapkinTests/RouterMisuseTests.swift:"), "\(text)")
    }
    #endif

    @Test("the process-wide setting starts as NAPKIN_MISUSE says: assertion unless it is warn")
    func defaultReporting() {
        let warn = ProcessInfo.processInfo.environment["NAPKIN_MISUSE"] == "warn"
        #expect(RouterMisuse.reporting == (warn ? .warning : .assertion))
    }

    #if DEBUG && (os(macOS) || os(Linux)) // exit tests: Swift Testing has none on iOS
    @Test("with assertion (the default) a debug build stops at a misuse")
    func debugAssertion() async {
        await #expect(processExitsWith: .failure) {
            RouterMisuse.reporting = .assertion // as if NAPKIN_MISUSE were unset
            let parent = await RecordedHostRouter(), child = await RecordedMenuRouter()
            await parent.detachChild(child)
        }
    }
    #endif
}
