// The only file of NapkinTrace that names Apple's `os` module: napkin's
// signposts sent to `OSSignposter`. Which event begins or ends which
// interval is decided elsewhere (Signposts/SignpostIntervals.swift, tested on
// every platform); this file only makes the calls, with the signatures of
// Apple's documentation (developer.apple.com/documentation/os/ossignposter),
// typechecked on Linux against Tests/StandIns/os (docs/apple.md).
#if canImport(os)
internal import os

/// Apple's signposter as a ``SignpostEmitter``: one `OSSignposter` for
/// napkin's subsystem and the chosen category. Signpost ids are napkin's
/// node ids (`OSSignpostID(_:)`, unique in a session, never 0 or a reserved
/// value: they count up from 1); a mark, about no object, uses `.exclusive`.
/// Messages name the type and id, marked `.public` (the default would redact
/// the type name in Instruments).
struct OSSignpostEmitter: SignpostEmitter {
    private let signposter: OSSignposter

    /// A signposter for ``NapkinSignposts/subsystem`` and `category`.
    init(category: NapkinSignposts.Category) {
        let log = switch category {
        case .dynamicTracing: OSLog(subsystem: NapkinSignposts.subsystem, category: .dynamicTracing)
        case .pointsOfInterest: OSLog(subsystem: NapkinSignposts.subsystem, category: .pointsOfInterest)
        }
        signposter = OSSignposter(logHandle: log)
    }

    func begin(_ name: SignpostName, id: NodeID, type: String) -> OSSignpostIntervalState {
        signposter.beginInterval(name.staticName, id: OSSignpostID(id),
                                 "\(type, privacy: .public) #\(Int(truncatingIfNeeded: id), privacy: .public)")
    }

    func end(_ name: SignpostName, _ state: OSSignpostIntervalState, id: NodeID, type: String) {
        signposter.endInterval(name.staticName, state,
                               "\(type, privacy: .public) #\(Int(truncatingIfNeeded: id), privacy: .public)")
    }

    func event(_ name: SignpostName, id: NodeID, text: String) {
        signposter.emitEvent(name.staticName, id: id == 0 ? .exclusive : OSSignpostID(id), "\(text, privacy: .public)")
    }
}
#endif
