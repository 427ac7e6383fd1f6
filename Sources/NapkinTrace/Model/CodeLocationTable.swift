/// The code locations a trace names, each kept once: there are as many as
/// there are lines in the app that create, attach, detach or start tasks, a
/// handful, however long the trace. Nodes and tasks keep an index (`UInt32`,
/// 0 for "not known") instead of the location.
///
/// A hostile trace could name a new, long location in every record: a
/// location whose file id is longer than ``maxFileIDBytes`` is not kept, and
/// beyond ``limit`` distinct ones or ``maxTotalBytes`` of file ids, new
/// locations are not kept either (their records read as if they had none),
/// so memory stays bounded (about 8 MiB at most).
struct CodeLocationTable: Sendable {
    /// The most distinct locations kept.
    static let limit = 65_536
    /// The longest file id kept (a `#fileID` is a module and a file name).
    static let maxFileIDBytes = 1_024
    /// The most bytes of file ids kept in all.
    static let maxTotalBytes = 8 << 20
    private var locations: [CodeLocation] = []
    private var totalBytes = 0
    private var indexes: [CodeLocation: UInt32] = [:]

    /// The index of `location`, adding it if it is new (0 for nil, or when full).
    mutating func index(of location: CodeLocation?) -> UInt32 {
        guard let location else { return 0 }
        let bytes = location.withFileIDBytes { $0.count }
        guard bytes <= Self.maxFileIDBytes else { return 0 }
        if let known = indexes[location] { return known }
        guard locations.count < Self.limit, totalBytes + bytes <= Self.maxTotalBytes else { return 0 }
        totalBytes += bytes
        locations.append(location)
        let index = UInt32(locations.count)
        indexes[location] = index
        return index
    }

    /// The location at `index`, if any.
    subscript(index: UInt32) -> CodeLocation? {
        index == 0 || Int(index) > locations.count ? nil : locations[Int(index) - 1]
    }

    /// How many distinct locations are kept.
    var count: Int { locations.count }
}
