import Foundation
import NapkinTrace

/// The resource every payload carries: who sent it (`service.*`), on what
/// (`os.*`, `device.model.identifier` where the platform gives it, `host.arch`),
/// which process and which session (`process.pid`, `session.id`), and by
/// what (`telemetry.sdk.*`). The configuration's own attributes come last and win.
package enum OTLPResource {
    /// The resource for `configuration`, for the session `sessionID` of process `pid` (its name `app`).
    package static func attributes(_ configuration: OTLPConfiguration, app: String, pid: Int, sessionID: String?) -> [OTLPAttribute] {
        var values: [(String, OTLPAttribute.Value)] = [
            ("service.name", .string(configuration.serviceName ?? app)),
        ]
        if let version = configuration.serviceVersion ?? OTLPPlatform.applicationVersion {
            values.append(("service.version", .string(version)))
        }
        values += [
            ("telemetry.sdk.name", .string("napkin")),
            ("telemetry.sdk.language", .string("swift")),
            ("telemetry.sdk.version", .string(OTLPPayload.scopeVersion)),
            ("os.type", .string(OTLPPlatform.osType)),
            ("os.name", .string(OTLPPlatform.osName)),
            ("os.version", .string(OTLPPlatform.osVersion)),
            ("process.pid", .int(Int64(pid))),
            ("process.executable.name", .string(app)),
        ]
        if let arch = OTLPPlatform.architecture { values.append(("host.arch", .string(arch))) }
        if let model = OTLPPlatform.deviceModel { values.append(("device.model.identifier", .string(model))) }
        if let sessionID { values.append(("session.id", .string(sessionID))) }
        var attributes = values.map { configuration.limits.bounded(OTLPAttribute($0.0, $0.1)) }
        for (key, value) in configuration.resourceAttributes.sorted(by: { $0.key < $1.key }) {
            attributes.removeAll { $0.key == key }
            attributes.append(configuration.limits.bounded(OTLPAttribute(key, .string(value))))
        }
        return attributes
    }

    /// The resource of a recorded trace's session (`export --format otlp`):
    /// the service is the traced app; what the trace does not say (its OS, its device) is left out.
    package static func attributes(recorded session: SessionInfo, sessionID: String, serviceName: String?,
                                   extra: [String: String] = [:], limits: OTLPLimits = OTLPLimits()) -> [OTLPAttribute] {
        var attributes = [
            OTLPAttribute("service.name", .string(serviceName ?? session.app)),
            OTLPAttribute("telemetry.sdk.name", .string("napkin")),
            OTLPAttribute("telemetry.sdk.language", .string("swift")),
            OTLPAttribute("telemetry.sdk.version", .string(OTLPPayload.scopeVersion)),
            OTLPAttribute("process.pid", .int(Int64(session.pid))),
            OTLPAttribute("process.executable.name", .string(session.app)),
            OTLPAttribute("session.id", .string(sessionID)),
        ].map(limits.bounded)
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) {
            attributes.removeAll { $0.key == key }
            attributes.append(limits.bounded(OTLPAttribute(key, .string(value))))
        }
        return attributes
    }
}
