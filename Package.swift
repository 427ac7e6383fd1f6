// swift-tools-version: 6.2
// napkin-inspect: the napkin framework, its lifecycle trace, and the inspector.
// No package dependencies, by design ("packages: none"): only the Swift toolchain.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "napkin-inspect",
    // The versions napkin 2.x requires. They are also where `isolated deinit`
    // (Router's) runs natively: below iOS 18.4 / macOS 15.4 it would go through
    // the back-deployment shim (see Router's deinit).
    platforms: [.macOS(.v26), .iOS(.v26)],
    products: [
        .library(name: "Napkin", targets: ["Napkin"]),
        .library(name: "NapkinTrace", targets: ["NapkinTrace"]),
        // Reading traces (files, pipes, sockets), their integrity and their comparison: for tools, never linked by an app.
        .library(name: "NapkinTraceReader", targets: ["NapkinTraceReader"]),
        // The lifecycle to an OpenTelemetry collector over OTLP/HTTP (JSON): an app adds it when it wants
        // it (it links Foundation's networking, which NapkinTrace does not).
        .library(name: "NapkinOTLP", targets: ["NapkinOTLP"]),
        // Checks each test for leaks: the Swift Testing trait `@Test(.napkinLeakCheck)`, and for
        // XCTest the base class `NapkinLeakCheckedTestCase` and `napkinLeakCheck { ... }`.
        .library(name: "NapkinTesting", targets: ["NapkinTesting"]),
        .executable(name: "napkin-inspect", targets: ["napkin-inspect"]),
        .executable(name: "rib-house", targets: ["RibHouse"]),
        .executable(name: "napkin-bench", targets: ["NapkinBench"]),
    ],
    targets: [
        // The C library under one name (an import, no code): what the modules that talk to libc import.
        .target(name: "NapkinLibc", swiftSettings: strict),
        .target(name: "NapkinTrace", dependencies: ["NapkinLibc"], swiftSettings: strict),
        .target(name: "NapkinTraceReader", dependencies: ["NapkinTrace"], swiftSettings: strict),
        .target(name: "NapkinOTLP", dependencies: ["NapkinTrace"], swiftSettings: strict),
        // Reads the return addresses of the calling thread's stack without allocating (one C file): where a router or interactor was created.
        .target(name: "NapkinStack"),
        .target(name: "Napkin", dependencies: ["NapkinTrace", "NapkinStack"], swiftSettings: strict),
        // Imports Testing and XCTest from the toolchain (no package dependency); link it into test targets only.
        .target(name: "NapkinTesting", dependencies: ["NapkinTrace"], swiftSettings: strict),
        // The HTML report's script and style sheet are files of their own, compiled
        // into the binary as byte arrays (`PackageResources`): no bundle to ship.
        .executableTarget(name: "napkin-inspect", dependencies: ["NapkinLibc", "NapkinTrace", "NapkinTraceReader", "NapkinOTLP"],
                          resources: ["report.css", "errors.js", "base.js", "tree.js", "panels.js", "details.js", "timeline.js", "report.js", "live.js"]
                              .map { .embedInCode("Render/Report/Assets/\($0)") },
                          swiftSettings: strict),
        .executableTarget(name: "RibHouse", dependencies: ["Napkin", "NapkinTrace", "NapkinOTLP"], path: "Examples/RibHouse", exclude: ["README.md"], swiftSettings: strict),
        // Benchmarks (release build): `swift run -c release napkin-bench`.
        .executableTarget(name: "NapkinBench", dependencies: ["Napkin", "NapkinTrace", "NapkinTraceReader", "NapkinOTLP", "RuntimeCounters"], path: "Benchmarks/NapkinBench", swiftSettings: strict),
        // Counts heap allocations and thread hand-offs in the executables that link it
        // (the benchmarks and the test probe): it replaces malloc and dispatch_async_f.
        .target(name: "RuntimeCounters", path: "Benchmarks/RuntimeCounters"),
        // What every test target shares (tests only): `.dedicatedThread` for tests that compute for long or block,
        // the C library, child processes, scratch files, loading traces and the fixtures, a listener standing in for an inspector.
        .target(name: "TestSupport", dependencies: ["NapkinLibc", "NapkinTrace", "NapkinTraceReader"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "NapkinTraceTests", dependencies: ["NapkinTrace", "NapkinTraceReader", "TestSupport"], swiftSettings: strict),
        // A small traced program the tests run as a child process (exit, crash, closed pipe).
        .executableTarget(name: "TraceProbe", dependencies: ["Napkin", "NapkinLibc", "NapkinTrace", "RuntimeCounters"], path: "Tests/TraceProbe", swiftSettings: strict),
        // A module built without reflection metadata, for the retainer search's tests of what it cannot see.
        .target(name: "StrippedReflection", path: "Tests/StrippedReflection",
                swiftSettings: strict + [.unsafeFlags(["-Xfrontend", "-disable-reflection-metadata"])]),
        .testTarget(name: "NapkinTests", dependencies: ["Napkin", "NapkinTrace", "NapkinTraceReader", "TraceProbe", "TestSupport", "StrippedReflection"], swiftSettings: strict),
        .testTarget(name: "NapkinOTLPTests", dependencies: ["NapkinOTLP", "Napkin", "NapkinTrace", "NapkinTraceReader", "napkin-inspect", "RibHouse", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "NapkinTestingTests", dependencies: ["NapkinTesting", "Napkin", "NapkinTrace", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NapkinInspectTests", dependencies: ["napkin-inspect", "NapkinTrace", "NapkinTraceReader", "RibHouse", "TraceProbe", "TestSupport"], swiftSettings: strict),
    ]
)
