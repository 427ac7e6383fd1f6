import NapkinTrace
import Testing

/// The finding's sentence once a retainer search found what holds its
/// object: the question gives way to the answer (issue 41).
@Suite("Finding: the sentence names what retains it")
struct RetainedSentenceTests {
    private func leak(_ message: String) -> Finding {
        Finding(rule: .notDeallocated, subject: .router, type: "LoggedInRouter", id: 6, seqs: [9], time: 1, message: message)
    }

    private let question = "detached, but still alive 1s later: something retains it (a strong reference in an interactor, listener or service: a retain cycle?)"

    @Test("a cycle: 'retained by a cycle through' its suspect reference; the question is gone")
    func cycle() {
        var finding = leak(question)
        finding.retainers = Retainers(paths: ["LoggedInRouter#6.interactor → LoggedInInteractor#5.retainedRouter (suspect) → LoggedInRouter#6 (cycle)"],
                                      found: 1, total: 1, note: nil)
        #expect(finding.message == "detached, but still alive 1s later: retained by a cycle through LoggedInInteractor#5.retainedRouter")
    }

    @Test("a holder that is no cycle: 'retained by' its suspect reference")
    func holder() {
        var finding = leak(question)
        finding.retainers = Retainers(paths: ["HostInteractor#12.store (suspect) → ScreenStore.screens[0] → LoggedInRouter#6"], found: 1, total: 2, note: "n")
        #expect(finding.message == "detached, but still alive 1s later: retained by HostInteractor#12.store")
    }

    @Test("no path (a search cut short, or none found): the question stays")
    func noPath() {
        var finding = leak(question)
        finding.retainers = Retainers(paths: [], found: 0, total: nil, note: "Not searched: the process was exiting.")
        #expect(finding.message == question)
    }
}
