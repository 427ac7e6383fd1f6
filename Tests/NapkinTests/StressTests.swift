import Napkin
import Testing
import TestSupport

/// A router, its interactor, and the one parent it may be attached to.
private struct Node: Sendable {
    let router: TestRouter
    let interactor: TestInteractor
    let parent: any Routing & Sendable
}

/// A launched root over a fixed-shape tree: `fanOut[0]` children, each with
/// `fanOut[1]` children, and so on. Every node is attached at first; nodes
/// are listed level by level.
@MainActor
private struct StressTree {
    let root: TestRootRouter
    let nodes: [Node]

    init(fanOut: [Int], seed: UInt64) async {
        var random = SplitMix(seed: seed)
        root = TestRootRouter("root")
        await root.launch()
        var nodes: [Node] = []
        var level: [any Routing & Sendable] = [root]
        for width in fanOut {
            var next: [any Routing & Sendable] = []
            for parent in level {
                for _ in 0..<width {
                    let router = TestRouter("n\(nodes.count)")
                    let yields = Int.random(in: 0...2, using: &random)
                    await router.interactor.setHookYields(yields)
                    await parent.attachChild(router)
                    nodes.append(Node(router: router, interactor: router.interactor, parent: parent))
                    next.append(router)
                }
            }
            level = next
        }
        self.nodes = nodes
    }

    /// Every router reachable from the root, root excluded.
    var reachable: [Routing] { descendants(of: root) }

    /// Checks the structure: each router is listed at most once, and only by its own parent.
    func checkStructure() {
        var listings: [ObjectIdentifier: [ObjectIdentifier]] = [:]
        let parents: [Routing] = [root] + nodes.map { $0.router }
        for parent in parents {
            for child in parent.children {
                listings[ObjectIdentifier(child), default: []].append(ObjectIdentifier(parent))
            }
        }
        #expect(listings[ObjectIdentifier(root)] == nil)
        var duplicated: [String] = []
        var misplaced: [String] = []
        for node in nodes {
            let listedBy = listings[ObjectIdentifier(node.router)] ?? []
            if listedBy.count > 1 { duplicated.append(node.router.interactor.name) }
            if listedBy.contains(where: { $0 != ObjectIdentifier(node.parent) }) {
                misplaced.append(node.router.interactor.name)
            }
        }
        #expect(duplicated.isEmpty, "listed more than once: \(duplicated.prefix(10))")
        #expect(misplaced.isEmpty, "listed by a foreign parent: \(misplaced.prefix(10))")
    }
}

/// `root` and everything below it, or only what is below it.
@MainActor
private func descendants(of root: Routing, including: Bool = false) -> [Routing] {
    var result: [Routing] = including ? [root] : []
    var stack: [Routing] = root.children
    while let node = stack.popLast() {
        result.append(node)
        stack.append(contentsOf: node.children)
    }
    return result
}

/// The names of the routers in `routers` whose interactor's `isActive` is not `expected`.
@MainActor
private func mismatches(in routers: [Routing], expectedActive expected: Bool) async -> [String] {
    var result: [String] = []
    for router in routers {
        let isActive = await router.interactable.isActive
        if isActive != expected {
            result.append((router as? TestRouter)?.interactor.name ?? "?")
        }
    }
    return result
}

/// The priorities workers run at, so that actors may reorder their requests.
private let priorities: [TaskPriority] = [.high, .medium, .low, .utility, .background, .userInitiated]

/// Whether hooks ran in balance: one more `+` than `-` exactly when active.
private func hooksBalanced(_ interactor: TestInteractor) async -> Bool {
    let active = await interactor.isActive
    let name = interactor.name
    let balance = interactor.log.count("\(name)+") - interactor.log.count("\(name)-")
    return balance == (active ? 1 : 0)
}

/// The names of the interactors whose hooks are out of balance.
private func unbalanced(_ interactors: [TestInteractor]) async -> [String] {
    var result: [String] = []
    for interactor in interactors {
        let balanced = await hooksBalanced(interactor)
        if !balanced { result.append(interactor.name) }
    }
    return result
}

/// One worker: `operations` random calls, made from off the main actor:
/// attach/detach of a node to its own parent, a direct deactivate+activate
/// bounce of a tree interactor, or a direct activate/deactivate of a loner.
private func runWorker(seed: UInt64, operations: Int, nodes: [Node], upperCount: Int,
                       loners: [TestInteractor]) async {
    var random = SplitMix(seed: seed)
    for _ in 0..<operations {
        // One operation in five targets an upper node, whose subtree is
        // large, so whole-subtree settles overlap.
        let upper = Int.random(in: 0..<5, using: &random) == 0
        let range = upper ? 0..<upperCount : 0..<nodes.count
        let node = nodes[Int.random(in: range, using: &random)]
        let choice = Int.random(in: 0..<10, using: &random)
        if choice < 5 {
            await node.parent.attachChild(node.router)
        } else if choice < 8 {
            await node.parent.detachChild(node.router)
        } else if choice == 8 {
            // The bounce's last request is activate, so it never leaves an
            // attached node inactive.
            let interactor = node.interactor
            await interactor.deactivate()
            await interactor.activate()
        } else {
            let loner = loners[Int.random(in: 0..<loners.count, using: &random)]
            if Bool.random(using: &random) {
                await loner.activate()
            } else {
                await loner.deactivate()
            }
        }
    }
}

