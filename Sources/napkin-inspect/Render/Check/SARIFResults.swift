import NapkinTrace
import NapkinTraceReader

/// The SARIF results of one trace: one per finding and one per trace
/// problem, each with at least one location (GitHub code scanning rejects
/// a whole upload for one result without).
///
/// A finding points at, in this order of preference:
/// 1. its first code location that names a line (the line to look at), when
///    the source root holds that file: `path` relative to the source root,
///    and its line;
/// 2. the trace, when it is a file: the line of the finding's first event;
/// 3. that code location's `#fileID`, read as a path under the source
///    root (a guess: the file was not found);
/// 4. the trace's name, as given, line 1 (standard input, the traces
///    `check -- COMMAND` did not keep).
///
/// Its other code locations are its `relatedLocations`, each with its role
/// as message and its index among the finding's code locations as `id`:
/// the lines the source root holds, as a file and line, and every function.
/// A trace recorded on a device names a creation by its function alone
/// (``CodeLocation/isFunction``: no file, no line), which SARIF spells as a
/// logical location (`logicalLocations`: `fullyQualifiedName`
/// `LoggedInBuilder.build(withListener:)`, `kind` `function`) without a
/// `physicalLocation`, never as a region at line 0. A function is never the
/// primary location: GitHub code scanning places an alert by its file and
/// line, so a finding whose code locations are all functions points where a
/// finding without any does (2, else 4), and names the functions in its
/// related locations and at the end of its message (`...; at
/// RibHouse/LoggedInBuilder.build(withListener:) (created)`, as the github
/// format), which code scanning shows. A trace problem points at the
/// trace (2, else 4), line 1.
struct SARIFResults {
    /// The key of ``Finding/fingerprint`` in `partialFingerprints`.
    static let fingerprintKey = "napkinFindingHash/v1"
    /// The key of ``Retainers/key`` (the suspect reference, without ids) in
    /// `partialFingerprints`, present only when a retainer search marked one.
    static let retainerKey = "napkinRetainer/v1"

    /// The trace.
    let trace: CheckedTrace
    /// Where files are.
    let locator: SARIFLocator
    /// Whether the trace is a file the results can point into.
    private let traceIsFile: Bool
    /// The line of each first event of a finding that the source root cannot place.
    private let seqLines: [UInt64: UInt]

    /// The results of `trace`; reads the trace file again, once, when some of
    /// its findings can only point into it.
    init(_ trace: CheckedTrace, locator: SARIFLocator) {
        self.trace = trace
        self.locator = locator
        traceIsFile = SARIFLocator.isFile(trace.path)
        if traceIsFile {
            let unplaced = trace.findings.filter { finding in Self.primary(finding).flatMap { locator.code($0.location) } == nil }
            seqLines = Self.lines(of: Set(unplaced.compactMap(\.seqs.first)), in: trace.path)
        } else {
            seqLines = [:]
        }
    }

    /// The 1-based line of the first event with each of `seqs` in the trace
    /// file at `path`, read again, up to the last one found. A number on no
    /// event, a file that cannot be read: not in the answer.
    static func lines(of seqs: Set<UInt64>, in path: String) -> [UInt64: UInt] {
        guard !seqs.isEmpty, let reader = try? TraceReader(path: path) else { return [:] }
        var found: [UInt64: UInt] = [:]
        reader.readNumberedEvents { event, line in
            if seqs.contains(event.seq), found[event.seq] == nil { found[event.seq] = UInt(line) }
            return found.count < seqs.count
        }
        return found
    }

    /// One result per trace problem.
    var problems: [SARIF.Result] {
        trace.traceProblems.map { problem in
            SARIF.Result(
                ruleId: SARIFRules.integrity, ruleIndex: SARIFRules.integrityIndex, level: "error",
                message: SARIF.Message(text: "Trace problem in \(printablePath): \(PrintableText.printable(problem, limit: FindingLine.maxMessage))"),
                locations: [SARIF.Location(physicalLocation: locator.file(trace.path, line: 1), message: SARIF.Message(text: "the trace"))],
                properties: SARIF.ResultProperties(trace: trace.path))
        }
    }

