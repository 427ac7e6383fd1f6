import NapkinTrace

/// Writes a generated trace for the benchmarks: sequence numbers, trace time
/// and ids, encoded by ``TraceEncoder`` (so the lines are exactly what an app
/// writes) into a buffer handed to `flush` about every MiB.
///
/// The shapes (``SyntheticTrace``, ``ListShapedTrace``) say what happens; this
/// says how it is spelled, and keeps time moving the way an app's does: a few
/// microseconds between the steps of one transition, long pauses between the
/// user's actions.
struct TraceGenerator {
    /// Events written so far.
    private(set) var count = 0
    private var out: [UInt8] = []
    private var seq: UInt64 = 0
    private var time: UInt64 = 0
    private var nextID: UInt64 = 0
    /// A cheap deterministic jitter for the gaps, so times are not all round numbers.
    private var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
    private let flushEvery: Int
    private let flush: ([UInt8]) -> Void

    /// Starts a trace with its session record.
    init(app: String, flushEvery: Int = 1 << 20, flush: @escaping ([UInt8]) -> Void) {
        self.flushEvery = flushEvery
        self.flush = flush
        out.reserveCapacity(flushEvery + 4096)
        emit(.sessionStart(SessionInfo(app: app, pid: 4242, wallClock: 1_795_486_112_203_644_398,
                                       revision: TraceFormat.revision)), after: 0)
    }

    /// A new router, interactor or task id.
    mutating func id() -> NodeID {
        nextID += 1
        return nextID
    }

    /// Writes `kind`, `after` nanoseconds (plus up to a third more, jittered)
    /// after the previous event, with a code location when `src` is given.
    /// An `activate` or `deactivate` is followed by its hook's `hook_end` a
    /// little later, as the framework writes them (format revision 1).
    mutating func emit(_ kind: TraceEvent.Kind, after gap: UInt64 = 20_000, src: CodeLocation? = nil) {
        write(kind, after: gap, src: src)
        switch kind {
        case .activate(let interactor), .deactivate(let interactor): write(.hookEnd(interactor: interactor), after: 3_000)
        default: break
        }
    }

    private mutating func write(_ kind: TraceEvent.Kind, after gap: UInt64, src: CodeLocation? = nil) {
        seq += 1
        noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        time += gap + (gap / 3 == 0 ? 0 : (noise >> 33) % (gap / 3))
        count += 1
        TraceEncoder.append(TraceEvent(seq: seq, time: time, kind: kind, location: src), to: &out)
        if out.count >= flushEvery {
            flush(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the session's end record and hands over what is left.
    mutating func finish() {
        emit(.sessionEnd(reason: "exit"), after: 1_000_000)
        flush(out)
        out.removeAll(keepingCapacity: true)
    }

    /// `Module/File.swift:line`, as the framework captures it.
    static func src(_ file: String, _ line: UInt) -> CodeLocation {
        CodeLocation(fileID: file, line: line)
    }
}
