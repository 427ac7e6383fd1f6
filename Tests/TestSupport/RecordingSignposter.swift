// A signposter for tests: records what napkin's signpost intervals send to
// it (NapkinTrace's `SignpostEmitter`, the seam Apple's OSSignposter sits
// behind), as lines a test compares.

import NapkinTrace

/// Records each begin, end and event as one line: `begin Router attached
/// LoggedInRouter #3`, `end ...`, `event Finding #0 text`.
public final class RecordingSignposter: Sendable {
    private let recorded = Locked<[String]>([])

    /// An empty recording.
    public init() {}

    /// Every call so far, oldest first.
    public var lines: [String] { recorded.withLock { $0 } }

    func append(_ line: String) { recorded.withLock { $0.append(line) } }
}

/// The emitter that writes into a ``RecordingSignposter``.
package struct RecordingEmitter: SignpostEmitter {
    /// Where the calls go.
    package let recording: RecordingSignposter

    /// An emitter recording into `recording`.
    package init(_ recording: RecordingSignposter) { self.recording = recording }

    package func begin(_ name: SignpostName, id: NodeID, type: String) -> Int {
        recording.append("begin \(name.staticName) \(type) #\(id)")
        return Int(id)
    }

    package func end(_ name: SignpostName, _ state: Int, id: NodeID, type: String) {
        recording.append("end \(name.staticName) \(type) #\(state)")
    }

    package func event(_ name: SignpostName, id: NodeID, text: String) {
        recording.append("event \(name.staticName) #\(id) \(text)")
    }
}
