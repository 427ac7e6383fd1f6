/// Which test was running when: the spans between the marks
/// `test started: NAME` and `test ended: NAME` (``NapkinTrace/testStarted(_:)``),
/// so that a finding can name the test its cause happened in.
///
/// Tests may run in parallel: a moment inside several spans belongs to all of
/// them, and a finding then names each (``tests(at:)``). At most ``limit``
/// spans are kept (the newest), and names are cut to ``maxName`` characters,
/// so a hostile trace costs bounded memory.
struct TestSpans: Sendable {
    /// The most spans kept (ended and running).
    static let limit = 10_000
    /// The longest test name kept, in characters.
    static let maxName = 300

    private struct Span: Sendable {
        var name: String
        var start: UInt64
        var end: UInt64 = .max
    }

    /// Spans in start order (running ones have `end == .max`).
    private var spans: [Span] = []

    /// Whether any test was ever marked (skips the work for apps without tests).
    var isEmpty: Bool { spans.isEmpty }

    /// Takes a mark at sequence number `seq` into account.
    mutating func note(mark text: String, at seq: UInt64) {
        // Both prefixes start with "test "; most marks do not (one byte tells).
        guard text.utf8.first == UInt8(ascii: "t") else { return }
        if text.hasPrefix(NapkinTrace.testStartedPrefix) {
            let name = String(text.dropFirst(NapkinTrace.testStartedPrefix.count).prefix(Self.maxName))
            if spans.count >= Self.limit { spans.removeFirst(spans.count - Self.limit + 1) }
            spans.append(Span(name: name, start: seq))
        } else if text.hasPrefix(NapkinTrace.testEndedPrefix) {
            let name = String(text.dropFirst(NapkinTrace.testEndedPrefix.count).prefix(Self.maxName))
            if let open = spans.lastIndex(where: { $0.name == name && $0.end == .max }) { spans[open].end = seq }
        }
    }

    /// The tests running at sequence number `seq`, in start order (at most 5).
    func tests(at seq: UInt64) -> [String] {
        var names: [String] = []
        for span in spans.reversed() where span.start <= seq && seq <= span.end {
            names.append(span.name)
            if names.count == 5 { break }
        }
        return names.reversed()
    }
}
