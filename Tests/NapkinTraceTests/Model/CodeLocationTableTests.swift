@testable import NapkinTrace
import Testing

/// The model keeps each code location once, and a hostile trace cannot make
/// it keep much: long file ids are dropped, and so is everything past the
/// count and byte limits.
@Suite("Code location table")
struct CodeLocationTableTests {
    @Test("one index per distinct location; nil is 0; the index gives the location back")
    func interning() {
        var table = CodeLocationTable()
        let a = CodeLocation(fileID: "App/A.swift", line: 3)
        let b = CodeLocation(fileID: "App/A.swift", line: 4)
        #expect(table.index(of: nil) == 0)
        let first = table.index(of: a)
        #expect(first != 0 && table.index(of: CodeLocation(fileID: "App/A.swift", line: 3)) == first)
        #expect(table.index(of: b) != first)
        #expect(table[first] == a && table[0] == nil && table[999] == nil)
        #expect(table.count == 2)
    }

    @Test("hostile: a file id over 1 KiB is not kept; past 8 MiB of file ids nothing new is")
    func bounded() {
        var table = CodeLocationTable()
        #expect(table.index(of: CodeLocation(fileID: String(repeating: "x", count: CodeLocationTable.maxFileIDBytes + 1), line: 1)) == 0)
        #expect(table.count == 0)
        let long = String(repeating: "y", count: CodeLocationTable.maxFileIDBytes)
        var kept = 0
        for line in 1...(CodeLocationTable.maxTotalBytes / CodeLocationTable.maxFileIDBytes + 100) {
            if table.index(of: CodeLocation(fileID: long, line: UInt(line))) != 0 { kept += 1 }
        }
        #expect(kept == CodeLocationTable.maxTotalBytes / CodeLocationTable.maxFileIDBytes)
        #expect(table.index(of: CodeLocation(fileID: "A/B.swift", line: 1)) == 0, "full: nothing new")
        #expect(table.index(of: CodeLocation(fileID: long, line: 1)) != 0, "a known one is still found")
    }
}
