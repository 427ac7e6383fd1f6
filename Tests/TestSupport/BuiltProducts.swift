// Where SwiftPM put the executables the tests run (napkin-inspect,
// rib-house, TraceProbe): next to the test executable or bundle, which is
// found differently on Linux and on Apple platforms.
import Foundation

/// The built products next to the tests.
public enum BuiltProducts {
    /// Where SwiftPM may have put the built products, most likely first.
    /// Linux: the directory of the test executable (`/proc/self/exe`).
    /// macOS: the directory holding the `.xctest` bundle that contains this
    /// code (`Bundle(for:)` gives the bundle that loaded a class), whichever
    /// process (`xctest`, `swiftpm-testing-helper`) loaded it; then those of
    /// the process's first argument, of the main bundle and of every loaded
    /// `.xctest` bundle.
    public static var directories: [URL] {
        var directories: [URL] = []
        #if os(Linux)
        directories.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #elseif canImport(Darwin)
        directories.append(Bundle(for: BundleAnchor.self).bundleURL.deletingLastPathComponent())
        #endif
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories
    }

    /// The path of the built executable `name` (`TraceProbe`), or nil if no
    /// directory of ``directories`` holds it.
    public static func executable(_ name: String) -> String? {
        directories.map { $0.appendingPathComponent(name).path }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The path of the built executable `name`; throws, saying where it was
    /// looked for, if it is not there.
    public static func requireExecutable(_ name: String) throws -> String {
        guard let path = executable(name) else {
            throw TestFailure("\(name) not found next to the tests (in \(directories.map(\.path)))")
        }
        return path
    }
}

#if canImport(Darwin)
/// A class of the bundle holding the tests, for `Bundle(for:)`.
private final class BundleAnchor {}
#endif
