import NapkinTrace

/// Writes a large trace of a list-shaped app (the shape of
/// `ListShapedAppTests`): a root with many lists, each holding several rows
/// of one type; every interactor, list or row, runs one bound task while it
/// is active. Screen after screen, the lists and their rows are attached in
/// a loop, a row is added to a list a moment later, and everything is
/// detached (rows, then their list) and released: a clean trace, with
/// hundreds of live nodes and running tasks at a time, and a burst of checks
/// each time a screen goes.
enum ListShapedTrace {
    /// Lists per screen, and rows per list.
    static let lists = 40, rows = 6

    /// Appends about `events` events (whole screens, at least one) and hands
    /// the bytes to `flush`, about a MiB at a time.
    static func generate(events: Int, flushEvery: Int = 1 << 20, flush: @escaping ([UInt8]) -> Void) {
        var trace = TraceGenerator(app: "lists", flushEvery: flushEvery, flush: flush)
        let rootInteractor = trace.id(), root = trace.id()
        trace.emit(.interactorCreated(id: rootInteractor, type: "ListRootInteractor"), after: 900_000)
        trace.emit(.routerCreated(id: root, type: "ListRootRouter", interactor: rootInteractor, interactorType: "ListRootInteractor"),
                   src: TraceGenerator.src("ListApp/AppDelegate.swift", 18))
        trace.emit(.launch(router: root), after: 300_000)
        trace.emit(.activate(interactor: rootInteractor))
        trace.emit(.load(router: root))
        trace.emit(.view(router: root, appearance: .shown))
        var screen = 0
        repeat {
            screen += 1
            showScreen(screen, under: root, &trace)
        } while trace.count < events
        trace.emit(.deactivate(interactor: rootInteractor), after: 500_000_000)
        trace.emit(.view(router: root, appearance: .removed))
        trace.emit(.deallocated(id: root))
        trace.emit(.deallocated(id: rootInteractor))
        trace.finish()
    }

    /// A node and its interactor, with the interactor's task.
    private struct Node {
        var router: NodeID
        var interactor: NodeID
        var task: NodeID
    }

    private static let listFile = "ListApp/ListRouter.swift", rootFile = "ListApp/ListRootRouter.swift"

    /// One screen of lists: shown, a row added, then torn down.
    private static func showScreen(_ screen: Int, under root: NodeID, _ trace: inout TraceGenerator) {
        trace.emit(.mark(text: "screen \(screen)"), after: 1_500_000_000)
        var shown: [(list: Node, rows: [Node])] = []
        for _ in 0..<lists {
            let list = attach("List", under: root, from: TraceGenerator.src(rootFile, 31), label: "load-items", &trace)
            var children: [Node] = []
            for _ in 0..<rows {
                children.append(attach("Row", under: list.router, from: TraceGenerator.src(listFile, 44), label: "watch-item", &trace))
            }
            shown.append((list, children))
        }
        // A step later, the user adds a row to the first list.
        trace.emit(.mark(text: "add a row"), after: 900_000_000)
        shown[0].rows.append(attach("Row", under: shown[0].list.router, from: TraceGenerator.src(listFile, 44), label: "watch-item", &trace))
        trace.emit(.mark(text: "leave screen \(screen)"), after: 1_200_000_000)
        while let (list, children) = shown.popLast() {
            for row in children { detach(row, from: list.router, at: TraceGenerator.src(listFile, 52), &trace) }
            detach(list, from: root, at: TraceGenerator.src(rootFile, 39), &trace)
        }
    }

    /// Creates a router of `type` with its interactor, attaches it, activates it (its task starts) and loads it.
    private static func attach(_ type: String, under parent: NodeID, from src: CodeLocation, label: String,
                               _ trace: inout TraceGenerator) -> Node {
        let interactor = trace.id(), router = trace.id(), task = trace.id()
        trace.emit(.interactorCreated(id: interactor, type: type + "Interactor"), after: 9_000)
        trace.emit(.routerCreated(id: router, type: type + "Router", interactor: interactor, interactorType: type + "Interactor"),
                   after: 1_000, src: TraceGenerator.src("ListApp/\(type)Builder.swift", 27))
        trace.emit(.attach(parent: parent, child: router), after: 6_000, src: src)
        trace.emit(.activate(interactor: interactor), after: 4_000)
        trace.emit(.taskStart(task: task, owner: interactor, label: label), after: 2_000,
                   src: TraceGenerator.src("ListApp/\(type)Interactor.swift", 23))
        trace.emit(.load(router: router), after: 5_000)
        return Node(router: router, interactor: interactor, task: task)
    }

    /// Detaches `node`, which deactivates (its task is cancelled and ends) and is released.
    private static func detach(_ node: Node, from parent: NodeID, at src: CodeLocation, _ trace: inout TraceGenerator) {
        trace.emit(.detach(parent: parent, child: node.router), after: 7_000, src: src)
        trace.emit(.deactivate(interactor: node.interactor), after: 5_000)
        trace.emit(.taskCancel(task: node.task), after: 2_000)
        trace.emit(.taskEnd(task: node.task, outcome: .cancelled), after: 9_000)
        trace.emit(.deallocated(id: node.router), after: 4_000)
        trace.emit(.deallocated(id: node.interactor), after: 3_000)
    }
}
