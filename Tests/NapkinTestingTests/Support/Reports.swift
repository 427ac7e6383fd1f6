import NapkinTrace
import Testing

/// Reports and findings made by hand, for the tests of the trait's parts.
enum Reports {
    /// A report with these findings and this many undecided checks.
    static func report(_ findings: [Finding] = [], undecided: Int = 0) -> AnalysisReport {
        AnalysisReport(findings: findings, undecided: undecided, endedCleanly: false, droppedEvents: 0)
    }

    /// A `not-deallocated` finding about `CartRouter#4`.
    static func leak(locations: [Finding.CodeReference] = []) -> Finding {
        Finding(rule: .notDeallocated, subject: .router, type: "CartRouter", id: 4, seqs: [12, 20], time: 0,
                message: "detached, but still alive 1s later: something retains it", locations: locations)
    }

    /// The location of a test declared in `Tests/ShopTests/ShopTests.swift` of a package in `/src/shop`.
    static let testLocation = SourceLocation(fileID: "ShopTests/ShopTests.swift", filePath: "/src/shop/Tests/ShopTests/ShopTests.swift",
                                             line: 10, column: 6)
}
