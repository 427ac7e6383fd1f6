/// The code locations a trace names, each kept once: there are as many as
/// there are lines in the app that create, attach, detach or start tasks, a
/// handful, however long the trace. Nodes and tasks keep an index (`UInt32`,
/// 0 for "not known") instead of the location.
///
/// A hostile trace could name a new location in every record: beyond
/// ``limit`` distinct ones, new locations are not kept (their records read
/// as if they had none), so memory stays bounded.
struct CodeLocationTable: Sendable {
    /// The most distinct locations kept.
    static let limit = 65_536
    private var locations: [CodeLocation] = []
    private var indexes: [CodeLocation: UInt32] = [:]

    /// The index of `location`, adding it if it is new (0 for nil, or when full).
    mutating func index(of location: CodeLocation?) -> UInt32 {
        guard let location else { return 0 }
        if let known = indexes[location] { return known }
        guard locations.count < Self.limit else { return 0 }
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
