import NapkinTrace

extension TracePaths {
    /// Every path of the table in depth-first order, as a rank per entry:
    /// paths in the tree before those outside it, each path before its
    /// children, and siblings in the order they were placed in the first of
    /// `runs` that has them (then the next run's order, for those only it has).
    /// Sorting any paths by their rank lists them as a tree would.
    func depthFirstRanks(preferring runs: [Int]) -> [Int] {
        let entries = table.entries
        var children = [[Int]](repeating: [], count: entries.count)
        var roots: [Int] = []
        for (i, entry) in entries.enumerated() {
            if let parent = entry.parent { children[parent].append(i) } else { roots.append(i) }
        }
        let order: (Int, Int) -> Bool = { a, b in
            if entries[a].isInTree != entries[b].isInTree { return entries[a].isInTree }
            for run in runs where self.runs.indices.contains(run) {
                let placed = self.runs[run].placedAt
                switch (placed[a], placed[b]) {
                case let (x?, y?): if x != y { return x < y }
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): continue
                }
            }
            return a < b
        }
        var ranks = [Int](repeating: 0, count: entries.count)
        var next = 0
        var stack = roots.sorted(by: order).reversed().map { $0 }
        while let entry = stack.popLast() {
            ranks[entry] = next
            next += 1
            stack.append(contentsOf: children[entry].sorted(by: order).reversed())
        }
        return ranks
    }
}
