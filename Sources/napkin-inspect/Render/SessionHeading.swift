import NapkinTrace

extension SessionInfo {
    /// `rib-house (pid 21693)`: how every command names the traced process.
    var heading: String { "\(app) (pid \(pid))" }
}
