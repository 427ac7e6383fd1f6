// swift-tools-version: 6.2
// A fixture for the end-to-end tests of NapkinTesting's XCTest support
// (Tests/NapkinTestingTests/XCTestLeakCheckEndToEndTests.swift): the same
// flows of a tiny app checked by the base class, by the function and by the
// Swift Testing trait, tests that fail on their own, and tests run in
// parallel. `swift test` here fails on purpose; see README.md.
import PackageDescription

let package = Package(
    name: "XCTestLeakCheck",
    platforms: [.macOS(.v26), .iOS(.v26)],   // what napkin-inspect (and napkin 2.x) require
    dependencies: [.package(name: "napkin-inspect", path: "../../..")],
    targets: [
        .target(name: "Flows", dependencies: [.product(name: "Napkin", package: "napkin-inspect")],
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "FlowTests",
                    dependencies: ["Flows", .product(name: "NapkinTesting", package: "napkin-inspect")],
                    swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
