import Foundation
import NapkinOTLP
import NapkinTrace

/// `export --format otlp`: the traces as OTLP/JSON requests (the mapping is
/// NapkinOTLP's, ``OTLPRecordedTrace``), one per line, written to standard
/// output or `-o FILE`, and posted to `--endpoint` when given.
///
/// A request the collector answers with 429, 502, 503 or 504, or that finds
/// no collector, is tried again (after `Retry-After`, or a backoff) up to
/// ``attempts`` times; a request still not taken stops the posting, with
/// one line, and exit status 3.
struct OTLPExportRun {
    /// Tries per request, at most.
    static let attempts = 4

    var paths: [String]
    var outputPath: String?
    var endpoint: String?
    var analysis: TraceAnalyzer.Options
    /// Whether requests go to standard output when no `-o` is given (not with `--endpoint`).
    var writesStandardOutput: Bool

    func run() throws -> Int32 {
        if let outputPath { try ExportOutput.ensureReplaceable(outputPath) }
        let poster = try endpoint.map { url throws(CommandFailure) in try Poster(endpoint: url) }
        let files = try TraceFiles.expand(paths)
        let output = outputPath != nil || writesStandardOutput ? try ExportOutput(path: outputPath) : nil
        var totals = (spans: 0, logs: 0, sessions: 0, requests: 0)
        var undelivered: String?
        func send(_ requests: [OTLPRecordedTrace.Request]) throws(CommandFailure) {
            for request in requests {
                totals.requests += 1
                if let output { try output.append(request.body + [10]) }
                if let poster, undelivered == nil { undelivered = poster.post(request) }
            }
        }
        for file in files {
            var conversion = OTLPRecordedTrace(analysis: analysis)
            var sinceTaken = 0
            var pending: [OTLPRecordedTrace.Request] = []
            _ = try TraceInput(path: file).read { event throws(CommandFailure) in
                conversion.consume(event)
                sinceTaken += 1
                if sinceTaken >= 4_096 {
                    sinceTaken = 0
                    pending = conversion.takeRequests()
                    try send(pending)
                }
                return true
            }
            try send(conversion.finish())
            if conversion.findingsNotKept > 0 {
                Output.error("note: \(file): \(NumberFormat.grouped(conversion.findingsNotKept)) more findings were not kept "
                             + "(at most \(TraceAnalyzer.maxKeptFindings)); the export has the first ones")
            }
            totals.spans += conversion.spanCount
            totals.logs += conversion.logCount
            totals.sessions += conversion.sessionCount
        }
        try output?.commit()
        let what = "\(NumberFormat.count(totals.spans, "span")), \(NumberFormat.count(totals.logs, "log record")), "
            + "\(NumberFormat.count(totals.sessions, "session")) in \(NumberFormat.count(totals.requests, "request"))"
        if let outputPath { Output.error("wrote \(outputPath): \(what)") }
        if let undelivered {
            Output.error(undelivered)
            return ExitStatus.undelivered
        }
        if let endpoint { Output.error("posted to \(endpoint): \(what)") }
        return ExitStatus.success
    }

    /// Posts requests to one collector, trying a refused one again.
    struct Poster {
        let configuration: OTLPConfiguration
        let transport = URLSessionTransport()

        init(endpoint: String) throws(CommandFailure) {
            do {
                let text = ProcessInfo.processInfo.environment["OTEL_EXPORTER_OTLP_HEADERS"] ?? ""
                let headers = try OTLPConfiguration.pairs(text, variable: "OTEL_EXPORTER_OTLP_HEADERS", header: true)
                configuration = try OTLPConfiguration(endpoint: endpoint, headers: headers)
            } catch {
                throw CommandFailure("--endpoint: \(error)")
            }
        }

        /// Posts `request`; nil when the collector took it, else the line that says why not.
        func post(_ request: OTLPRecordedTrace.Request) -> String? {
            let url: URL? = switch request.signal {
            case "traces": configuration.tracesEndpoint
            case "logs": configuration.logsEndpoint
            default: configuration.metricsEndpoint
            }
            guard let url else { return nil }
            var last = ""
            for attempt in 1...OTLPExportRun.attempts {
                let response = transport.post(request.body, to: url, headers: configuration.headers, timeout: configuration.timeout)
                switch OTLPRetry.verdict(response) {
                case .delivered:
                    return nil
                case .rejected(let why):
                    return "\(url.absoluteString) refused a \(request.signal) request (\(request.count) items) with \(why); "
                        + "check the collector's OTLP/HTTP receiver and its logs (nothing later was posted)"
                case .retry(let after):
                    last = switch response {
                    case .status(let code, _): "HTTP \(code)"
                    case .failed(let why): why
                    }
                    if attempt < OTLPExportRun.attempts {
                        let wait = after ?? OTLPRetry.backoff(failures: attempt)
                        Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
                    }
                }
            }
            return "\(url.absoluteString) did not take a \(request.signal) request after \(OTLPExportRun.attempts) tries (\(last)); "
                + "is the collector running and listening for OTLP/HTTP there? (nothing later was posted)"
        }
    }
}
