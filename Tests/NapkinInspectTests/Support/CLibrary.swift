// The one place the CLI tests name the C library (the harness spawns and
// signals processes, the terminal tests look at /proc and at signals).
//
// `@_exported` makes it visible to every file of the test target, so no test
// file repeats the import ladder; no other module imports a test target.
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
