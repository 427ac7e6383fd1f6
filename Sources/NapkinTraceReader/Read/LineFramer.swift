import NapkinTrace

/// Cuts a ``TraceReader``'s input into lines, in one fixed buffer.
///
/// The buffer holds ``TraceReader/Options/maxLineLength`` plus one read chunk,
/// so memory does not depend on the trace's length. A line longer than the
/// limit is skipped (counted, with a diagnostic), however it was chunked. A
/// last line without a newline is returned as incomplete when the input ends
/// (not when following: the writer may still finish it).
struct LineFramer {
    // MARK: - Lines

    /// One line, without its newline, pointing into the buffer: valid until
    /// the next call to ``next(from:pending:)``.
    struct Line {
        /// The line's bytes (a trailing `\r` included).
        var bytes: UnsafeBufferPointer<UInt8>
        /// `false` for a last line the input ended in the middle of.
        var complete: Bool
        /// The 1-based line number.
        var number: Int
        /// How many bytes from the line's start may be loaded: the line and
        /// what follows it in the buffer, at least 8 bytes more (see
        /// ``LineFramer/padding``), so that the parser can read whole words.
        var readable: Int
    }

    /// What ``next(from:pending:)`` found.
    enum Next {
        /// A line.
        case line(Line)
        /// The followed file started over (truncated or replaced); the note says which.
        /// Line numbers start again at 1.
        case restarted(TraceDiagnostic)
        /// No line now: the input ended or reading was stopped, or a
        /// diagnostic in `pending` comes first.
        case noLine
    }

    // MARK: - State

    /// How many bytes one `read` asks for, unless the reader's options say otherwise.
    static let chunk = 256 << 10

    /// Lines longer than this many bytes are skipped.
    let maxLineLength: Int
    /// Following a growing file: a last line without newline is not final.
    let follow: Bool
    /// Bytes after the buffer's usable part, zeroed, so that a line at its
    /// very end can still be read a word (8 bytes) at a time.
    static let padding = 16
    /// `maxLineLength` plus one chunk (and one spare byte), allocated once,
    /// plus ``padding``.
    let buffer: UnsafeMutableRawBufferPointer
    /// The usable part of the buffer: all but the padding.
    private let capacity: Int
    /// How many bytes one `read` asks for.
    let readSize: Int
    /// The unread bytes are `start..<end`.
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Inside a line already reported as too long: drop bytes up to its newline.
    private var skippingLongLine = false
    /// Bytes consumed so far.
    private(set) var byteCount = 0
    /// Lines seen so far (including blank, bad and too long ones).
    private(set) var lineCount = 0
    /// Lines skipped for being longer than ``maxLineLength``.
    private(set) var tooLongLineCount = 0
    /// Whether the input ended in the middle of a line.
    private(set) var endedMidLine = false

    init(maxLineLength: Int, follow: Bool, chunk: Int = LineFramer.chunk) {
        self.maxLineLength = maxLineLength
        self.follow = follow
        self.readSize = max(4096, chunk)
        self.capacity = maxLineLength + readSize + 1
        self.buffer = .allocate(byteCount: capacity + Self.padding, alignment: 16)
        // Every byte initialised: words loaded past a line's end read zeros or older bytes, never garbage.
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
    }

    // MARK: - The buffer and its lines

    /// Frees the buffer.
    func release() {
        buffer.deallocate()
    }

    /// The next line, if it is already whole in the buffer and nothing
    /// unusual is going on (not too long, not inside a line being skipped);
    /// otherwise nil, with nothing consumed: ``next(from:pending:)`` then
    /// takes it from there. The reader's fast path.
    @inline(__always)
    mutating func nextBufferedLine() -> Line? {
        guard end > start, !skippingLongLine,
              let offset = Platform.offsetOfNewline(in: buffer.baseAddress! + start, count: end - start),
              offset <= maxLineLength else { return nil }
        let lineStart = start
        start = lineStart + offset + 1
        byteCount += offset + 1
        lineCount += 1
        return line(from: lineStart, to: lineStart + offset, complete: true)
    }

