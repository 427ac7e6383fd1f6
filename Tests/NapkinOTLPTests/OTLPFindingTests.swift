// Every finding the analysis makes of a trace arrives once, as a log record
// correlated with its object's span, with its severity, rule, fingerprint,
// retainer path and key, and creation line; the metrics count them per rule
// and the populations per type.

import Foundation
import NapkinOTLP
import NapkinTrace
import Testing
import TestSupport

@Suite(.dedicatedThread)
struct OTLPFindingTests {
    static func export(_ path: String) throws -> (spans: [ReadSpan], logs: [ReadLog], metrics: [String: [(attributes: [String: Any], value: Int)]], findings: [Finding]) {
        let (read, _) = try readAll(path: path)
        var conversion = OTLPRecordedTrace(analysis: TraceAnalyzer.Options())
        var analyzer = TraceAnalyzer(options: TraceAnalyzer.Options())
        for event in read.events {
            conversion.consume(event)
            analyzer.consume(event)
        }
        let requests = conversion.takeRequests() + conversion.finish()
        func json(_ request: OTLPRecordedTrace.Request) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
        }
        let metrics = requests.filter { $0.signal == "metrics" }.map { OTLPPayloads.metrics(json($0)) }
        return (requests.filter { $0.signal == "traces" }.flatMap { OTLPPayloads.spans(json($0)) },
                requests.filter { $0.signal == "logs" }.flatMap { OTLPPayloads.logs(json($0)) },
                metrics.first ?? [:], analyzer.finish())
    }

    static let traces = OTLPTreeTests.traces

    @Test("Every finding of the trace is one log record, with its rule, fingerprint, severity and span", arguments: traces)
    func everyFindingOnce(path: String) throws {
        let (spans, logs, metrics, findings) = try Self.export(path)
        let records = logs.filter { $0.eventName == "napkin.finding" }
        #expect(records.count == findings.count)
        #expect(Set(records.compactMap { $0.attributes["napkin.finding.fingerprint"] as? String }) == Set(findings.map(\.fingerprint)))
        let spanIDs = Set(spans.map(\.spanID))
        for finding in findings {
            // A fingerprint names a cause: two objects leaked the same way share it. Each finding is its own record.
            let matching = records.filter {
                $0.attributes["napkin.finding.fingerprint"] as? String == finding.fingerprint
                    && $0.attributes["napkin.node.id"] as? String == String(finding.id)
                    && $0.attributes["napkin.finding.rule"] as? String == finding.rule.rawValue
                    && ($0.attributes["napkin.task.label"] as? String) == finding.label
            }
            #expect(matching.count == 1, "\(finding)")
            guard let record = matching.first else { continue }
            #expect(record.attributes["napkin.finding.rule"] as? String == finding.rule.rawValue)
            #expect(record.severityNumber == (finding.severity == .error ? 17 : 13))
            #expect(record.body.contains(finding.message.prefix(40)))
            if finding.subject == .router || finding.subject == .interactor {
                // Correlated with the span of its object.
                #expect(record.spanID.map(spanIDs.contains) == true, "\(finding) has no span")
            }
            if let created = finding.locations.first(where: { $0.role == .created }), !created.location.isFunction {
                #expect(record.attributes["code.file.path"] as? String == created.location.fileID)
                #expect(record.attributes["code.line.number"] as? String == String(created.location.line))
            }
        }
        // The metrics count them per rule.
        var perRule: [String: Int] = [:]
        for finding in findings { perRule[finding.rule.rawValue, default: 0] += 1 }
        let counted = Dictionary((metrics["napkin.finding.count"] ?? []).map { ($0.attributes["napkin.finding.rule"] as? String ?? "", $0.value) },
                                 uniquingKeysWith: +)
        #expect(counted == perRule)
    }

    @Test("The retain cycle's finding carries its retainer path and key, and its creation line")
    func retainCycleCarriesItsPath() throws {
        let (_, logs, _, findings) = try Self.export(PackagePaths.url("Examples/traces/bug-retain-cycle.ndjson").path)
        let leaks = logs.filter { $0.attributes["napkin.finding.rule"] as? String == "not-deallocated" }
        #expect(!leaks.isEmpty)
        #expect(findings.contains { $0.retainers != nil })
        for record in leaks {
            let paths = record.attributes["napkin.finding.retainer.paths"] as? [String] ?? []
            #expect(paths.contains { $0.contains("LoggedInInteractor#") && $0.contains(".retainedRouter (suspect)") })
            #expect(record.attributes["napkin.finding.retainer.key"] as? String == "LoggedInInteractor.retainedRouter")
            #expect(record.attributes["code.file.path"] as? String == "RibHouse/LoggedInBuilder.swift")
            #expect(record.severityText == "ERROR")
        }
    }

    @Test("The populations: live routers and interactors per type at the end of the trace")
    func populations() throws {
        let path = PackagePaths.url("Examples/traces/bug-retain-cycle.ndjson").path
        let (_, _, metrics, _) = try Self.export(path)
        let (read, _) = try readAll(path: path)
        var state = TraceState()
        for event in read.events { _ = state.apply(event) }
        var routers: [String: Int] = [:]
        var interactors: [String: Int] = [:]
        for node in state.aliveNodes() {
            switch node.kind {
            case .router: routers[node.type, default: 0] += 1
            case .interactor: interactors[node.type, default: 0] += 1
            }
        }
        func series(_ name: String) -> [String: Int] {
            Dictionary((metrics[name] ?? []).map { ($0.attributes["napkin.type"] as? String ?? "", $0.value) }, uniquingKeysWith: +)
                .filter { $0.value > 0 }
        }
        #expect(series("napkin.router.live") == routers)
        #expect(series("napkin.interactor.live") == interactors)
        #expect(routers["LoggedInRouter"] == 2)
    }
}
