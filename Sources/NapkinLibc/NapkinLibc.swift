// The C library, under one name: glibc or musl on Linux, libSystem on Apple
// platforms. Every module of the package that talks to the C library imports
// this one instead of repeating the import ladder; NapkinTrace imports it
// `internal`, so nothing of libc reaches an app's code. No code of its own.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("napkin needs a POSIX C library: Glibc, Musl or Darwin")
#endif
