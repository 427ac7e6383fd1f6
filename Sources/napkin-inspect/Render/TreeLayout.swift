import NapkinTrace

/// Walks a tree of routers in pre-order and gives each row its box-drawing
/// prefix (`├─ `, `│  `, `└─ `), lazily, so that a caller that only needs the
/// first rows (a terminal screen) pays only for them.
///
/// A trace may describe a tree of any depth (a chain of 100,000 routers), and
/// a prefix of three columns per level would make the output quadratic in the
/// depth. So at most ``maxDrawnLevels`` levels are drawn: a deeper row shows
/// the first ``keptTopLevels`` levels, then `… 99,900 levels … `, then the
/// levels nearest to it. Each prefix is built in time proportional to what is
/// drawn, never to the depth.
struct TreeLayout {
    /// Rows deeper than this many levels have their middle levels folded.
    static let maxDrawnLevels = 24
    /// How many of the outermost levels a folded prefix still draws.
    static let keptTopLevels = 4

    /// One row: the node and its prefix.
    struct Entry {
        /// The router (or interactor) on the row.
        var node: TraceNode
        /// The drawing before its name.
        var prefix: String
        /// Whether levels were folded into a `… N levels …` mark.
        var folded: Bool
    }

    /// The tree walked.
    let state: TraceState
    /// Drawn before every prefix (an indent for a section).
    let indent: String
    /// When set, only the children it keeps are walked (the live inspector's filter).
    let keep: ((NodeID) -> Bool)?

    /// Children still to visit, per level of the current path.
    private var frames: [(children: [NodeID], next: Int)] = []
    /// For each level of the current path: whether the node there is its parent's last child.
    private var isLast: [Bool] = []
    /// The root, until it is visited.
    private var pendingRoot: NodeID?

    /// A walk of `root` and its attached descendants, each prefix after
    /// `indent`; with `keep`, only the descendants it keeps (and theirs).
    init(state: TraceState, root: NodeID, indent: String = "", keep: ((NodeID) -> Bool)? = nil) {
        self.state = state
        self.indent = indent
        self.keep = keep
        pendingRoot = root
    }

    /// The next row, or nil when the subtree is done.
    mutating func next() -> Entry? { next(drawing: true) }

    /// The next row's node, without building its prefix (for rows scrolled
    /// past: the walk costs what it visits, not what a prefix would draw).
    mutating func skip() -> TraceNode? { next(drawing: false)?.node }

    /// The next row; its prefix only when `drawing`.
    private mutating func next(drawing: Bool) -> Entry? {
        if let root = pendingRoot {
            pendingRoot = nil
            guard let node = state[root] else { return nil }
            push(node)
            return Entry(node: node, prefix: indent, folded: false)
        }
        while let top = frames.last {
            guard top.next < top.children.count else {
                frames.removeLast()
                continue
            }
            let child = top.children[top.next]
            frames[frames.count - 1].next += 1
            guard let node = state[child] else { continue }
            let depth = frames.count
            if isLast.count >= depth { isLast.removeSubrange((depth - 1)...) }
            isLast.append(top.next + 1 == top.children.count)
            push(node)
            return Entry(node: node, prefix: drawing ? indent + prefix() : "", folded: depth > Self.maxDrawnLevels)
        }
        return nil
    }

    /// Makes `node`'s children the next level to visit.
    private mutating func push(_ node: TraceNode) {
        guard node.childCount > 0 else { return }
        let children = keep.map { node.children.filter($0) } ?? node.children
        if !children.isEmpty { frames.append((children, 0)) }
    }

    /// The prefix of the row just visited: a guide per level, the last one a connector.
    private func prefix() -> String {
        let depth = isLast.count
        func guide(_ level: Int) -> String {
            if level == depth - 1 { return isLast[level] ? "└─ " : "├─ " }
            return isLast[level] ? "   " : "│  "
        }
        guard depth > Self.maxDrawnLevels else { return (0..<depth).map(guide).joined() }
        let tail = Self.maxDrawnLevels - Self.keptTopLevels
        let folded = depth - Self.keptTopLevels - tail
        return (0..<Self.keptTopLevels).map(guide).joined()
            + "\u{2026} \(NumberFormat.grouped(folded)) level\(folded == 1 ? "" : "s") \u{2026} "
            + ((depth - tail)..<depth).map(guide).joined()
    }
}
