import Foundation
import NapkinTrace

extension TraceReader {
    // MARK: - Reading ahead

    /// Reads the remaining items as ``read(event:diagnostic:)`` does, in the
    /// same order and on the calling thread, while a second thread reads and
    /// parses the input ahead of them: at most four batches of 2,048 items
    /// wait, besides the one it fills and the one handed out (about 200 KB
    /// of events each).
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
    /// - A reader that follows its input is read on the calling thread, as
    ///   ``read(event:diagnostic:)`` reads it: read ahead, it would wait for
    ///   data on the other thread, and `event` would see nothing until a
    ///   batch filled.
    public func readAhead<E: Error>(event: (TraceEvent) throws(E) -> Bool,
                                    diagnostic: (TraceDiagnostic) throws(E) -> Void) throws(E) {
        if follows {
            try read(event: event, diagnostic: diagnostic)
            return
        }
        let channel = ReadAheadChannel()
        let reader = ReaderHandle(reader: self)
        let thread = Thread {
            ReadAheadChannel.produce(from: reader.reader, into: channel)
            // Only once `produce` returned: its references to the reader are gone.
            channel.finishProducing()
        }
        thread.stackSize = 1 << 23
        thread.start()
        var batch: ReadAheadBatch?
        do {
            while let next = channel.take(returning: batch) {
                batch = next
                if try !next.handOver(event: event, diagnostic: diagnostic) {
                    channel.stopAndWait()
                    return
                }
            }
        } catch {
            channel.stopAndWait()
            throw error
        }
        channel.stopAndWait()
    }
}

// MARK: - The hand-off and its batches

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
///
/// The events are kept in storage of their own, not an array, so that each
/// is moved out for `event` and back after it: handed over without a copy,
/// and so with no reference counting on the using thread (the reading
/// thread releases the events when it empties the batch to fill it again).
///
/// `@unchecked Sendable`: a batch belongs to one thread at a time, handed
/// from one to the other through ``ReadAheadChannel``'s lock.
private final class ReadAheadBatch: @unchecked Sendable {
    /// Room for ``ReadAheadChannel/batchSize`` events, the first ``count`` initialised.
    private let events = UnsafeMutablePointer<TraceEvent>.allocate(capacity: ReadAheadChannel.batchSize)
    private(set) var count = 0
    private var diagnostics: [(before: Int, diagnostic: TraceDiagnostic)] = []

    deinit {
        events.deinitialize(count: count)
        events.deallocate()
    }

    var isEmpty: Bool { count == 0 && diagnostics.isEmpty }
    /// Whether it holds ``ReadAheadChannel/batchSize`` items, events and diagnostics.
    var isFull: Bool { count + diagnostics.count >= ReadAheadChannel.batchSize }

    /// Adds `event` (the batch is not full).
    func append(_ event: TraceEvent) {
        (events + count).initialize(to: event)
        count += 1
    }

    /// Adds `diagnostic`, after the events so far.
    func append(_ diagnostic: TraceDiagnostic) {
        diagnostics.append((count, diagnostic))
    }

    func removeAll() {
        events.deinitialize(count: count)
        count = 0
        if !diagnostics.isEmpty { diagnostics.removeAll(keepingCapacity: true) }
    }

    /// Hands every item to `event` or `diagnostic`, in order; false if
    /// `event` returned false (nothing after it is handed over).
    func handOver<E: Error>(event: (TraceEvent) throws(E) -> Bool,
                            diagnostic: (TraceDiagnostic) throws(E) -> Void) throws(E) -> Bool {
        // Read once: a class's stored properties are checked for exclusive
        // access on every use.
        let (events, count, diagnostics) = (self.events, self.count, self.diagnostics)
        var nextDiagnostic = 0
        for index in 0..<count {
            while nextDiagnostic < diagnostics.count && diagnostics[nextDiagnostic].before == index {
                try diagnostic(diagnostics[nextDiagnostic].diagnostic)
                nextDiagnostic += 1
            }
            let slot = events + index
            let current = slot.move()
            let going: Bool
            do {
                going = try event(current)
            } catch {
                slot.initialize(to: current)
                throw error
            }
            slot.initialize(to: current)
            if !going { return false }
        }
        while nextDiagnostic < diagnostics.count {
            try diagnostic(diagnostics[nextDiagnostic].diagnostic)
            nextDiagnostic += 1
        }
        return true
    }
}

// MARK: - The channel

/// Batches of items from the thread that reads ahead to the one that uses
/// them: at most ``depth`` full batches wait, and the used ones go back to
/// be filled again (their storage is reused, not reallocated).
///
/// `@unchecked Sendable`: every stored property is read and written only with
/// `condition` locked (an `NSCondition`: a pthread mutex and its condition variable).
private final class ReadAheadChannel: @unchecked Sendable {
    /// Items per batch: large enough that the handover costs little per
    /// item, small enough that the batches in flight stay in the cache.
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
    /// input ends or the other side stops (then the thread calls
    /// ``finishProducing()``). A batch is handed over when it
    /// holds ``batchSize`` items, events or diagnostics (a run of bad lines
    /// is handed over as it comes, not held until the next event).
    static func produce(from reader: TraceReader, into channel: ReadAheadChannel) {
        var batch = ReadAheadBatch()
        do throws(Stopped) {
            try reader.read(event: { (event) throws(Stopped) -> Bool in
                batch.append(event)
                if batch.isFull, !channel.put(&batch) { throw Stopped() }
                return true
            }, diagnostic: { (diagnostic) throws(Stopped) in
                guard reader.rejection == nil else { return }
                batch.append(diagnostic)
                if batch.isFull, !channel.put(&batch) { throw Stopped() }
            })
            if !batch.isEmpty { _ = channel.put(&batch) }
        } catch {
            // The using side stopped: nothing more to hand over.
        }
    }

    /// Thrown on the reading thread to leave the reader once the using side stopped.
    private struct Stopped: Error {}

    /// Hands over `batch` (waiting while ``depth`` batches wait) and puts
    /// an empty one in its place; false once the using side stopped.
    private func put(_ batch: inout ReadAheadBatch) -> Bool {
        condition.lock()
        while full.count >= Self.depth && !stopped { condition.wait() }
        if stopped {
            condition.unlock()
            return false
        }
        full.append(batch)
        batch = empty.popLast() ?? ReadAheadBatch()
        condition.broadcast()
        condition.unlock()
        // Emptied here, not on the using side: releasing the events' strings
        // is work the reading thread has time for.
        batch.removeAll()
        return true
    }

    /// The reading thread is done with the reader.
    func finishProducing() {
        condition.lock()
        producerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next full batch, or nil when the reading thread is done and
    /// every batch was taken. `used` (the previous batch) goes back to the
    /// reading thread, which empties it and fills it again.
    func take(returning used: ReadAheadBatch?) -> ReadAheadBatch? {
        condition.lock()
        defer { condition.unlock() }
        if let used { empty.append(used) }
        while full.isEmpty && !producerDone { condition.wait() }
        guard !full.isEmpty else { return nil }
        let next = full.removeFirst()
        condition.broadcast()
        return next
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
