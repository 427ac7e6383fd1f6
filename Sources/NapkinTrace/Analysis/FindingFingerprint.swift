extension Finding {
    /// A stable identity for the finding, the same in every recording of
    /// the same bug: 16 lowercase hex digits.
    ///
    /// It hashes only what does not change from run to run: the rule, the
    /// subject's type name, the task's label and the code locations (as
    /// `#fileID` and line, not a path on some machine); never node ids,
    /// sequence numbers, times or the message. Two findings of one rule about
    /// one type at the same lines of code therefore share it, which is what a
    /// baseline of known findings (`check --baseline`) and SARIF's
    /// `partialFingerprints` (`check --format sarif`) need.
    ///
    /// The definition is fixed (version 1): FNV-1a, 64-bit, over the UTF-8 of
    ///
    ///     "\(rule.rawValue)|\(type)|\(label ?? "")|"
    ///         + locations.map { "\($0.role.rawValue)=\($0.location.fileID):\($0.location.line)" }
    ///                    .joined(separator: ",")
    ///
    /// written as 16 lowercase hexadecimal digits. Changing it changes every
    /// stored fingerprint: a new definition needs a new name.
    ///
    /// A location that names a function (``CodeLocation/isFunction``: a
    /// creation recorded where only the symbol could be had, an iOS device)
    /// feeds it like a line, through the same definition: its file id is
    /// `Module/Type.function(label:)` and its line 0
    /// (`created=RibHouse/LoggedInBuilder.build(withListener:):0`). A
    /// function is as stable from run to run as a line (more: it does not
    /// move when lines are added above it), so a device's findings match
    /// each other in baselines. But the same bug recorded on a device
    /// (the function) and on a Mac or a simulator (the builder's line)
    /// fingerprints differently: a baseline written from one kind of
    /// recording does not know the other's findings.
    public var fingerprint: String {
        let references = locations.map { "\($0.role.rawValue)=\($0.location.fileID):\($0.location.line)" }
        let text = "\(rule.rawValue)|\(type)|\(label ?? "")|" + references.joined(separator: ",")
        return FNV1a64.hex(text)
    }
}

/// FNV-1a, 64-bit (Fowler, Noll, Vo): a small, stable, non-cryptographic hash.
enum FNV1a64 {
    /// The offset basis.
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The FNV prime for 64 bits.
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `text`'s UTF-8 bytes.
    static func hash(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }

    /// The hash of `text` as 16 lowercase hex digits.
    static func hex(_ text: String) -> String {
        let digits = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
