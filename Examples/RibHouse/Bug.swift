/// The lifecycle bugs `--bug NAME` can inject, one per run.
///
/// Each one is a mistake real RIBs code makes. The app stays usable (the
/// screens look right) but the napkin tree goes wrong in a way only the
/// lifecycle trace shows; `finding` is the id the trace analysis reports.
enum Bug: String, CaseIterable, Sendable {
    case forgottenDetach = "forgotten-detach"
    case swipeBack = "swipe-back"
    case retainCycle = "retain-cycle"
    case ignoreCancel = "ignore-cancel"
    case earlyTask = "early-task"
    case serviceKeepsChild = "service-keeps-child"
    case prefetchLeak = "prefetch-leak"
    case closureKeepsOrder = "closure-keeps-order"
    case tabKeepsOrder = "tab-keeps-order"

    /// The finding the trace analysis reports for a run with this bug.
    var finding: String {
        switch self {
        case .forgottenDetach: "view-gone-still-attached"
        case .swipeBack: "view-gone-still-attached"
        case .retainCycle: "not-deallocated"
        case .ignoreCancel: "orphaned-task"
        case .earlyTask: "task-started-inactive"
        case .serviceKeepsChild: "undetached-child"
        case .prefetchLeak: "growing-population"
        case .closureKeepsOrder: "not-deallocated"
        case .tabKeepsOrder: "not-deallocated"
        }
    }

    /// What the bug changes in the code, in one sentence.
    var summary: String {
        switch self {
        case .forgottenDetach:
            "LoggedInRouter.routeBackFromOrder pops the order view and drops its router but never calls detachChild"
        case .swipeBack:
            "OrderView ignores being popped, so a swipe back (which skips the Back button) leaves Order attached"
        case .retainCycle:
            "LoggedInInteractor keeps its router in a strong property, so router and interactor keep each other alive after logout"
        case .ignoreCancel:
            "the PitBoard poller never checks Task.isCancelled and waits in an unstructured Task that cancellation cannot reach"
        case .earlyTask:
            "PitBoardBuilder starts the pit poller while building, before the interactor is attached and active"
        case .serviceKeepsChild:
            "the app-wide DeepLinkRegistry holds its handlers strongly, keeping every PitBoard router after logout"
        case .prefetchLeak:
            "the Order screen each menu visit builds for later goes to a static cache without a capacity, which keeps every one"
        case .closureKeepsOrder:
            "each Order asks the app-wide DeepLinkRegistry to call it back when the dish is ready, with a closure that captures its router and is never cleared"
        case .tabKeepsOrder:
            "the guest's CustomerTab remembers the Order screen each dish was added from (to reopen it), keeping the router after Order closed"
        }
    }

    /// The `--list-bugs` text.
    static var catalogue: String {
        let width = allCases.map(\.rawValue.count).max() ?? 0
        return allCases.map { bug in
            let name = bug.rawValue + String(repeating: " ", count: width - bug.rawValue.count)
            return "\(name)  → \(bug.finding)\n\(String(repeating: " ", count: width + 2))\(bug.summary)"
        }.joined(separator: "\n")
    }
}

/// Which bug, if any, this run injects. App-wide, handed down the component tree
/// like any other setting so the napkins that carry a bug can ask for it.
struct BugSwitch: Sendable {
    let injected: Bug?

    func isOn(_ bug: Bug) -> Bool { injected == bug }
}
