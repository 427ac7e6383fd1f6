import Foundation

/// Finds the lines of a trace file that hold given sequence numbers, so that
/// a report can point into the trace itself (`check --format sarif`, for a
/// finding whose code it cannot name).
///
/// One pass over the file, reading it in chunks, stopping as soon as every
/// number asked for is found and after ``maxBytes`` bytes; a record's number
/// is the first `"seq":` of its line (that text cannot occur inside a JSON
/// string, where a quote is always escaped). A number on no line, a file that
/// cannot be read: not in the answer.
enum TraceSeqLines {
    /// The most bytes read: a huge trace costs a bounded second read.
    static let maxBytes = 1 << 30
    /// The size of one read.
    static let chunkSize = 1 << 16

    /// The 1-based line of the first record with each of `seqs` in the file at `path`.
    static func lines(of seqs: Set<UInt64>, in path: String) -> [UInt64: UInt] {
        guard !seqs.isEmpty, let file = FileHandle(forReadingAtPath: path) else { return [:] }
        defer { try? file.close() }
        var scanner = LineScanner(wanted: seqs)
        var read = 0
        while read < maxBytes, !scanner.isDone {
            guard let chunk = try? file.read(upToCount: chunkSize), !chunk.isEmpty else { break }
            read += chunk.count
            for byte in chunk {
                scanner.consume(byte)
                if scanner.isDone { break }
            }
        }
        scanner.consume(UInt8(ascii: "\n"))
        return scanner.found
    }

    /// Reads bytes one at a time, line by line.
    private struct LineScanner {
        /// `"seq":`.
        private static let key = Array(#""seq":"#.utf8)

        /// Where in a line the scanner is.
        private enum State {
            /// Looking for the key; `matched` of its bytes seen.
            case key(matched: Int)
            /// After the key: spaces, then the number.
            case colon
            /// In the number.
            case number(UInt64)
            /// This line's number is read (or is not one).
            case done
        }

        /// The numbers asked for.
        let wanted: Set<UInt64>
        /// The line of each number found so far.
        private(set) var found: [UInt64: UInt] = [:]
        /// The line being read.
        private var line: UInt = 1
        /// Where in it.
        private var state = State.key(matched: 0)

        /// Looks for `wanted`.
        init(wanted: Set<UInt64>) {
            self.wanted = wanted
        }

        /// Every number asked for is found.
        var isDone: Bool { found.count == wanted.count }

        /// Reads the next byte of the file.
        mutating func consume(_ byte: UInt8) {
            if byte == UInt8(ascii: "\n") {
                if case .number(let value) = state { record(value) }
                line += 1
                state = .key(matched: 0)
                return
            }
            switch state {
            case .key(let matched):
                if byte == Self.key[matched] {
                    state = matched + 1 == Self.key.count ? .colon : .key(matched: matched + 1)
                } else {
                    state = .key(matched: byte == Self.key[0] ? 1 : 0)
                }
            case .colon:
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { return }
                state = Self.digit(byte).map { .number(UInt64($0)) } ?? .done
            case .number(let value):
                if let digit = Self.digit(byte) {
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) = times.addingReportingOverflow(UInt64(digit))
                    state = overflow || overflow2 ? .done : .number(next)
                } else {
                    record(value)
                    state = .done
                }
            case .done:
                return
            }
        }

        /// Notes the line of `value`, if it is wanted and the first.
        private mutating func record(_ value: UInt64) {
            if wanted.contains(value), found[value] == nil { found[value] = line }
        }

        /// The value of an ASCII digit.
        private static func digit(_ byte: UInt8) -> UInt8? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
        }
    }
}
