import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// What the resource says about the platform, in one place: the only
/// Apple-specific code of NapkinOTLP (the device model, read with
/// `sysctlbyname(3)`, and the bundle's version).
enum OTLPPlatform {
    /// `os.type`: `darwin` or `linux`.
    static var osType: String {
        #if canImport(Darwin)
        "darwin"
        #else
        "linux"
        #endif
    }

    /// `os.name`.
    static var osName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #else
        "Linux"
        #endif
    }

    /// `os.version`: `major.minor.patch`.
    static var osVersion: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }

    /// `host.arch`, in the semantic conventions' spelling.
    static var architecture: String? {
        #if arch(arm64)
        "arm64"
        #elseif arch(x86_64)
        "amd64"
        #else
        nil
        #endif
    }

    /// The bundle's `CFBundleShortVersionString`, where there is a bundle that has one.
    static var applicationVersion: String? {
        Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
    }

    /// `device.model.identifier`: `iPhone15,2` on an iPhone (`hw.machine`),
    /// `Mac14,2` on a Mac (`hw.model`); the simulator's modelled device
    /// (`SIMULATOR_MODEL_IDENTIFIER`); nil on Linux.
    static var deviceModel: String? {
        #if canImport(Darwin)
        if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"] { return simulated }
        #if os(macOS)
        let name = "hw.model"
        #else
        let name = "hw.machine"
        #endif
        // int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0, size < 256 else { return nil }
        var buffer = [CChar](repeating: 0, count: size)
        guard sysctlbyname(name, &buffer, &size, nil, 0) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }
}
