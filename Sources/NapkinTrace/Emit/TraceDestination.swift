import Foundation

/// Turns the value of `NAPKIN_TRACE` into a sink.
///
/// | value | destination |
/// | --- | --- |
/// | `stdout`, `stderr` | the process's standard output or error |
/// | `fd:N` | the already-open file descriptor `N` (a pipe from `napkin-inspect live -- CMD`) |
/// | a path ending in `/` | a directory: the trace goes to `napkin-<pid>.ndjson` inside it, so several processes can share one setting |
/// | any other path | that file (an existing napkin trace there is replaced) |
package enum TraceDestination {
    /// The sink for `value`; throws a ``TraceSinkError`` naming the fix when `value` cannot be used.
    package static func sink(for value: String) throws -> any TraceSink {
        switch value {
        case "stdout", "-": return NDJSONTraceSink.standardOutput
        case "stderr": return NDJSONTraceSink.standardError
        default: break
        }
        if value.hasPrefix("fd:") {
            guard let fd = Int32(value.dropFirst(3)), fd >= 0 else {
                throw TraceSinkError("'\(value)' is not a file descriptor; use fd:N with N a number, e.g. fd:3")
            }
            return NDJSONTraceSink(fileDescriptor: fd, closeWhenDone: false)
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
}
