/// What a ``HeapWalk`` found, as names and numbers only (no object): the
/// graph, the nodes it started from, the target's node, the count of the
/// target's strong references at the walk's moment, and what it could not
/// read. Sent from a forked child to the app's process as bytes
/// (``encoded()``, ``init(decoding:)``), so it is checked as it is read:
/// a child that died mid-write, or wrote garbage, gives nil, never a crash.
struct WalkResult: Sendable {
    var nodes: [ReferenceGraph.Node] = []
    var roots: [Int] = []
    /// The target's node; nil when the walk never reached it.
    var target: Int?
    /// The object was gone before the walk (nothing to explain).
    var isGone = false
    /// Strong references to the target, the walk's own excluded.
    var total: Int?
    var visited = 0
    var truncated = false
    var unsearched: Set<String> = []

    /// An empty result.
    init() {}

    /// The result for an object gone before the walk.
    static var gone: WalkResult {
        var result = WalkResult()
        result.isGone = true
        return result
    }

    /// The graph, when the walk reached the target.
    var graph: ReferenceGraph? {
        target.map { ReferenceGraph(nodes: nodes, target: $0, roots: roots) }
    }

    // MARK: - Bytes

    /// The longest name or label kept, in bytes (a hostile type name or
    /// dictionary key stays bounded).
    static let maxText = 300

    /// The result as bytes.
    func encoded() -> [UInt8] {
        var out = ByteWriter()
        out.int(isGone ? 1 : 0)
        out.int(total ?? -1)
        out.int(target ?? -1)
        out.int(visited)
        out.int(truncated ? 1 : 0)
        out.int(roots.count)
        for root in roots { out.int(root) }
        out.int(unsearched.count)
        for text in unsearched.sorted() { out.text(text) }
        out.int(nodes.count)
        for node in nodes {
            out.text(node.name)
            out.int((node.expectedAlive ? 1 : 0) | (node.isRouter ? 2 : 0) | (node.isInteractor ? 4 : 0)
                    | (node.isNamedRoot ? 8 : 0) | (node.isPlumbing ? 16 : 0))
            out.int(node.edges.count)
            for edge in node.edges {
                out.text(edge.label)
                out.int(edge.to)
                if let holder = edge.holder {
                    out.int(1)
                    out.int(Int(bitPattern: holder.heap))
                    out.text(holder.path)
                } else {
                    out.int(0)
                }
            }
        }
        return out.bytes
    }

    /// The result `bytes` hold, or nil when they are not a whole, consistent one.
    init?(decoding bytes: [UInt8]) {
        var input = ByteReader(bytes: bytes)
        guard let gone = input.int(), let total = input.int(), let target = input.int(),
              let visited = input.int(), let truncated = input.int(), let rootCount = input.count() else { return nil }
        isGone = gone == 1
        self.total = total >= 0 ? total : nil
        self.visited = visited
        self.truncated = truncated == 1
        for _ in 0..<rootCount {
            guard let root = input.int() else { return nil }
            roots.append(root)
        }
        guard let unsearchedCount = input.count() else { return nil }
        for _ in 0..<unsearchedCount {
            guard let text = input.text() else { return nil }
            unsearched.insert(text)
        }
        guard let nodeCount = input.count() else { return nil }
        nodes.reserveCapacity(nodeCount)
        for _ in 0..<nodeCount {
            guard let name = input.text(), let flags = input.int(), let edgeCount = input.count() else { return nil }
            var node = ReferenceGraph.Node(name: name)
            node.expectedAlive = flags & 1 != 0
            node.isRouter = flags & 2 != 0
            node.isInteractor = flags & 4 != 0
            node.isNamedRoot = flags & 8 != 0
            node.isPlumbing = flags & 16 != 0
            for _ in 0..<edgeCount {
                guard let label = input.text(), let to = input.int(), let hasHolder = input.int() else { return nil }
                var holder: HeapSlot? = nil
                if hasHolder == 1 {
                    guard let heap = input.int(), let path = input.text() else { return nil }
                    holder = HeapSlot(heap: UInt(bitPattern: heap), path: path)
                }
                node.edges.append(.init(label: label, to: to, holder: holder))
            }
            nodes.append(node)
        }
        guard input.isAtEnd else { return nil }
        let range = 0..<nodes.count
        guard roots.allSatisfy(range.contains), nodes.allSatisfy({ $0.edges.allSatisfy { range.contains($0.to) } }) else { return nil }
        if target >= 0 {
            guard range.contains(target) else { return nil }
            self.target = target
        }
    }
}

/// Little-endian words and length-prefixed UTF-8, appended.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func text(_ value: String) {
        var utf8 = Array(value.utf8.prefix(WalkResult.maxText))
        while !utf8.isEmpty, String(validating: utf8, as: UTF8.self) == nil { utf8.removeLast() }
        int(utf8.count)
        bytes.append(contentsOf: utf8)
    }
}

/// Reads what ``ByteWriter`` wrote; nil past the end or on a bad length.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func int() -> Int? {
        guard bytes.count - offset >= 8 else { return nil }
        var value: Int64 = 0
        for shift in 0..<8 { value |= Int64(bytes[offset + shift]) << (8 * shift) }
        offset += 8
        return Int(value)
    }

    /// A count: non-negative, and no more than the bytes left could hold.
    mutating func count() -> Int? {
        guard let value = int(), value >= 0, value <= bytes.count - offset else { return nil }
        return value
    }

    mutating func text() -> String? {
        guard let length = count(), length <= WalkResult.maxText else { return nil }
        defer { offset += length }
        return String(validating: bytes[offset..<offset + length], as: UTF8.self)
    }
}
