// swift-tools-version: 6.2
// A tiny app package that uses Napkin, to show (and let CI prove) the CI gate:
//   ../../.build/debug/napkin-inspect check --expect-teardown -- swift test
import PackageDescription

let package = Package(
    name: "TestedApp",
    platforms: [.macOS(.v26), .iOS(.v26)],   // what napkin-inspect (and napkin 2.x) require
    dependencies: [.package(name: "napkin-inspect", path: "../..")],
    targets: [
        .target(name: "Counter", dependencies: [.product(name: "Napkin", package: "napkin-inspect")],
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "CounterTests", dependencies: ["Counter"], swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
