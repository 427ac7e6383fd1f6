import Foundation

/// A file napkin-inspect writes and may later replace (a baseline, a
/// report, an export): written atomically, and never over a file of any
/// other kind, so nothing a user wrote is lost.
enum ReplaceableFile {
    /// Fails unless `path` may be written as a `noun` (`"report"`): a new file
    /// in an existing directory, or a regular file that `isOwn` recognises
    /// from its first bytes (at most 4 KiB) as one napkin-inspect wrote.
    /// Called before any work is done.
    static func ensureWritable(_ path: String, noun: String, isOwn: (Data) -> Bool) throws(CommandFailure) {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw CommandFailure("cannot write the \(noun) \(path): it is a directory (give a file path)")
            }
            let head = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 4096) } ?? Data()
            guard info.st_mode & S_IFMT == S_IFREG, isOwn(head) else {
                throw CommandFailure("refusing to overwrite \(path): it is not a napkin \(noun) (give another path, or delete the file first)")
            }
        } else {
            let parent = directory(of: path)
            guard stat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw CommandFailure("cannot write the \(noun) \(path): no directory \(parent) (create it first)")
            }
        }
    }

    /// The directory `path` is in (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A new empty file next to `path` (`.napkin-NOUN-XXXXXX`), with the
    /// permissions of the file at `path` (or those the umask gives a new
    /// file): its descriptor and its path, for a writer that renames it over
    /// `path` once complete (``writeAtomically(_:to:noun:)``, `export -o`).
    static func makeTemporary(next path: String, noun: String) throws(CommandFailure) -> (fd: Int32, path: String) {
        var template = Array("\(directory(of: path))/.napkin-\(noun)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CommandFailure("cannot write the \(noun) \(path): \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var info = stat()
        let mask = umask(0)
        umask(mask)
        fchmod(fd, stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~mask)
        return (fd, temporary)
    }

    /// Writes `text` to a new temporary file next to `path`, flushes it to
    /// disk, and renames it over `path`: a reader sees the old file or the
    /// new one, never a part. The file keeps the mode of the one it replaces.
    static func writeAtomically(_ text: String, to path: String, noun: String) throws(CommandFailure) {
        let (fd, temporary) = try makeTemporary(next: path, noun: noun)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw CommandFailure("cannot write the \(noun) \(path): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure("cannot write the \(noun) \(path): \(reason)")
        }
    }
}
