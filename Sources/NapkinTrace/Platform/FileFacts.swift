// File facts, positions and the flags of a trace's destination: part of
// NapkinTrace's C-library layer (the files of Platform/, see Platform.swift),
// with its rules: libc's semantics, errors as values, nothing of libc in a
// package or public declaration.
internal import NapkinLibc

extension Platform {
    // MARK: - File facts and position

    /// The read/write position of `fd` (`lseek(fd, 0, SEEK_CUR)`); -1 if it has none.
    package static func currentOffset(of fd: Int32) -> Int64 {
        Int64(lseek(fd, 0, SEEK_CUR))
    }

    /// Moves the read/write position of `fd` back to the start of the file.
    package static func rewind(_ fd: Int32) {
        _ = lseek(fd, 0, SEEK_SET)
    }

    // MARK: - Trace destinations

    /// What kind of file a path or a descriptor names (`st_mode & S_IFMT`).
    package enum FileKind: Equatable, Sendable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A FIFO: a named pipe, or an anonymous pipe's end.
        case fifo
        /// A character device such as `/dev/null`, `/dev/full` or a terminal.
        case characterDevice
        /// A block device: a disk or a partition.
        case blockDevice
        /// A socket, or a socket file in the file system.
        case socket
        /// A symbolic link (only seen by calls that do not follow links).
        case symbolicLink
        /// Anything else.
        case other
    }

    /// What `stat(2)` says about a file: which file it is (two facts name
    /// the same file exactly when device and inode are equal; a file replaced
    /// at the same path gets a new inode), its kind and its size.
    package struct FileFacts: Equatable, Sendable {
        /// The device the file lives on (`st_dev`).
        package var device: UInt64
        /// The inode number on that device (`st_ino`).
        package var inode: UInt64
        /// The kind of file.
        package var kind: FileKind
        /// The size in bytes.
        package var size: Int64

        /// Whether both name the same file (device and inode).
        package func isSameFile(as other: FileFacts) -> Bool {
            device == other.device && inode == other.inode
        }
    }

    /// The facts of the open descriptor `fd` (`fstat`), or `nil` if it cannot be examined.
    package static func fileFacts(of fd: Int32) -> FileFacts? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return facts(info)
    }

    /// The facts of the file at `path`, following symbolic links (`stat`),
    /// or `nil` if there is none (a dangling link included) or it cannot be examined.
    package static func fileFacts(atPath path: String) -> FileFacts? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return facts(info)
    }

    private static func facts(_ info: stat) -> FileFacts {
        let kind: FileKind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        // `dev_t` is signed on Apple platforms (`Int32`) and unsigned on Linux:
        // keep its bits (no conversion that traps on a negative device number).
        // `ino_t` is unsigned and `off_t` a signed 64-bit integer on both.
        return FileFacts(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
                         kind: kind, size: Int64(info.st_size))
    }

    /// Opens `path` for writing a trace, creating it (mode 0644) if it does
    /// not exist, but never emptying it, and never waiting: `O_WRONLY |
    /// O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC`. Symbolic links are
    /// followed. A FIFO without a reader fails at once with `ENXIO` (see
    /// ``SystemError/isNoReader``) instead of waiting for one; the descriptor
    /// stays non-blocking (``setBlocking(_:)`` undoes that).
    package static func openForTraceWriting(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError.current }
        return fd
    }

    /// Empties the regular file open as `fd` (`ftruncate(fd, 0)`).
    package static func truncateToEmpty(_ fd: Int32) throws(SystemError) {
        guard ftruncate(fd, 0) == 0 else { throw SystemError.current }
    }

    /// Clears `O_NONBLOCK` on `fd`, so that its reads and writes wait again.
    package static func setBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, flags & O_NONBLOCK != 0 else { return }
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
    }

    /// What an open descriptor may be used for (its `O_ACCMODE`).
    package enum DescriptorAccess: Equatable, Sendable {
        /// Open for reading only: writes fail with `EBADF`.
        case readOnly
        /// Open for writing only.
        case writeOnly
        /// Open for reading and writing.
        case readWrite
    }

    /// The access mode of `fd`, or `nil` if `fd` is not an open descriptor of
    /// this process (`fcntl(F_GETFD)` fails). Reads only flags; changes nothing.
    package static func descriptorAccess(of fd: Int32) -> DescriptorAccess? {
        guard fd >= 0, fcntl(fd, F_GETFD) != -1 else { return nil }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return nil }
        switch flags & O_ACCMODE {
        case O_WRONLY: return .writeOnly
        case O_RDWR: return .readWrite
        default: return .readOnly   // O_RDONLY, and Linux's O_PATH descriptors
        }
    }
}
