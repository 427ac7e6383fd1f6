import NapkinTrace
import Testing

/// `Finding.fingerprint`: its fixed definition (FNV-1a 64 over the rule, the
/// type, the label and the code locations), and what it ignores.
@Suite("Finding fingerprint")
struct FindingFingerprintTests {
    static let attached = Finding.CodeReference(.attached, CodeLocation(fileID: "RibHouse/LoggedInRouter.swift", line: 58))
    static let created = Finding.CodeReference(.created, CodeLocation(fileID: "RibHouse/OrderRouter.swift", line: 12))

    static func finding(rule: Finding.Rule = .viewGoneStillAttached, type: String = "OrderRouter", id: NodeID = 16, label: String? = nil,
                        seqs: [UInt64] = [53, 62], time: UInt64 = 1_500_000_000, message: String = "its view was removed",
                        locations: [Finding.CodeReference] = [attached]) -> Finding {
        Finding(rule: rule, subject: label == nil ? .router : .task, type: type, id: id, label: label, seqs: seqs, time: time,
                message: message, locations: locations)
    }

    @Test("the hash of the documented text, as 16 lowercase hex digits (values computed independently)")
    func definition() {
        // FNV-1a 64 of "view-gone-still-attached|OrderRouter||attached=RibHouse/LoggedInRouter.swift:58".
        #expect(Self.finding().fingerprint == "7996d6b8e5276ef2")
        // FNV-1a 64 of "task-started-inactive|MenuInteractor|prefetch|": no locations, a label.
        #expect(Self.finding(rule: .taskStartedInactive, type: "MenuInteractor", label: "prefetch", locations: []).fingerprint == "6f3fb4e27ab259bb")
    }

    @Test("ids, sequence numbers, times and the message do not change it")
    func stableAcrossRecordings() {
        let first = Self.finding()
        let second = Self.finding(id: 18, seqs: [69, 77], time: 9_000_000_000, message: "another run, another text")
        #expect(first.fingerprint == second.fingerprint)
    }

    @Test("the rule, the type, the label and each code location (role, file, line, order) change it")
    func distinguishes() {
        let moved = Finding.CodeReference(.attached, CodeLocation(fileID: "RibHouse/LoggedInRouter.swift", line: 59))
        let otherRole = Finding.CodeReference(.detached, CodeLocation(fileID: "RibHouse/LoggedInRouter.swift", line: 58))
        let otherModule = Finding.CodeReference(.attached, CodeLocation(fileID: "Other/LoggedInRouter.swift", line: 58))
        let variants = [
            Self.finding(),
            Self.finding(rule: .notDeallocated),
            Self.finding(type: "MenuRouter"),
            Self.finding(label: "poller"),
            Self.finding(label: ""),
            Self.finding(locations: []),
            Self.finding(locations: [moved]),
            Self.finding(locations: [otherRole]),
            Self.finding(locations: [otherModule]),
            Self.finding(locations: [Self.attached, Self.created]),
            Self.finding(locations: [Self.created, Self.attached]),
        ]
        let prints = variants.map(\.fingerprint)
        // An empty label and no label hash alike (the definition writes `label ?? ""`); everything else differs.
        #expect(prints[4] == prints[0])
        let distinct = prints.enumerated().filter { $0.offset != 4 }.map(\.element)
        #expect(Set(distinct).count == distinct.count, "\(prints)")
        for print in prints {
            #expect(print.count == 16 && print.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }, "\(print)")
        }
    }

    @Test("a function (a creation recorded on a device) feeds it as its file id and line 0; a device's and a Mac's recordings differ")
    func functions() {
        let function = Finding.CodeReference(.created, CodeLocation(module: "RibHouse", function: "LoggedInBuilder.build(withListener:)"))
        let line = Finding.CodeReference(.created, CodeLocation(fileID: "RibHouse/LoggedInBuilder.swift", line: 21))
        // FNV-1a 64 of "not-deallocated|LoggedInRouter||created=RibHouse/LoggedInBuilder.build(withListener:):0".
        let device = Self.finding(rule: .notDeallocated, type: "LoggedInRouter", locations: [function])
        #expect(device.fingerprint == "6eab270a51978523")
        // FNV-1a 64 of "not-deallocated|LoggedInRouter||created=RibHouse/LoggedInBuilder.swift:21".
        let mac = Self.finding(rule: .notDeallocated, type: "LoggedInRouter", locations: [line])
        #expect(mac.fingerprint == "a178acca38e9a8b2")
        // Stable from run to run, as a line; read back from a trace, the same.
        let again = Finding.CodeReference(.created, CodeLocation(parsingFunction: "RibHouse/LoggedInBuilder.build(withListener:)")!)
        #expect(Self.finding(rule: .notDeallocated, type: "LoggedInRouter", id: 40, seqs: [900], locations: [again]).fingerprint
                == device.fingerprint)
    }

    @Test("a literal #fileID and the same one read back from a trace give the same fingerprint")
    func literalAndReadLocations() {
        let fileID: StaticString = "RibHouse/LoggedInRouter.swift"
        let literal = Finding.CodeReference(.attached, CodeLocation(fileID: fileID, line: 58))
        #expect(Self.finding(locations: [literal]).fingerprint == Self.finding().fingerprint)
    }
}