// The work of each test is bounded (a fixed number of calls, fewer under the
// thread sanitizer); the time is not: every call waits for the main actor,
// which the whole test process shares, and with two busy cores under the
// sanitizer 3,200 calls took 220 s behind the other suites (0.75 s alone).
// The limits only name a hang.
@Suite("StressTests", .serialized, .routerMisuseWarns) // racing calls attach twice and detach non-children on purpose
@MainActor
struct StressTests {
    @Test("Thousands of concurrent attach/detach and activate/deactivate calls leave a consistent tree",
          .timeLimit(.minutes(10)))
    func concurrentAttachDetach() async {
        // 8 + 64 + 448 = 520 routers under the root.
        let tree = await StressTree(fanOut: [8, 8, 7], seed: 0x5EED)
        let nodes = tree.nodes
        #expect(nodes.count >= 500)
        #expect(await mismatches(in: tree.reachable, expectedActive: true).isEmpty)
        let loners = (0..<32).map { TestInteractor("loner\($0)") }

        // 32 workers x 400 operations = 12,800 concurrent calls; under the
        // thread sanitizer, which runs them about four times slower (3,200
        // took 1.4 s alone, 12,800 without it 1.5 s) while the rest of the
        // suite shares two cores, 32 x 100 = 3,200: the same races, a quarter
        // of the work.
        let operations = runsUnderThreadSanitizer ? 100 : 400
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<32 {
                // Mixed priorities let actors reorder requests made by different workers.
                group.addTask(priority: priorities[worker % priorities.count]) {
                    await runWorker(seed: 0xC0FFEE &+ UInt64(worker), operations: operations,
                                    nodes: nodes, upperCount: 72, loners: loners)
                }
            }
        }
        // Quiescent: every call has returned, and each transition's runner is
        // one of those calls, so no hook is still running.

        tree.checkStructure()
        let reachable = tree.reachable
        #expect(!reachable.isEmpty)
        let inactiveReachable = await mismatches(in: reachable, expectedActive: true)
        #expect(inactiveReachable.isEmpty, "reachable but inactive: \(inactiveReachable.prefix(10))")
        let interactors = nodes.map(\.interactor) + loners
        let outOfBalance = await unbalanced(interactors)
        #expect(outOfBalance.isEmpty, "hooks out of balance: \(outOfBalance.prefix(10))")

        // Tear down: detach every child of the root; then nothing in those subtrees is active.
        var detached: [Routing] = []
        for child in tree.root.children {
            detached += descendants(of: child, including: true)
            await tree.root.detachChild(child)
        }
        #expect(tree.root.children.isEmpty)
        let stillActive = await mismatches(in: detached, expectedActive: false)
        #expect(stillActive.isEmpty, "active after detach: \(stillActive.prefix(10))")
        let outOfBalanceAfter = await unbalanced(nodes.map(\.interactor))
        #expect(outOfBalanceAfter.isEmpty, "hooks out of balance after teardown: \(outOfBalanceAfter.prefix(10))")
    }

    @Test("Many tasks attaching and detaching one large subtree leave it in the state of its final link",
          .timeLimit(.minutes(10)))
    func hotSubtree() async {
        // 2 + 12 + 72 routers; the first one's subtree has 1 + 6 + 36.
        let tree = await StressTree(fanOut: [2, 6, 6], seed: 0xBEEF)
        let hot = tree.nodes[0]
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask(priority: priorities[worker % priorities.count]) {
                    for step in 0..<60 {
                        if (worker + step) % 2 == 0 {
                            await hot.parent.detachChild(hot.router)
                        } else {
                            await hot.parent.attachChild(hot.router)
                        }
                    }
                }
            }
        }
        // Whatever link state the last call left, the whole subtree matches it.
        let attached = hot.parent.children.contains { $0 === hot.router }
        tree.checkStructure()
        let subtree = descendants(of: hot.router, including: true)
        #expect(subtree.count == 1 + 6 + 36)
        let mismatched = await mismatches(in: subtree, expectedActive: attached)
        #expect(mismatched.isEmpty, "attached: \(attached), mismatched: \(mismatched.prefix(10))")
        #expect(await mismatches(in: tree.reachable, expectedActive: true).isEmpty)
        #expect(await unbalanced(tree.nodes.map(\.interactor)).isEmpty)
    }
}
