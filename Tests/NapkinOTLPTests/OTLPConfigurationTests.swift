// The standard OTEL_* variables: endpoints (base and per signal), headers,
// the resource, off switches; and a bad value is one clear line naming the
// variable and the fix, never a crash, and the app runs on.

import Foundation
import NapkinOTLP
import Testing
import TestSupport

@Suite
struct OTLPConfigurationTests {
    @Test("No endpoint, or OTEL_SDK_DISABLED=true: no export")
    func offByDefault() throws {
        #expect(try OTLPConfiguration.fromEnvironment([:]) == nil)
        #expect(try OTLPConfiguration.fromEnvironment(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
                                                       "OTEL_SDK_DISABLED": "TRUE"]) == nil)
        #expect(try OTLPConfiguration.fromEnvironment(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
                                                       "OTEL_TRACES_EXPORTER": "none", "OTEL_LOGS_EXPORTER": "none",
                                                       "OTEL_METRICS_EXPORTER": "none"]) == nil)
    }

    @Test("The base endpoint gets /v1/<signal>; a per-signal endpoint is taken as it is")
    func endpoints() throws {
        let config = try #require(try OTLPConfiguration.fromEnvironment([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318/",
            "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "https://logs.example:443/custom/path",
            "OTEL_METRICS_EXPORTER": "none",
        ]))
        #expect(config.tracesEndpoint?.absoluteString == "http://127.0.0.1:4318/v1/traces")
        #expect(config.logsEndpoint?.absoluteString == "https://logs.example:443/custom/path")
        #expect(config.metricsEndpoint == nil)
    }

    @Test("Headers and resource attributes: key=value lists, percent-decoded; OTEL_SERVICE_NAME wins")
    func headersAndResource() throws {
        let config = try #require(try OTLPConfiguration.fromEnvironment([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
            "OTEL_EXPORTER_OTLP_HEADERS": "api-key=secret%20value, x-team = napkin",
            "OTEL_RESOURCE_ATTRIBUTES": "service.name=ignored,service.version=2.1.0,deployment.environment.name=beta",
            "OTEL_SERVICE_NAME": "rib-house-ios",
            "OTEL_BSP_SCHEDULE_DELAY": "250",
            "OTEL_BSP_MAX_QUEUE_SIZE": "100",
            "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT": "64",
        ]))
        #expect(config.headers == ["api-key": "secret value", "x-team": "napkin"])
        #expect(config.serviceName == "rib-house-ios")
        #expect(config.serviceVersion == "2.1.0")
        #expect(config.resourceAttributes == ["deployment.environment.name": "beta"])
        #expect(config.scheduleDelay == .milliseconds(250))
        #expect(config.maxQueueSize == 100)
        #expect(config.limits.valueLength == 64)
    }

    @Test("A bad value throws one line naming the variable and the fix (and never a header's secret value)",
          arguments: [
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "htp:/127.0.0.1"], "OTEL_EXPORTER_OTLP_ENDPOINT"),
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "127.0.0.1:4318"], "OTEL_EXPORTER_OTLP_ENDPOINT"),
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_HEADERS": "api-key"], "OTEL_EXPORTER_OTLP_HEADERS"),
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_HEADERS": "a b=c"], "OTEL_EXPORTER_OTLP_HEADERS"),
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_HEADERS": "api-key=secret%0D%0AX-Forged: 1"], "OTEL_EXPORTER_OTLP_HEADERS"),
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"], "OTEL_EXPORTER_OTLP_PROTOCOL"),
              (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_TIMEOUT": "soon"], "OTEL_EXPORTER_OTLP_TIMEOUT"),
          ])
    func badValues(environment: [String: String], variable: String) {
        do {
            _ = try OTLPConfiguration.fromEnvironment(environment)
            Issue.record("accepted \(environment)")
        } catch {
            let line = error.description
            #expect(line.hasPrefix(variable + "="))
            #expect(!line.contains("\n"))
            #expect(!line.contains("secret"))
            #expect(line.contains("; "))
        }
    }

    @Test("rib-house with a malformed endpoint: one line on standard error naming it, and the visit runs to the end")
    func badEndpointAppRunsOn() async throws {
        let run = try await ToolRun.run("rib-house", ["--quiet", "--speed", "50"],
                                        environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "htp:/127.0.0.1:4318"])
        #expect(run.status.code == 0, "\(run.stderr)")
        let lines = run.errorLines.filter { $0.contains("OTEL") || $0.contains("OTLP") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("OTEL_EXPORTER_OTLP_ENDPOINT='htp:/127.0.0.1:4318'") == true)
        #expect(lines.first?.contains("OTLP export is off") == true)
    }
}
