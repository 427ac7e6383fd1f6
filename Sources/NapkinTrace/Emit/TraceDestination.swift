import Foundation

/// Turns the value of `NAPKIN_TRACE` into a sink.
///
/// | value | destination |
/// | --- | --- |
/// | `stdout` (or `-`), `stderr` | the process's standard output or error, if open for writing |
/// | `fd:N` | the already-open file descriptor `N` (a pipe from `napkin-inspect live -- CMD`); refused if it is not open, open for reading only, or `0` (standard input) |
/// | a path ending in `/` | a directory: the trace goes to `napkin-<pid>.ndjson` inside it, so several processes can share one setting |
/// | `tcp:HOST:PORT` (IPv6: `tcp:[::1]:PORT`) | an inspector listening there (`napkin-inspect live --listen PORT`), through a ``SocketTraceSink`` that connects in the background, reconnects, and marks each gap |
/// | `unix:PATH` | an inspector listening on the unix socket file `PATH`, likewise |
/// | any other path | that file, as ``NDJSONTraceSink/init(path:)`` describes: a napkin trace (or an empty file) there is replaced, anything else is left untouched; a FIFO needs its reader already there |
///
/// Every check happens here, when tracing starts, on the thread that creates
/// the first router or interactor; none of them waits (see
/// ``NDJSONTraceSink/init(path:)``). A refusal is a ``TraceSinkError``, which
/// the caller turns into one line on standard error, and tracing stays off.
/// For `tcp:` and `unix:` only the spelling is checked here (no name lookup,
/// no connection): an inspector that is not there yet is not an error, the
/// sink connects when it can (see ``SocketTraceSink``).
///
/// Descriptors (`stdout`, `stderr`, `fd:N`) are used as they are: napkin does
/// not change their flags, since other processes may share them, with one
/// exception: on Apple platforms a pipe, FIFO or device gets `F_SETNOSIGPIPE`
/// (a reader that quits must not kill the app). To a pipe,
/// every write is at most `PIPE_BUF` bytes of whole lines, so several
/// processes writing to one inherited pipe never split each other's records.
package enum TraceDestination {
    /// The sink for `value`; throws a ``TraceSinkError`` naming the fix when `value` cannot be used.
    package static func sink(for value: String) throws -> any TraceSink {
        switch value {
        case "stdout", "-": return try descriptor(1, named: "standard output (fd 1)")
        case "stderr": return try descriptor(2, named: "standard error (fd 2)")
        default: break
        }
        if let socket = try TraceSocketAddress.destination(value) {
            return SocketTraceSink(address: socket)
        }
        if value.hasPrefix("fd:") {
            guard let fd = Int32(value.dropFirst(3)), fd >= 0 else {
                throw TraceSinkError("'\(value)' is not a file descriptor; use fd:N with N a number, e.g. fd:3")
            }
            guard fd != 0 else {
                throw TraceSinkError("fd:0 is standard input, which is for reading; "
                                     + "give a descriptor open for writing, e.g. fd:3 with 3>FILE, or stdout")
            }
            return try descriptor(fd, named: "descriptor \(fd)")
        }
        if value.hasSuffix("/") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw TraceSinkError("directory \(value) does not exist; create it or give a file path")
            }
            return try NDJSONTraceSink(path: value + "napkin-\(ProcessInfo.processInfo.processIdentifier).ndjson")
        }
        return try NDJSONTraceSink(path: value)
    }

    /// A sink for the inherited descriptor `fd`, once it is known to be open
    /// for writing (`fcntl(F_GETFD)`, then the access mode from `F_GETFL`).
    /// Without the check, a descriptor that is not open when tracing starts
    /// would later receive the trace in whatever file the app opens as `fd`.
    private static func descriptor(_ fd: Int32, named name: String) throws -> NDJSONTraceSink {
        switch Platform.descriptorAccess(of: fd) {
        case nil:
            throw TraceSinkError("\(name) is not open in this process; open it for writing before the app starts "
                                 + "(e.g. 3>trace.ndjson for fd:3, or napkin-inspect live -- CMD)")
        case .readOnly:
            throw TraceSinkError("\(name) is open for reading only; open it for writing (e.g. 3>trace.ndjson for fd:3)")
        case .writeOnly, .readWrite:
            return NDJSONTraceSink(fileDescriptor: fd, closeWhenDone: false)
        }
    }
}
