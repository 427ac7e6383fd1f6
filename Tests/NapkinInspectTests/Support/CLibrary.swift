// The one place the CLI tests name the C library (the harness spawns and
// signals processes, the terminal tests look at /proc and at signals), and
// where they differ between glibc and Darwin: spawn types, dlsym's default
// handle, and where the built products are.
//
// `@_exported` makes it visible to every file of the test target, so no test
// file repeats the import ladder; no other module imports a test target.
import Foundation
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("the CLI tests need a POSIX C library: Glibc, Musl or Darwin")
#endif

#if canImport(Darwin)
/// `posix_spawn_file_actions_t` as `posix_spawn` takes it (an optional pointer on Darwin).
typealias SpawnFileActions = posix_spawn_file_actions_t?
/// `posix_spawnattr_t` as `posix_spawn` takes it (an optional pointer on Darwin).
typealias SpawnAttributes = posix_spawnattr_t?
/// Empty spawn file actions and attributes, for the `_init` functions.
func emptySpawnSettings() -> (SpawnFileActions, SpawnAttributes) { (nil, nil) }
#else
/// `posix_spawn_file_actions_t` as `posix_spawn` takes it (a struct on Linux).
typealias SpawnFileActions = posix_spawn_file_actions_t
/// `posix_spawnattr_t` as `posix_spawn` takes it (a struct on Linux).
typealias SpawnAttributes = posix_spawnattr_t
/// Empty spawn file actions and attributes, for the `_init` functions.
func emptySpawnSettings() -> (SpawnFileActions, SpawnAttributes) { (posix_spawn_file_actions_t(), posix_spawnattr_t()) }
#endif

/// The address of the C symbol `name` in any image of the process, or nil.
/// `RTLD_DEFAULT` is a null pointer in glibc; Darwin's `<dlfcn.h>` defines it
/// as `(void *)-2`, and there a null handle is not a search of every image (dlsym(3)).
func cSymbol(_ name: String) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
    dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)
    #else
    dlsym(nil, name)
    #endif
}

/// Where SwiftPM may have put the built products, most likely first. Linux:
/// the test executable's directory (`/proc/self/exe`). macOS: the directory
/// of the `.xctest` bundle holding this code (`Bundle(for:)` gives the bundle
/// that loaded a class), whichever process (`xctest`,
/// `swiftpm-testing-helper`) loaded it; then the main bundle's.
func testProductDirectories() -> [URL] {
    var candidates: [URL] = []
    #if os(Linux)
    candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
    #elseif canImport(Darwin)
    candidates.append(Bundle(for: BundleAnchor.self).bundleURL.deletingLastPathComponent())
    #endif
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        candidates.append(bundle.bundleURL.deletingLastPathComponent())
    }
    return candidates
}

#if canImport(Darwin)
/// A class of this test bundle, for `Bundle(for:)`.
private final class BundleAnchor {}
#endif
