import NapkinTrace
import NapkinTraceReader

/// How `diff` writes a ``TracePath``: its segments joined by `/`, the
/// first ones dropped (`…/`) past ``maxSegments``, each type cut to
/// ``maxType`` characters; `escape` makes each piece safe for the format
/// (printable for a terminal, escaped for Markdown; JSON escapes on its own).
enum DiffPathText {
    /// The most segments written; deeper paths start with `…/`.
    static let maxSegments = 64
    /// The longest type name written, in characters.
    static let maxType = 160

    /// `path` as text, each type passed through `escape` (printable, by default).
    static func text(_ path: TracePath, escape: (String) -> String = { PrintableText.printable($0, limit: maxType) }) -> String {
        let segments = path.lastSegments(maxSegments)
        let body = segments.map { segment in
            escape(segment.type) + (segment.occurrence == 1 ? "" : escape("[\(segment.occurrence)]"))
        }.joined(separator: "/")
        let head = path.depth > segments.count ? "\u{2026}/" : (path.isInTree ? "" : TracePath.outsidePrefix)
        return head + body
    }

    /// `path` below `ancestor` (`OrderRouter[2]/PayRouter`), for a tree
    /// that shows `ancestor` above it; the whole path when it is not below.
    static func text(_ path: TracePath, below ancestor: TracePath?,
                     escape: (String) -> String = { PrintableText.printable($0, limit: maxType) }) -> String {
        guard let ancestor, path.depth > ancestor.depth else { return text(path, escape: escape) }
        let steps = path.depth - ancestor.depth
        return (steps > maxSegments ? "\u{2026}/" : "") + path.lastSegments(min(steps, maxSegments)).map { segment in
            escape(segment.type) + (segment.occurrence == 1 ? "" : escape("[\(segment.occurrence)]"))
        }.joined(separator: "/")
    }

    /// Whether `ancestor` is `path` or one of its parents (walks at most the difference in depth).
    static func isAncestor(_ ancestor: TracePath, of path: TracePath) -> Bool {
        var cursor: TracePath? = path
        while let current = cursor, current.depth > ancestor.depth { cursor = current.parent }
        return cursor == ancestor
    }

    /// The routers alive at the end, as rows of a tree: each with its depth
    /// below the rows shown above it (capped at ``maxIndent``) and its path
    /// below the nearest of them.
    static func treeRows(_ routers: [TraceComparison.EndRouter],
                         escape: @escaping (String) -> String = { PrintableText.printable($0, limit: maxType) })
        -> [(router: TraceComparison.EndRouter, depth: Int, label: String)] {
        var stack: [TracePath] = []
        return routers.map { router in
            while let top = stack.last, !isAncestor(top, of: router.path) { stack.removeLast() }
            let row = (router, min(stack.count, maxIndent), text(router.path, below: stack.last, escape: escape))
            stack.append(router.path)
            return row
        }
    }

    /// The deepest indentation of a tree row.
    static let maxIndent = 16
}
