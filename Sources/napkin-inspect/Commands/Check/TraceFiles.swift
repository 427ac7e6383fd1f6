import Foundation

/// The trace files `check` reads: given files, directories of traces, and the
/// directory the traces of `check -- COMMAND` are written to.
enum TraceFiles {
    /// The `.ndjson` files in `directory`, sorted by name.
    static func find(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".ndjson") }.sorted().map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
    }

    /// `paths` with each directory replaced by the traces in it (a directory without any is an error).
    static func expand(_ paths: [String]) throws(CommandFailure) -> [String] {
        var files: [String] = []
        for path in paths {
            if isDirectory(path) {
                let found = find(in: path)
                if found.isEmpty { throw CommandFailure("\(path): a directory without .ndjson trace files") }
                files += found
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// `files` split into those that exist (or `-`, standard input) and
    /// those that do not, each in the given order.
    static func existing(_ files: [String]) -> (existing: [String], missing: [String]) {
        var existing: [String] = [], missing: [String] = []
        for file in files {
            if file == "-" || FileManager.default.fileExists(atPath: file) { existing.append(file) } else { missing.append(file) }
        }
        return (existing, missing)
    }

    /// A new empty directory under `TMPDIR` (or `/tmp`), for traces that are not kept.
    static func makeTemporaryDirectory() throws(CommandFailure) -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "/tmp"
        var template = Array("\(base)/napkin-check-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CommandFailure("cannot create a temporary directory in \(base) (set TMPDIR to a writable directory)")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `--trace-dir DIR`: creates it if needed; an existing one must hold no traces (nothing is overwritten).
    static func prepareKeptDirectory(_ path: String) throws(CommandFailure) -> String {
        let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
        if FileManager.default.fileExists(atPath: directory) {
            guard isDirectory(directory) else { throw CommandFailure("--trace-dir \(path): exists and is not a directory") }
            guard find(in: directory).isEmpty else {
                throw CommandFailure("--trace-dir \(path): already holds .ndjson traces; give an empty or new directory (nothing is overwritten)")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("--trace-dir \(path): cannot create it (\(error.localizedDescription))")
            }
        }
        return directory
    }

    /// `path` from the root: what a process that runs elsewhere (a test host
    /// on a simulator starts in its own directory) must be given.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Whether `path` exists and is a directory.
    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
