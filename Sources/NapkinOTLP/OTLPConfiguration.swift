import Foundation

/// Where and how the OTLP exporter sends: the endpoints per signal, the
/// headers, the resource, the batching and the bounds. Made from the
/// standard `OTEL_*` environment variables (``fromEnvironment(_:)``), or in
/// code (``init(endpoint:headers:serviceName:serviceVersion:)``). The
/// variables napkin reads, and what it does with each, are in docs/otlp.md.
public struct OTLPConfiguration: Sendable {
    /// One signal's destination: the full URL the requests go to.
    public var tracesEndpoint: URL?
    /// Where log records go (nil: no logs).
    public var logsEndpoint: URL?
    /// Where metrics go (nil: no metrics).
    public var metricsEndpoint: URL?
    /// Headers sent with every request (e.g. an API key).
    public var headers: [String: String] = [:]
    /// How long one request may take (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s).
    public var timeout: Duration = .seconds(10)
    /// `service.name` (`OTEL_SERVICE_NAME`; the process's name by default).
    public var serviceName: String?
    /// `service.version` (`service.version` in `OTEL_RESOURCE_ATTRIBUTES`; on
    /// Apple platforms the bundle's short version by default).
    public var serviceVersion: String?
    /// More resource attributes (`OTEL_RESOURCE_ATTRIBUTES`).
    public var resourceAttributes: [String: String] = [:]
    /// How long spans and records wait to be sent together (`OTEL_BSP_SCHEDULE_DELAY`, 5 s).
    public var scheduleDelay: Duration = .seconds(5)
    /// The most spans, and the most log records, waiting to be sent
    /// (`OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BLRP_MAX_QUEUE_SIZE`, 2,048 each):
    /// beyond it new ones are dropped and counted.
    public var maxQueueSize = 2_048
    /// The most spans or records in one request (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, 512).
    public var maxExportBatchSize = 512
    /// How often the metrics are sent (`OTEL_METRIC_EXPORT_INTERVAL`, 60 s).
    public var metricInterval: Duration = .seconds(60)
    /// How long the exit (and a background flush) waits for the collector, at most (2 s).
    public var exitBudget: Duration = .seconds(2)
    /// The bounds of names and values (`OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`, `OTEL_SPAN_EVENT_COUNT_LIMIT`).
    public var limits = OTLPLimits()

    /// A configuration sending every signal to the OTLP/HTTP base URL
    /// `endpoint` (`/v1/traces`, `/v1/logs` and `/v1/metrics` are appended).
    /// Throws when `endpoint` is not an http or https URL, or a header is unusable.
    public init(endpoint: String, headers: [String: String] = [:], serviceName: String? = nil,
                serviceVersion: String? = nil) throws(OTLPConfigurationError) {
        let base = try Self.url(endpoint, variable: "endpoint")
        tracesEndpoint = Self.signalURL(base, "traces")
        logsEndpoint = Self.signalURL(base, "logs")
        metricsEndpoint = Self.signalURL(base, "metrics")
        for (name, value) in headers { try Self.checkHeader(name: name, value: value, variable: "headers") }
        self.headers = headers
        self.serviceName = serviceName
        self.serviceVersion = serviceVersion
    }

    private init() {}

    /// Whether any signal is sent.
    public var isEnabled: Bool { tracesEndpoint != nil || logsEndpoint != nil || metricsEndpoint != nil }

    // MARK: - The environment

    /// The configuration the `OTEL_*` variables in `environment` ask for;
    /// nil when they ask for no export (no endpoint set, or
    /// `OTEL_SDK_DISABLED=true`). Throws, naming the variable and the fix,
    /// when a value is unusable.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(OTLPConfigurationError) -> OTLPConfiguration? {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        if value("OTEL_SDK_DISABLED")?.lowercased() == "true" { return nil }
        var config = OTLPConfiguration()
        let base = try value("OTEL_EXPORTER_OTLP_ENDPOINT").map { text throws(OTLPConfigurationError) in
            try url(text, variable: "OTEL_EXPORTER_OTLP_ENDPOINT")
        }
        func endpoint(_ signal: String) throws(OTLPConfigurationError) -> URL? {
            let upper = signal.uppercased()
            if let exporters = value("OTEL_\(upper)_EXPORTER") {
                let names = exporters.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                if !names.contains("otlp") {
                    guard names.allSatisfy({ $0 == "none" || $0 == "console" || $0 == "logging" }) else {
                        throw OTLPConfigurationError(variable: "OTEL_\(upper)_EXPORTER", value: exporters,
                                                     problem: "napkin exports with otlp only", fix: "set it to otlp or none")
                    }
                    return nil
                }
            }
            let variable = "OTEL_EXPORTER_OTLP_\(upper)_PROTOCOL"
            if let proto = value(variable) ?? value("OTEL_EXPORTER_OTLP_PROTOCOL"), proto != "http/json" {
                throw OTLPConfigurationError(variable: value(variable) != nil ? variable : "OTEL_EXPORTER_OTLP_PROTOCOL", value: proto,
                                             problem: "napkin sends OTLP over HTTP as JSON only",
                                             fix: "set it to http/json (a collector's OTLP/HTTP receiver takes it, port 4318)")
            }
            if let own = value("OTEL_EXPORTER_OTLP_\(upper)_ENDPOINT") {
                return try url(own, variable: "OTEL_EXPORTER_OTLP_\(upper)_ENDPOINT")
            }
            return base.map { signalURL($0, signal) }
        }
        config.tracesEndpoint = try endpoint("traces")
        config.logsEndpoint = try endpoint("logs")
        config.metricsEndpoint = try endpoint("metrics")
        guard config.isEnabled else { return nil }

