import Foundation

extension TraceReader {
    /// Reads the remaining items as ``read(event:diagnostic:)`` does, in the
    /// same order and on the calling thread, while a second thread reads and
    /// parses the input ahead of them, a few thousand items at most.
    ///
    /// On a machine with a core to spare this takes the reading off the
    /// critical path: a caller that does real work per event (the analysis)
    /// runs at the speed of its own work. `napkin-inspect` reads large files
    /// this way (see `TraceInput`); a small file is not worth the thread.
    ///
    /// Differences from ``read(event:diagnostic:)``:
    /// - Diagnostics found after the input was rejected (``rejection``) are
    ///   not handed out: the rejection says it all.
    /// - While it runs, the reader belongs to the reading thread: call
    ///   nothing else on it (its counts, ``rejection``, ``stop()``) until it
    ///   returns. Then the counts include the items read ahead but not
    ///   handed over, if `event` stopped early or a callback threw.
    /// - Not for a reader that follows its input: it would wait for data on
    ///   its own thread, and `event` would see nothing until a batch filled.
    public func readAhead<E: Error>(event: (TraceEvent) throws(E) -> Bool,
                                    diagnostic: (TraceDiagnostic) throws(E) -> Void) throws(E) {
        let channel = ReadAheadChannel()
        let reader = ReaderHandle(reader: self)
        let thread = Thread {
            ReadAheadChannel.produce(from: reader.reader, into: channel)
            // Only once `produce` returned: its references to the reader are gone.
            channel.finishProducing()
        }
        thread.stackSize = 1 << 23
        thread.start()
        var batch = ReadAheadBatch()
        do {
            while channel.take(into: &batch) {
                // Diagnostics are rare: each knows how many of the batch's events come before it.
                var nextDiagnostic = 0
                let stopped: Bool = try batch.events.withUnsafeBufferPointer { (events) throws(E) -> Bool in
                    for index in events.indices {
                        while nextDiagnostic < batch.diagnostics.count && batch.diagnostics[nextDiagnostic].before == index {
                            try diagnostic(batch.diagnostics[nextDiagnostic].diagnostic)
                            nextDiagnostic += 1
                        }
                        if try !event(events[index]) { return true }
                    }
                    return false
                }
                if stopped {
                    channel.stopAndWait()
                    return
                }
                while nextDiagnostic < batch.diagnostics.count {
                    try diagnostic(batch.diagnostics[nextDiagnostic].diagnostic)
                    nextDiagnostic += 1
                }
            }
        } catch {
            channel.stopAndWait()
            throw error
        }
        channel.stopAndWait()
    }
}

/// The reader, handed to the thread that reads ahead. `@unchecked Sendable`:
/// only that thread touches the reader until ``ReadAheadChannel/stopAndWait()``
/// returns (which waits for the thread to be done with it).
///
/// Not retained: `readAhead` is a method of the reader, which lives until it
/// returns. A reference kept by the thread would outlive `readAhead` (the
/// thread ends a moment later), and the reader's deinit, which closes its
/// file, could then run on that thread after the caller let go of it.
private struct ReaderHandle: @unchecked Sendable {
    unowned(unsafe) let reader: TraceReader
}

/// Items read ahead: the events, and the diagnostics among them, each with
/// the number of the batch's events that come before it.
private struct ReadAheadBatch {
    var events: [TraceEvent] = []
    var diagnostics: [(before: Int, diagnostic: TraceDiagnostic)] = []

    var isEmpty: Bool { events.isEmpty && diagnostics.isEmpty }

    mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        if !diagnostics.isEmpty { diagnostics.removeAll(keepingCapacity: true) }
    }
}

/// Batches of items from the thread that reads ahead to the one that uses
/// them: at most ``depth`` full batches wait, and the used ones go back to
/// be filled again (their storage is reused, not reallocated).
///
/// `@unchecked Sendable`: every stored property is read and written only with
/// `condition` locked (an `NSCondition`: a pthread mutex and its condition variable).
private final class ReadAheadChannel: @unchecked Sendable {
    /// Events (and, apart, diagnostics) per batch: large enough that the
    /// handover costs little per item, small enough that the batches in
    /// flight stay in the cache.
    static let batchSize = 2_048
    /// Full batches that may wait before the reading thread waits too.
    static let depth = 4

    private let condition = NSCondition()
    private var full: [ReadAheadBatch] = []
    private var empty: [ReadAheadBatch] = []
    /// Set by the using side: the reading thread stops at its next batch.
    private var stopped = false
    /// Set by the reading thread when it is done with the reader.
    private var producerDone = false

    /// The reading thread's side: reads every item into batches until the
    /// input ends or the other side stops; then ``finishProducing()``.
    static func produce(from reader: TraceReader, into channel: ReadAheadChannel) {
        var batch = channel.emptyBatch()
        var going = true
        do throws(Stopped) {
            try reader.read(event: { (event) throws(Stopped) -> Bool in
                batch.events.append(event)
                if batch.events.count == Self.batchSize {
                    going = channel.put(&batch)
                }
                return going
            }, diagnostic: { (diagnostic) throws(Stopped) in
                guard reader.rejection == nil else { return }
                batch.diagnostics.append((batch.events.count, diagnostic))
                // A long run of diagnostics (the app's own output) is handed
                // over too, so that what is read ahead stays bounded.
                if batch.diagnostics.count == Self.batchSize {
                    going = channel.put(&batch)
                    if !going { throw Stopped() }
                }
            })
        } catch {}
        if going && !batch.isEmpty { _ = channel.put(&batch) }
    }

    /// Thrown to stop reading from a diagnostic, once the using side stopped.
    private struct Stopped: Error {}

    private func emptyBatch() -> ReadAheadBatch {
        var batch = ReadAheadBatch()
        batch.events.reserveCapacity(Self.batchSize)
        return batch
    }

    /// Hands over `batch` (waiting while ``depth`` batches wait) and puts
    /// an empty one in its place; false once the using side stopped.
    private func put(_ batch: inout ReadAheadBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while full.count >= Self.depth && !stopped { condition.wait() }
        if stopped { return false }
        full.append(batch)
        batch = empty.popLast() ?? ReadAheadBatch()
        if batch.events.capacity < Self.batchSize { batch.events.reserveCapacity(Self.batchSize) }
        condition.broadcast()
        return true
    }

    /// The reading thread is done with the reader.
    func finishProducing() {
        condition.lock()
        producerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Puts the next full batch in `batch`; false when the reading thread is
    /// done and every batch was taken. The batch it held (used) is emptied
    /// here and kept for the reading thread to fill again.
    func take(into batch: inout ReadAheadBatch) -> Bool {
        batch.removeAll()
        condition.lock()
        defer { condition.unlock() }
        if batch.events.capacity >= Self.batchSize { empty.append(batch) }
        batch = ReadAheadBatch()
        while full.isEmpty && !producerDone { condition.wait() }
        guard !full.isEmpty else { return false }
        batch = full.removeFirst()
        condition.broadcast()
        return true
    }

    /// Stops the reading thread at its next batch and waits until it is
    /// done with the reader.
    func stopAndWait() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !producerDone { condition.wait() }
        full.removeAll()
        condition.unlock()
    }
}
