// A TCP port that refuses connections for as long as a test holds it, for
// tests of an app whose inspector is not there.
import Foundation
import NapkinTrace

/// A TCP port on 127.0.0.1 that refuses connections while this value is
/// open: a socket bound to it that never listens. Nobody else can bind the
/// port meanwhile, as another test's listener did to a port merely found
/// free on a busy machine.
public final class RefusingPort {
    /// The port, bound and refusing.
    public let port: UInt16
    private let fd: Int32

    /// Binds a socket to a port the kernel picks, without listening.
    public init() throws {
        #if canImport(Darwin)
        let type = SOCK_STREAM
        #else
        let type = Int32(SOCK_STREAM.rawValue)
        #endif
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, let port = Platform.boundPort(of: fd) else {
            Foundation.close(fd)
            throw TestFailure("bind 127.0.0.1:0: errno \(errno)")
        }
        self.fd = fd
        self.port = port
    }

    /// Releases the port.
    public func close() { Foundation.close(fd) }
}