        if let text = value("OTEL_EXPORTER_OTLP_HEADERS") {
            config.headers = try pairs(text, variable: "OTEL_EXPORTER_OTLP_HEADERS", header: true)
        }
        if let compression = value("OTEL_EXPORTER_OTLP_COMPRESSION"), compression != "none" {
            throw OTLPConfigurationError(variable: "OTEL_EXPORTER_OTLP_COMPRESSION", value: compression,
                                         problem: "napkin sends uncompressed JSON", fix: "unset it or set it to none")
        }
        if let text = value("OTEL_EXPORTER_OTLP_TIMEOUT") {
            config.timeout = .milliseconds(try number(text, variable: "OTEL_EXPORTER_OTLP_TIMEOUT", minimum: 1))
        }
        if let text = value("OTEL_RESOURCE_ATTRIBUTES") {
            config.resourceAttributes = try pairs(text, variable: "OTEL_RESOURCE_ATTRIBUTES", header: false)
            config.serviceVersion = config.resourceAttributes.removeValue(forKey: "service.version")
            config.serviceName = config.resourceAttributes.removeValue(forKey: "service.name")
        }
        if let name = value("OTEL_SERVICE_NAME") { config.serviceName = name }
        if let text = value("OTEL_BSP_SCHEDULE_DELAY") {
            config.scheduleDelay = .milliseconds(try number(text, variable: "OTEL_BSP_SCHEDULE_DELAY", minimum: 1))
        }
        if let text = value("OTEL_BSP_MAX_QUEUE_SIZE") ?? value("OTEL_BLRP_MAX_QUEUE_SIZE") {
            config.maxQueueSize = try number(text, variable: value("OTEL_BSP_MAX_QUEUE_SIZE") != nil ? "OTEL_BSP_MAX_QUEUE_SIZE" : "OTEL_BLRP_MAX_QUEUE_SIZE", minimum: 1)
        }
        if let text = value("OTEL_BSP_MAX_EXPORT_BATCH_SIZE") {
            config.maxExportBatchSize = try number(text, variable: "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", minimum: 1)
        }
        if let text = value("OTEL_METRIC_EXPORT_INTERVAL") {
            config.metricInterval = .milliseconds(try number(text, variable: "OTEL_METRIC_EXPORT_INTERVAL", minimum: 1))
        }
        if let text = value("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT") {
            config.limits.valueLength = try number(text, variable: "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", minimum: 16)
        }
        if let text = value("OTEL_SPAN_EVENT_COUNT_LIMIT") {
            config.limits.eventsPerSpan = try number(text, variable: "OTEL_SPAN_EVENT_COUNT_LIMIT", minimum: 0)
        }
        return config
    }

    // MARK: - Parsing

    /// `text` as an http or https URL with a host.
    static func url(_ text: String, variable: String) throws(OTLPConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.user == nil else {
            throw OTLPConfigurationError(variable: variable, value: text, problem: "not an http or https URL with a host",
                                         fix: "set it to the collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318")
        }
        return url
    }

    /// The base URL with `v1/<signal>` appended (after exactly one slash).
    static func signalURL(_ base: URL, _ signal: String) -> URL {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        return URL(string: text + "v1/" + signal) ?? base
    }

    /// `key=value,key=value` with percent-encoded values (the W3C Baggage
    /// spelling the spec uses for headers and resource attributes).
    package static func pairs(_ text: String, variable: String, header: Bool) throws(OTLPConfigurationError) -> [String: String] {
        var out: [String: String] = [:]
        // A header's value may be a secret: an error names the entry's key only.
        func shown(_ entry: String) -> String { header ? String(entry.prefix { $0 != "=" }) + "=…" : text }
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let entry = item.trimmingCharacters(in: .whitespaces)
            guard let equals = entry.firstIndex(of: "=") else {
                throw OTLPConfigurationError(variable: variable, value: shown(entry), problem: "an entry has no '='",
                                             fix: "write it as key=value,key2=value2 (values percent-encoded)")
            }
            let key = entry[..<equals].trimmingCharacters(in: .whitespaces)
            let raw = entry[entry.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, let decoded = raw.removingPercentEncoding else {
                throw OTLPConfigurationError(variable: variable, value: shown(entry), problem: "an entry has an empty key or a bad %-escape",
                                             fix: "write it as key=value,key2=value2 (values percent-encoded)")
            }
            if header { try checkHeader(name: key, value: decoded, variable: variable) }
            out[key] = decoded
        }
        return out
    }

    /// Refuses a header name that is not an HTTP token, and a value with a control character (a line break would forge a header).
    static func checkHeader(name: String, value: String, variable: String) throws(OTLPConfigurationError) {
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy({ token.contains($0) }) else {
            throw OTLPConfigurationError(variable: variable, value: name, problem: "'\(name)' is not an HTTP header name",
                                         fix: "use letters, digits and - only in a header's name")
        }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f }) else {
            throw OTLPConfigurationError(variable: variable, value: name, problem: "the value of '\(name)' holds a control character",
                                         fix: "percent-encode only printable text in a header's value")
        }
    }

    static func number(_ text: String, variable: String, minimum: Int) throws(OTLPConfigurationError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw OTLPConfigurationError(variable: variable, value: text, problem: "not a whole number of at least \(minimum)",
                                         fix: "set it to a whole number (milliseconds for a time)")
        }
        return value
    }
}
