/// The process is ending: every retainer search running now, and any that
/// starts later, gives up at once and says so, so that the finding it
/// explains is reported without its path rather than lost with the exit.
///
/// One flag for the process, set once and never cleared (an exit does not
/// come back). Read by ``RetainerSearch`` while it waits and between steps.
package enum SearchCutShort {
    private static let flag = Locked(false)

    /// Cuts every search short from now on (the process is exiting).
    package static func now() {
        flag.withLock { $0 = true }
    }

    /// Whether searches are cut short.
    package static var isSet: Bool {
        flag.withLock { $0 }
    }

    /// The result of a search cut short by the exit.
    package static let result = Retainers(
        paths: [], found: 0, total: nil,
        note: "Not searched: the process was exiting, so the search was cut short before it found a path.")
}
