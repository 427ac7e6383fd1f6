import NapkinTrace

/// How every command names one traced process: the heading of its session
/// record (``SessionInfo``), which the file is named after.
extension SessionInfo {
    /// `rib-house (pid 21693)`: how every command names the traced process;
    /// `rib-house (pid 21693, part 2, 40 events lost)` for a part of its
    /// trace that came after a gap (over a socket).
    var heading: String { "\(app) (pid \(pid)" + (partSummary.map { ", " + $0 } ?? "") + ")" }
}
