/// The help `check --format sarif` gives for each finding rule (`help.text`
/// and `help.markdown` of its `reportingDescriptor`), taken from the rule's
/// section of docs/findings.md: the paragraph after **What it means.**,
/// **Typical cause.** and **Fix.**, each with the list or code block that
/// follows it when it ends with a colon, line breaks as there.
///
/// The binary cannot read the documentation where it runs (an app's CI has
/// no napkin-inspect checkout), so the text is kept here, in
/// `Finding.Rule.allCases` order. `SARIFRuleHelpTests` extracts the same
/// text from docs/findings.md and fails, naming the rule and the paragraph,
/// until both say the same; a new rule needs its entry here.
enum SARIFRuleHelp {
    /// The three parts of one rule's section, without their bold labels.
    struct Paragraphs: Sendable {
        /// After **What it means.**
        let meaning: String
        /// After **Typical cause.**
        let cause: String
        /// After **Fix.**
        let fix: String
    }

    /// The help of the rule with id `rule`, if it has an entry.
    static func paragraphs(_ rule: String) -> Paragraphs? {
        table.first { $0.rule == rule }?.paragraphs
    }

    /// Every rule's help, in `Finding.Rule.allCases` order.
    static let table: [(rule: String, paragraphs: Paragraphs)] = [
        ("undetached-child", Paragraphs(
            meaning: #"""
                A router was still attached to its parent when the parent
                was deallocated (the parent never called `detachChild` for it), and one grace
                period after the parent's deinit the child is still alive and has not been
                attached anywhere else. Its seqs are the parent's `deinit`.
                """#,
            cause: #"""
                A service, cache or coordinator keeps a strong reference
                to a child router (to "reuse" it, or to call it back), and the parent is torn
                down without detaching its children first. The child keeps its subtree, its
                interactor and any observation it holds alive, invisible in the tree.
                """#,
            fix: #"""
                Do not store routers in services; store the data and rebuild the
                napkin. If something must call back into a napkin, give it a weak reference
                to a listener protocol. And detach children in the parent when it goes away:

                ```swift
                final class LoggedInRouter: Router<LoggedInInteractor> {
                    private var pitBoard: Routing?

                    func routeAwayFromPitBoard() async {
                        guard let pitBoard else { return }
                        self.pitBoard = nil
                        await detachChild(pitBoard)
                    }
                }

                final class PitBoardService {
                    weak var listener: PitBoardListener?     // not: var router: PitBoardRouter
                }
                ```
                """#)),
        ("not-deallocated", Paragraphs(
            meaning: #"""
                One of two things, both one grace period after the event
                that should have ended an object's life:

                - *a router*: it was detached (a `detach` of the router itself, from a
                  parent in the live tree or from a parent that had already left it) and is
                  still alive and not back in the live tree. Its seqs are the `detach`.
                - *an interactor*: its router was deallocated and the interactor is still
                  alive, not owned by a new router, and has no running bound task. Its seqs
                  are the router's `deinit`.
                """#,
            cause: #"""
                A retain cycle: the interactor holds its router strongly
                (`var router: HomeRouting?` instead of `weak var`), an interactor holds its
                *listener* (the parent interactor) strongly, a closure stored in a
                long-lived object captures `self` strongly, or a service keeps the router or
                interactor (an interactor registered as a delegate with a strong reference).
                The first case leaks the router; the others often leak only the interactor.
                """#,
            fix: #"""
                Make back-references weak, and capture weakly in stored closures:

                ```swift
                final actor HomeInteractor: Interactable {
                    nonisolated let lifecycle = InteractorLifecycle()
                    weak var router: HomeRouting?        // was: var router: HomeRouting?
                    weak var listener: HomeListener?     // listeners are always weak

                    func didBecomeActive() async {
                        service.onChange = { [weak self] value in
                            Task { await self?.update(value) }
                        }
                    }
                }
                ```
                """#)),
        ("orphaned-task", Paragraphs(
            meaning: #"""
                A task bound to an interactor's active scope
                (`task(named:)`, `task { }`) is still running:

                - one grace period after its owner interactor *deactivated* (napkin cancels
                  bound tasks right after `willResignActive`; in a trace that records hook
                  ends, the grace period starts when `willResignActive` returned, and tasks
                  whose owner's `willResignActive` never returned were never cancelled: that
                  is [`stuck-hook`](#stuck-hook)), and the owner has not become active again
                  meanwhile; or
                - one grace period after its owner was *deallocated*; or
                - at the end of the trace, while its owner is inactive or gone, when no
                  earlier check covered it (typically a task started while the owner was
                  inactive, which is never activated).
                """#,
            cause: #"""
                A loop that never checks for cancellation: `while true`
                around a `Task.sleep` whose error is swallowed by `try?`, a `for await` over
                a sequence that does not end on cancellation, a long synchronous computation,
                or waiting on a continuation nobody resumes. When the task captures `self`,
                it also keeps the interactor alive (that is reported here too, not as
                `not-deallocated`).
                """#,
            fix: #"""
                Check for cancellation in every loop, and let cancellation errors end
                the task:

                ```swift
                func didBecomeActive() async {
                    task(named: "pit-poller") { [service] in
                        while !Task.isCancelled {
                            let board = await service.fetchBoard()
                            await self.show(board)
                            do { try await Task.sleep(for: .seconds(2)) } catch { return }   // not: try?
                        }
                    }
                }
                ```
                """#)),
        ("task-started-inactive", Paragraphs(
            meaning: #"""
                A `task_start` whose owner interactor was not active at
                that moment (never activated yet, or already deactivated). Reported at once,
                with the `task_start` seq. Napkin runs such a task, and cancels it at the
                *next* deactivation, so it may run for the whole time the napkin is detached
                or before it is ever attached.
                """#,
            cause: #"""
                Work started in the interactor's `init`, in the builder,
                or from a callback that arrives after `willResignActive` (a stored closure, a
                notification observer that was not removed).
                """#,
            fix: #"""
                Start work in `didBecomeActive`; it is cancelled when the napkin
                resigns:

                ```swift
                final actor MenuInteractor: Interactable {
                    nonisolated let lifecycle = InteractorLifecycle()

                    func didBecomeActive() async {
                        task(named: "prefetch") { [menu] in await menu.prefetch() }   // not in init
                    }
                }
                ```
                """#)),
        ("active-after-detach", Paragraphs(
            meaning: #"""
                An interactor that is still active one grace period after
                its router left the live tree (the router or an ancestor was detached from
                the live tree, or the router or an ancestor was deallocated while in it),
                unless the router is back in the live tree by then. Its seqs are the event
                that took the router out of the tree. In napkin the `deactivate` record is written when deactivation *starts*,
                so this means deactivation did not even begin.
                """#,
            cause: #"""
                The interactor's actor is busy: `didBecomeActive` is still
                running (it awaits a slow network call, or never returns), so the
                deactivation napkin requested waits behind it. In a trace that records hook
                ends (napkin's own, from format revision 1) that case is reported as
                [`stuck-hook`](#stuck-hook) instead, and so is an interactor below a detached
                router whose `willResignActive` never returned; this rule then finds the
                rest. Less often, a custom `Routing` implementation (a mock, a hand-written
                router) that removes children without deactivating them.
                """#,
            fix: #"""
                Keep `didBecomeActive` short: start long work in a bound task
                instead of awaiting it in the hook.
                """#)),
        ("stuck-hook", Paragraphs(
            meaning: #"""
                An interactor's `didBecomeActive` or `willResignActive`
                started (its `activate` or `deactivate` record) and had not returned (no
                `hook_end` record after it) one grace period later, or was still running at
                the end of the trace after running at least that long (a hook that started
                less than a grace period before the end is undecided). While a hook runs,
                napkin's lifecycle waits for it. After a `didBecomeActive` that does not
                return, a detach of its router cannot deactivate the interactor
                (`willResignActive` never runs, its bound tasks are never cancelled), and the
                `attachChild` (or `launch`) that activated it never returns, so its router
                never loads. After a `willResignActive` that does not return, its bound
                tasks are never cancelled and the `detachChild` that deactivates it waits,
                so the interactors below it stay active. Either way the interactor, and its
                router held by the waiting call, stay alive. The seqs are the hook's start
                and the detach that could not deactivate it (for `willResignActive`: the
                detach that started it), when there is one. Only traces that record hook
                ends are checked: napkin writes them from format revision 1 (`"rev":1` in
                the session record; `docs/trace-format.md` describes both). An older trace
                never gets this finding; there the same bug shows as
                [`active-after-detach`](#active-after-detach) (and a `not-deallocated` router).
                """#,
            cause: #"""
                Long work awaited in the hook itself: a `for await` loop
                over a stream of updates written right in `didBecomeActive` (it returns only
                when the stream ends, usually never), an `await` on a slow network call or on
                something that waits for the tree, or in `willResignActive` an `await` on a
                save or an acknowledgement that never comes.
                """#,
            fix: #"""
                Start long work with `task {}` (or `task(named:)`, which names it in
                the trace) so that the hook returns at once; napkin cancels the task when the
                interactor resigns. In `willResignActive`, hand long work to a service that
                outlives the napkin instead of awaiting it:

                ```swift
                func didBecomeActive() async {
                    let updates = scores.updates()
                    task(named: "scores") { [presenter] in      // not: for await score in updates { ... } in the hook
                        for await score in updates { await presenter.show(score) }
                    }
                }
                ```
                """#)),
        ("view-gone-still-attached", Paragraphs(
            meaning: #"""
                A router's view was reported `removed` (popped by the Back
                button or a swipe, dismissed, taken out of its container) while the router
                was attached in the live tree, and one grace period later (1 s) the router is
                still attached there with its view still removed. The seqs are the router's
                `attach` and the `view` record of the removal.
                """#,
            cause: #"""
                The back-navigation leak. UIKit pops the screen by itself
                (the Back button, the interactive swipe, a sheet swiped down), so the routing
                method that would have called `detachChild` never runs: nothing told the
                parent that its child's screen is gone. The router stays attached, its
                interactor active (its tasks and observations running), and every round trip
                adds one.
                """#,
            fix: #"""
                Detach in the parent when the child reports that its screen went.
                In the child's view controller, `viewDidDisappear` with `isMovingFromParent`
                (popped) or `isBeingDismissed` (dismissed) tells its interactor (through the
                presenter's listener), which tells its own listener, the parent's interactor,
                which asks its router to detach:

                ```swift
                final class MenuViewController: UIViewController, MenuPresentable, ViewControllable {
                    weak var listener: MenuPresentableListener?

                    override func viewDidDisappear(_ animated: Bool) {
                        super.viewDidDisappear(animated)
                        if isMovingFromParent || isBeingDismissed {
                            Task { await listener?.didLeave() }       // popped by Back or a swipe, or dismissed
                        }
                    }
                }

                extension MenuInteractor: MenuPresentableListener {
                    func didLeave() async { await listener?.menuDidClose() }
                }

                extension RootInteractor: MenuListener {
                    func menuDidClose() async { await router?.routeBackFromMenu() }   // detachChild, as in duplicate-child
                }
                ```
                """#)),
        ("view-shown-after-detach", Paragraphs(
            meaning: #"""
                The opposite direction: a router left the live tree (it
                or an ancestor was detached, or its parent was deallocated while in the tree)
                while its view was `shown`, and the view is still shown one *view grace
                period* later (default **5 s**, `--view-grace`, `TraceAnalyzer.Options(viewGrace:)`). The seqs
                are the event that took the router out of the tree. Also reported:

                - a view `shown` while its router is outside the tree after having been in
                  it (a view reused without re-attaching its router), 5 s later; the seqs are
                  that `view` record;
                - a router *deallocated* outside the tree with its view shown, when no later
                  `view` record says the view went (`covered` or `removed`) within 5 s of the
                  moment it left the tree with that view shown. A view can outlive its
                  router: a `view` record after the router's `deinit` is valid, and a
                  dismissal that ends after the deinit is fine.
                """#,
            cause: #"""
                A routing method that detaches the child and forgets to
                dismiss (or pop, or remove) its view, or a parent without a view of its own
                (a flow) detached while the screens of its children stay on screen: the user
                sees a screen whose logic is gone, and taps on it do nothing.
                """#,
            fix: #"""
                Take the view down in the same routing method that detaches:

                ```swift
                func routeAwayFromProfile() async {
                    guard let profile else { return }
                    self.profile = nil
                    await detachChild(profile)
                    viewController.dismiss(profile.viewControllable)   // the line that was missing
                }
                ```
                """#)),
        ("duplicate-child", Paragraphs(
            meaning: #"""
                A parent attaches a router while the router of the same
                type it attached before is still attached to it, and the new one came in a
                *separate step*. Reported at once, on the older child, with the seqs of its
                attach and of the new attach; each older child once.
                """#,
            cause: #"""
                Back navigation that forgot `detachChild`: the user leaves
                a screen, its router stays attached (and active, and alive), and opening the
                screen again attaches a second one. Every round trip adds one.
                """#,
            fix: #"""
                Detach where you navigate back, and guard routes against attaching
                twice:

                ```swift
                func routeToMenu() async {
                    guard menu == nil else { return }
                    let router = menuBuilder.build(withListener: interactor)
                    menu = router
                    await attachChild(router)
                }

                func routeBackFromMenu() async {
                    guard let router = menu else { return }
                    menu = nil
                    await detachChild(router)          // the line that was missing
                }
                ```
                """#)),
        ("double-attach", Paragraphs(
            meaning: #"""
                An `attach` of a router that is already attached: to the
                same parent (napkin ignores the call, but records it), or to another parent
                without having been detached (the trace follows the newest link). The seqs
                are the second `attach`. (An `attach` under the router itself or one of its
                own descendants is [`attach-under-descendant`](#attach-under-descendant).)
                """#,
            cause: #"""
                A route called twice (a double tap, two events racing)
                without a guard; or a router moved to a new parent without `detachChild`
                from the old one.
                """#,
            fix: #"""
                Guard the route (see the `routeToMenu` example above), and detach
                from the old parent before attaching elsewhere.
                """#)),
        ("attach-under-descendant", Paragraphs(
            meaning: #"""
                An `attach` of a router under itself, or under one of
                its own descendants. That would make the tree a cycle: the router would be
                its own ancestor, and detaching anything in the loop could never take it out
                of the tree. The model keeps the tree a tree and ignores the link ("...
                (a cycle); the link is ignored"). The seqs are that `attach`.
                """#,
            cause: #"""
                A router reused across screens: a child router cached by
                its parent and handed to one of its own children to attach ("show profile
                from inside profile"), or a deep link that attaches an existing router where
                it already sits higher up.
                """#,
            fix: #"""
                Build a new router for every place it appears (builders are cheap),
                and never attach a router that is already in the tree; to move one, detach
                it first.
                """#)),
        ("detach-non-child", Paragraphs(
            meaning: #"""
                A `detach` whose router is not attached to that parent
                (already detached, attached elsewhere, or never attached). Napkin ignores the
                call but records it. The seqs are that `detach`.
                """#,
            cause: #"""
                A double back tap or a dismissal handled twice (once by a
                gesture, once by a button), or a router detached from the wrong parent.
                """#,
            fix: #"""
                Clear the reference before detaching, so a second call does nothing
                (`routeBackFromMenu` above), and detach from the parent that attached it.
                """#)),
        ("event-after-deinit", Paragraphs(
            meaning: #"""
                An event (`activate`, `deactivate`, `hook_end`, `load`,
                `launch`, `attach`, `detach`, `deinit`, or a `task_start` for an owner) names a router
                or interactor whose `deinit` was already recorded (precisely: an id that is
                not alive and not higher than the highest router or interactor id created so
                far). The subject is the trace; since the analyzer forgets a node at its
                deinit, the finding names it only by id (type `#3`). Events naming an id
                higher than any created so far (a trace whose beginning is missing) are not
                reported. A `view` record after its router's deinit is not reported either: a
                view can outlive its router (see [`view-shown-after-detach`](#view-shown-after-detach)).
                """#,
            cause: #"""
                Napkin never writes this for a correct program. It comes
                from a trace assembled by hand or merged from several files, a custom emitter,
                or unsafe code (`unowned(unsafe)`, `Unmanaged`) touching a dead object.
                """#,
            fix: #"""
                Check where the trace came from; if napkin wrote it as is, please
                report it as a napkin bug, with the trace.
                """#)),
        ("events-dropped", Paragraphs(
            meaning: #"""
                The trace contains `dropped` records: the app produced
                events faster than the trace could be written, and napkin dropped some rather
                than block the app. Reported once per session, at the end, with the total and
                the first missing sequence ranges. The trace is incomplete, so other findings
                may be missing, or (rarely) wrong. Over a socket (`NAPKIN_TRACE=tcp:…` or
                `unix:…`), a part of the trace that starts after a gap (no inspector was
                connected for a while; its session record has `part` and `lost`) is reported
                the same way when events were lost in that gap.
                """#,
            cause: #"""
                A slow destination (a pipe whose reader is busy, a slow
                disk) combined with a burst of lifecycle events (thousands of napkins created
                at once, a stress test); over a socket, an inspector started after the app,
                or restarted.
                """#,
            fix: #"""
                Write to a file rather than a slow pipe, or bootstrap a larger
                buffer (`NapkinTrace.bootstrap(_:bufferCapacity:)`).
                """#)),
        ("alive-at-end", Paragraphs(
            meaning: #"""
                Only with `--expect-teardown` (`expectTeardown: true`):
                at the end of the trace a router or interactor is still alive. One finding
                per alive subtree: the topmost alive router (with the number of attached
                descendants it still holds), and each alive interactor whose router is gone.
                The seqs are its creation record. No grace period applies: the end of the
                trace is the deadline.
                """#,
            cause: #"""
                The test (or the app) still holds the root router; or
                anything reported as `not-deallocated` or `undetached-child` in the same run.
                """#,
            fix: #"""
                Release the root at the end of the test and wait for the deinits;
                then fix the leaks the other findings point at.
                """#)),
    ]
}
