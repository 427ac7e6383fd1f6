extension Finding {
    /// A stable identity for the bug a finding reports, the same from one run
    /// or trace to the next: 16 lowercase hex digits.
    ///
    /// It is the 64-bit FNV-1a hash of the UTF-8 of
    /// `"RULE|TYPE|LABEL|"` followed by the finding's ``locations``, each
    /// written `ROLE=FILEID:LINE` and joined with `,` (the label is empty for
    /// a finding without one). It never depends on node ids, sequence numbers
    /// or times, so the same leak in two recordings has the same fingerprint,
    /// and two findings of one rule about one type that point at the same
    /// lines share one. Baselines (`check --baseline`) and SARIF's
    /// `partialFingerprints` use it.
    public var fingerprint: String {
        let key = "\(rule.rawValue)|\(type)|\(label ?? "")|"
            + locations.map { "\($0.role.rawValue)=\($0.location.fileID):\($0.location.line)" }.joined(separator: ",")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
