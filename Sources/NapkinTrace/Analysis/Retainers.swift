/// What holds an object that should have gone: the paths of strong
/// references a retainer search found in the running process, how many of
/// the object's strong references they account for, and, when they do not
/// account for all, what was searched and what could still hold it.
///
/// A search runs where the objects live (the in-app detector, the test
/// trait, the XCTest check, ``TraceRecorder``), is written into the trace as
/// a `retained` record, and rides on every finding about that object, so a
/// trace read later shows it too. How to read a path: `docs/findings.md`,
/// "Who retains it".
public struct Retainers: Sendable, Hashable {
    /// The paths found, shortest first, each a chain of references joined by
    /// ` → ` that ends at the object:
    ///
    ///     HostInteractor#12.store (suspect) → ScreenStore.screens[0] → ShownRouter#14
    ///     LoggedInRouter#6.interactor → LoggedInInteractor#5.router (suspect) → LoggedInRouter#6 (cycle)
    ///
    /// A hop is `Type#id.reference` for a traced router or interactor,
    /// `Type.reference` for any other object, or a root's name (a named root,
    /// ``NapkinTrace/retainerRoot(_:named:)``); a reference is a stored
    /// property (`store`), an element (`screens[0]`, `handlers["pit"]`), an
    /// enum payload (`state.showing`) or a value a stored closure captured
    /// (`onTap{closure}`). ` (suspect)` marks the first reference that should
    /// not be there: the one leaving the last object on the path that is
    /// itself expected alive (an attached router, an active interactor, a
    /// named root), napkin's own references (a router's interactor and
    /// children) skipped. ` (cycle)` ends a path that starts at the object
    /// itself. A path holds no line break: a `retained` record writes the
    /// paths one per line (and one within a path, from a dictionary key,
    /// as the two characters `\n`).
    public var paths: [String]
    /// Strong references to the object the paths account for (one per
    /// distinct holding reference; several paths may end in one).
    public var found: Int
    /// Strong references the runtime counts for the object, the search's own
    /// excluded; nil when the count could not be read.
    public var total: Int?
    /// When the paths do not account for every reference (or there are
    /// none): one sentence saying what was searched and what could still
    /// hold the object. Nil when every reference is accounted for.
    public var note: String?

    /// Creates a search result.
    public init(paths: [String], found: Int, total: Int?, note: String?) {
        self.paths = paths
        self.found = found
        self.total = total
        self.note = note
    }

    /// The marker after the suspect reference in a path.
    public static let suspectMarker = " (suspect)"
    /// The marker at the end of a path that starts at the object itself.
    public static let cycleMarker = " (cycle)"
    /// What joins two hops of a path.
    public static let separator = " → "

    /// `1 of 2 strong references found`, or `1 strong reference found` when
    /// the runtime's count is unknown.
    public var tally: String {
        let noun = (total ?? found) == 1 ? "strong reference" : "strong references"
        if let total { return "\(found) of \(total) \(noun) found" }
        return "\(found) \(noun) found"
    }

    /// Everything on one line, as the detector's line and napkin-inspect's
    /// one-line formats write it:
    /// `retained by: PATH; retained by: PATH (1 of 2 strong references found: NOTE)`,
    /// or only the tally and note when there is no path.
    public var oneLine: String {
        let tail = tally + (note.map { ": " + $0 } ?? "")
        guard !paths.isEmpty else { return tail }
        return paths.map { "retained by: " + $0 }.joined(separator: "; ") + " (\(tail))"
    }

    /// The suspect reference of the first path without node ids or element
    /// indexes (`LoggedInInteractor.router`, `ScreenStore.screens[]`): what
    /// two leaks with the same cause share. Nil when no path marks one.
    ///
    /// It groups findings by cause next to the ``Finding/fingerprint``,
    /// which it does not change: a trace read without a search (or one that
    /// timed out) must keep the fingerprint a baseline stored.
    public var key: String? {
        guard let path = paths.first else { return nil }
        for hop in path.split(separator: Self.separator) where hop.hasSuffix(Self.suspectMarker) {
            return Self.withoutIdentities(String(hop.dropLast(Self.suspectMarker.count)))
        }
        return nil
    }

    /// `HostInteractor#12.screens[3]["a"]` → `HostInteractor.screens[][]`.
    static func withoutIdentities(_ hop: String) -> String {
        var out = ""
        var skipping: Character? = nil
        var inQuote = false
        for c in hop {
            if let closing = skipping {
                if c == "\"" { inQuote.toggle() }
                if c == closing && !inQuote { skipping = nil; out.append(c) }
                continue
            }
            switch c {
            case "#": skipping = "."; continue
            case "[": skipping = "]"; out.append(c); continue
            default: out.append(c)
            }
        }
        // A `#id` at the very end (no `.` after it) leaves `skipping` set: nothing to add.
        return out
    }
}
