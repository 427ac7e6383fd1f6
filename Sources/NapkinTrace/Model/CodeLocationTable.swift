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
///
/// Looking a location up is on the path of every located event, so it is
/// an open-addressed table of the locations' own hash (the file id's bytes
/// a word at a time, and the line, with a per-process seed so that a trace
/// cannot choose colliding names), checked byte for byte; the reader hands
/// the same file id storage for the same location, which makes that check
/// a pointer compare.
///
/// A creation line not worked out yet (deferred, from a recording read
/// as recorded) is kept by the identity of its answer, unread, under an
/// index of its own range (``deferredBit``): hashing it would work it out,
/// which a verdict with no finding never needs. Reading it back works it
/// out (nil if it came to nothing). Past ``deferredLimit`` of them, a new
/// one is worked out at once and kept by value. Two such entries may name
/// one line (two call stacks through one builder); readers that group by
/// line compare the locations, not the indices.
struct CodeLocationTable: Sendable {
    /// The most distinct locations kept.
    static let limit = 65_536
    /// The longest file id kept (a `#fileID` is a module and a file name).
    static let maxFileIDBytes = 1_024
    /// The most bytes of file ids kept in all.
    static let maxTotalBytes = 8 << 20
    private var locations: [CodeLocation] = []
    /// The hash of each of `locations`.
    private var hashes: [UInt64] = []
    private var totalBytes = 0
    /// Open addressing: 1 + an index into `locations`, or 0 for an empty slot
    /// (a power of two, at most half full).
    private var slots: [UInt32] = []
    private let seed = codeLocationHashSeed
    /// Deferred locations, unread, and the index of each answer's identity.
    private var deferred: [CodeLocation] = []
    private var deferredIndices: [ObjectIdentifier: UInt32] = [:]
    /// Set in the index of a deferred location.
    static let deferredBit: UInt32 = 1 << 31
    /// The most deferred locations kept unread (each keeps its call stack
    /// until read, a few KiB); past it, a new one is worked out and kept
    /// by value (as many as `CreationSite` keeps stacks).
    static let deferredLimit = 8_192

    /// The index of `location`, adding it if it is new (0 for nil, or when full).
    mutating func index(of location: CodeLocation?) -> UInt32 {
        switch location {
        case .none: 0
        case .some(let location): index(of: location)
        }
    }

    /// The index of `location`, adding it if it is new (0 when full).
    private mutating func index(of location: borrowing CodeLocation) -> UInt32 {
        if let id = location.deferredID {
            if let known = deferredIndices[id] { return known }
            guard deferred.count < Self.deferredLimit else {
                guard let resolved = location.resolvedNow() else { return 0 }
                return index(of: resolved)
            }
            deferred.append(copy location)
            let index = UInt32(deferred.count) | Self.deferredBit
            deferredIndices[id] = index
            return index
        }
        return location.withFileIDBytes { bytes in
            guard bytes.count <= Self.maxFileIDBytes else { return 0 }
            let hash = Self.hash(bytes, line: location.line, seed: seed)
            let mask = slots.count &- 1
            if !slots.isEmpty {
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let entry = slots[slot]
                    if entry == 0 { break }
                    let k = Int(entry) &- 1
                    if hashes[k] == hash && locations[k].line == location.line
                        && locations[k].withFileIDBytes({ Self.equal($0, bytes) }) {
                        return entry
                    }
                    slot = (slot &+ 1) & mask
                }
            }
            guard locations.count < Self.limit, totalBytes + bytes.count <= Self.maxTotalBytes else { return 0 }
            totalBytes += bytes.count
            locations.append(copy location)
            hashes.append(hash)
            if locations.count * 2 > slots.count { rehash() } else { place(locations.count - 1) }
            return UInt32(locations.count)
        }
    }

    /// The location at `index`, if any (a deferred one worked out now).
    subscript(index: UInt32) -> CodeLocation? {
        if index & Self.deferredBit != 0 {
            let k = Int(index & ~Self.deferredBit)
            return k == 0 || k > deferred.count ? nil : deferred[k - 1].resolvedNow()
        }
        return index == 0 || Int(index) > locations.count ? nil : locations[Int(index) - 1]
    }

    /// How many distinct locations are kept (deferred ones included).
    var count: Int { locations.count + deferred.count }

    private mutating func place(_ k: Int) {
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hashes[k]) & mask
        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = UInt32(k &+ 1)
    }

    private mutating func rehash() {
        slots = [UInt32](repeating: 0, count: max(16, slots.count * 2))
        for k in locations.indices { place(k) }
    }

    @inline(__always)
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        if a.baseAddress == b.baseAddress || a.count == 0 { return true }
        return memoryEqual(a.baseAddress!, b.baseAddress!, a.count)
    }

    /// Whether the `count` bytes at `a` and `b` are the same.
    @inline(__always)
    private static func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var k = 0
        while k &+ 8 <= count {
            if UnsafeRawPointer(a + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + k).loadUnaligned(as: UInt64.self) { return false }
            k &+= 8
        }
        while k < count {
            if a[k] != b[k] { return false }
            k &+= 1
        }
        return true
    }

    /// A hash of a file id's bytes and a line, mixed a word at a time.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, line: UInt, seed: UInt64) -> UInt64 {
        let k1: UInt64 = 0x9E37_79B9_7F4A_7C15, k2: UInt64 = 0xBF58_476D_1CE4_E5B9
        var h = seed ^ (UInt64(line) &* k2) ^ UInt64(truncatingIfNeeded: bytes.count)
        var i = 0
        if let base = bytes.baseAddress {
            while i &+ 8 <= bytes.count {
                h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* k1
                h ^= h &>> 32
                i &+= 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count {
                tail |= UInt64(base[i]) &<< shift
                shift &+= 8
                i &+= 1
            }
            h = (h ^ tail) &* k1
        }
        h ^= h &>> 29
        h = h &* k2
        return h ^ (h &>> 32)
    }
}

/// The per-process seed of ``CodeLocationTable``'s hash.
private let codeLocationHashSeed = UInt64.random(in: 1...UInt64.max)
