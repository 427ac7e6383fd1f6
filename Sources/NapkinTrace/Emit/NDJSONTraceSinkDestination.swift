/// Opening a path for ``NDJSONTraceSink/init(path:)``: what a path may name,
/// and the checks that keep napkin from waiting or from overwriting what is
/// not a napkin trace.
extension NDJSONTraceSink {
    /// The first bytes of every napkin trace: its first record's first field.
    private static let traceSignature = Array(#"{"seq":"#.utf8)

    /// Opens `path` as documented at ``init(path:)``: never waits, never
    /// empties a file it could not check.
    static func openDestination(_ path: String) throws(TraceSinkError) -> (fd: Int32, isRegularFile: Bool) {
        // What is there before opening, for kinds that must not even be opened.
        let before = Platform.fileFacts(atPath: path)
        if let before { try refuse(before.kind, path) }
        let fd: Int32
        do {
            fd = try Platform.openForTraceWriting(path)
        } catch {
            if error.isNoReader && (before?.kind == .fifo || Platform.fileFacts(atPath: path)?.kind == .fifo) {
                throw TraceSinkError("\(path) is a named pipe (FIFO) with no reader; start its reader first "
                                     + "(e.g. napkin-inspect live < \(path)), or give a file path")
            }
            if error.isDirectory { try refuse(.directory, path) }
            throw TraceSinkError("cannot open \(path) for writing: \(error)")
        }
        // What was opened: the path may have changed since the look above.
        guard let opened = Platform.fileFacts(of: fd) else {
            Platform.closeDescriptor(fd)
            throw TraceSinkError("cannot examine \(path) after opening it")
        }
        do throws(TraceSinkError) {
            try refuse(opened.kind, path)
            if opened.kind == .regular {
                try checkReplaceable(path, opened: opened)
                do {
                    try Platform.truncateToEmpty(fd)
                } catch {
                    throw TraceSinkError("cannot empty \(path) to replace the napkin trace in it: \(error)")
                }
                Platform.setBlocking(fd)
            }
        } catch {
            Platform.closeDescriptor(fd)
            throw error
        }
        return (fd, opened.kind == .regular)
    }

    /// Throws for the kinds of file napkin never writes a trace to.
    private static func refuse(_ kind: Platform.FileKind, _ path: String) throws(TraceSinkError) {
        switch kind {
        case .directory:
            throw TraceSinkError("\(path) is a directory; end the value with / to write napkin-<pid>.ndjson inside it")
        case .blockDevice:
            throw TraceSinkError("\(path) is a block device; napkin never writes a trace onto a disk (give a file path)")
        case .socket:
            throw TraceSinkError("\(path) is a socket; napkin does not connect to sockets "
                                 + "(give fd:N with a connected socket, a FIFO or a file)")
        case .regular, .fifo, .characterDevice, .symbolicLink, .other:
            return
        }
    }

    /// Throws unless the regular file at `path`, open for writing as
    /// `opened`, may be replaced: its first bytes could be read (through
    /// `path`, and they are the same file) and it is empty or starts with a
    /// napkin trace record.
    private static func checkReplaceable(_ path: String, opened: Platform.FileFacts) throws(TraceSinkError) {
        func unreadable(_ why: String) -> TraceSinkError {
            TraceSinkError("\(path) exists but could not be read to check that it is a napkin trace (\(why)); "
                           + "not overwriting it (make it readable, remove it, or choose another path)")
        }
        let reader: Int32
        do {
            reader = try Platform.openForReading(path, nonBlocking: true)
        } catch {
            throw unreadable(error.description)
        }
        defer { Platform.closeDescriptor(reader) }
        guard let read = Platform.fileFacts(of: reader),
              read.isSameFile(as: opened) else {
            throw TraceSinkError("\(path) changed while napkin was opening it; not overwriting it")
        }
        var bytes = [UInt8](repeating: 0, count: traceSignature.count)
        var count = 0
        reading: while count < bytes.count {
            let transfer = bytes.withUnsafeMutableBytes {
                Platform.readSome(reader, into: $0.baseAddress! + count, count: $0.count - count)
            }
            switch transfer {
            case .bytes(let n): count += n
            case .interrupted: continue
            case .nothing: break reading
            case .wouldBlock: throw unreadable("the file system would block")
            case .failed(let error): throw unreadable(error.description)
            }
        }
        if count == 0 { return }   // empty: nothing to lose
        guard bytes.prefix(count).elementsEqual(traceSignature) else {
            throw TraceSinkError("\(path) exists and is not a napkin trace; not overwriting it (choose another path)")
        }
    }
}