    /// One result per finding (not the allowed ones).
    var findings: [SARIF.Result] {
        trace.findings.map(result)
    }

    /// The index of `finding`'s first code location that names a line (a
    /// function has no file and line to point at), if any.
    static func primaryIndex(_ finding: Finding) -> Int? {
        finding.locations.firstIndex { !$0.location.isFunction }
    }

    /// `finding`'s first code location that names a line, if any.
    static func primary(_ finding: Finding) -> Finding.CodeReference? {
        primaryIndex(finding).map { finding.locations[$0] }
    }

    /// The result of `finding`.
    func result(_ finding: Finding) -> SARIF.Result {
        let references = finding.locations
        let primary = Self.primaryIndex(finding)
        let related = references.enumerated().compactMap { index, reference -> SARIF.Location? in
            guard index != primary else { return nil }
            let role = SARIF.Message(text: reference.role.rawValue)
            if let function = SARIFLocator.logical(reference.location) {
                return SARIF.Location(id: index, logicalLocations: [function], message: role)
            }
            return locator.code(reference.location).map { SARIF.Location(id: index, physicalLocation: $0, message: role) }
        }
        return SARIF.Result(
            ruleId: finding.rule.rawValue, ruleIndex: SARIFRules.index(of: finding.rule), level: finding.severity.rawValue,
            message: SARIF.Message(text: "\(FindingLine.subject(finding)): \(FindingLine.message(finding))"
                + FindingLine.functionsText(finding)
                + (finding.retainers.map { "; " + RetainerText.oneLine($0) } ?? "")),
            locations: [primaryLocation(finding)],
            relatedLocations: related.isEmpty ? nil : related,
            partialFingerprints: fingerprints(finding),
            properties: SARIF.ResultProperties(
                trace: trace.path, subject: finding.subject.rawValue, nodeId: finding.id, seqs: finding.seqs,
                codeLocations: references.isEmpty ? nil
                    : references.map { "\($0.role.rawValue)=\($0.location)" }))
    }

    /// `partialFingerprints`: ``Finding/fingerprint`` under
    /// ``fingerprintKey``, unchanged whatever the retainers, and, when a
    /// retainer search marked a suspect reference, ``Retainers/key`` under
    /// ``retainerKey``.
    private func fingerprints(_ finding: Finding) -> [String: String] {
        var prints = [Self.fingerprintKey: finding.fingerprint]
        if let key = finding.retainers?.key { prints[Self.retainerKey] = key }
        return prints
    }

    /// Where `finding` points (the preferences above).
    private func primaryLocation(_ finding: Finding) -> SARIF.Location {
        let first = Self.primary(finding)
        if let first, let place = locator.code(first.location) {
            return SARIF.Location(physicalLocation: place, message: SARIF.Message(text: first.role.rawValue))
        }
        let seq = finding.seqs.first
        if traceIsFile {
            let line = seq.flatMap { seqLines[$0] }
            return SARIF.Location(physicalLocation: locator.file(trace.path, line: line ?? 1),
                                  message: SARIF.Message(text: line != nil ? "the event (seq \(seq!)) in the trace" : "the trace"))
        }
        if let first, let guess = locator.guess(first.location) {
            return SARIF.Location(physicalLocation: guess,
                                  message: SARIF.Message(text: "\(first.role.rawValue) (file not found under the source root)"))
        }
        return SARIF.Location(physicalLocation: locator.file(trace.path, line: 1), message: SARIF.Message(text: "the trace (not a file)"))
    }

    /// The trace's path, printable and bounded.
    private var printablePath: String {
        PrintableText.printable(trace.path, limit: 300)
    }
}