    /// The unread bytes in the buffer, with how many may be loaded from
    /// their start (at least 8 past them), when nothing unusual is going on
    /// (not inside a line being skipped): for a parser that finds the end
    /// of the line itself, then calls ``consumeLine(length:)``.
    @inline(__always)
    func unreadBytes() -> (bytes: UnsafeBufferPointer<UInt8>, readable: Int)? {
        guard end > start, !skippingLongLine else { return nil }
        let bytes = UnsafeBufferPointer(start: (buffer.baseAddress! + start).assumingMemoryBound(to: UInt8.self),
                                        count: end - start)
        return (bytes, buffer.count - start)
    }

    /// Takes the next line, of `length` bytes (at most ``maxLineLength``),
    /// and its newline, found by a parser in ``unreadBytes()``: as
    /// ``nextBufferedLine()`` would have.
    @inline(__always)
    mutating func consumeLine(length: Int) -> Line {
        let lineStart = start
        start = lineStart + length + 1
        byteCount += length + 1
        lineCount += 1
        return line(from: lineStart, to: lineStart + length, complete: true)
    }

    /// The next line from `input`; diagnostics (a line too long, a failed
    /// read) go to `pending`.
    mutating func next(from input: inout FileFollower, pending: inout [TraceReader.Item]) -> Next {
        while true {
            if end > start, let offset = Platform.offsetOfNewline(in: buffer.baseAddress! + start, count: end - start) {
                let position = start + offset
                let lineStart = start
                start = position + 1
                byteCount += position + 1 - lineStart
                if skippingLongLine {
                    skippingLongLine = false
                    continue
                }
                lineCount += 1
                if position - lineStart > maxLineLength {
                    // Too long, even though it fit in the buffer: the limit does not depend on chunking.
                    reportTooLong(into: &pending)
                    return .noLine
                }
                return .line(line(from: lineStart, to: position, complete: true))
            }
            // No newline in the buffer.
            if end - start > maxLineLength {
                if !skippingLongLine {
                    lineCount += 1
                    reportTooLong(into: &pending)
                    skippingLongLine = true
                }
                byteCount += end - start
                start = 0
                end = 0
                if !pending.isEmpty { return .noLine }
            }
            if atEOF && !follow {
                guard end > start else { return .noLine }
                // The input ended without a newline.
                let lineStart = start
                byteCount += end - start
                start = end
                if skippingLongLine { return .noLine }
                lineCount += 1
                endedMidLine = true
                return .line(line(from: lineStart, to: end, complete: false))
            }
            switch fill(from: &input, pending: &pending) {
            case .more: continue
            case .noMore: return .noLine
            case .restarted(let note): return .restarted(note)
            }
        }
    }

    // MARK: - Helpers

    @inline(__always)
    private func line(from lineStart: Int, to lineEnd: Int, complete: Bool) -> Line {
        let bytes = UnsafeBufferPointer(start: (buffer.baseAddress! + lineStart).assumingMemoryBound(to: UInt8.self),
                                        count: lineEnd - lineStart)
        return Line(bytes: bytes, complete: complete, number: lineCount, readable: buffer.count - lineStart)
    }

    private mutating func reportTooLong(into pending: inout [TraceReader.Item]) {
        tooLongLineCount += 1
        // Not a record napkin writes; the trace's integrity counts it with the lines that are not records.
        pending.append(.diagnostic(TraceDiagnostic(.error, line: lineCount,
            "longer than \(maxLineLength) bytes; skipped (not a napkin trace line?)")))
    }

    private enum Fill {
        /// Bytes were added.
        case more
        /// There will be no more bytes.
        case noMore
        /// The buffer was emptied: the followed file started over.
        case restarted(TraceDiagnostic)
    }

    /// Moves the unread bytes to the front of the buffer and reads more after them.
    private mutating func fill(from input: inout FileFollower, pending: inout [TraceReader.Item]) -> Fill {
        if start > 0 {
            let remaining = end - start
            if remaining > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: remaining)
            }
            start = 0
            end = remaining
        }
        let room = capacity - 1 - end
        switch input.read(into: buffer.baseAddress! + end, count: min(room, readSize)) {
        case .bytes(let n):
            end += n
            return .more
        case .failed(let error):
            pending.append(.diagnostic(TraceDiagnostic(.error, line: nil, "read failed: \(error)")))
            atEOF = true
            return !follow && end > start ? .more : .noMore
        case .end:
            atEOF = true
            return end > start ? .more : .noMore
        case .stopped:
            return .noMore
        case .restarted(let note):
            start = 0
            end = 0
            lineCount = 0
            return .restarted(note)
        }
    }
}
