// swift-tools-version: 6.2
// A tiny app package whose tests use the NapkinTesting trait, to show (and let
// the main package's tests prove) per-test leak verdicts: from this folder,
//   swift test
// fails exactly one test, `leaveTheShopWithTheCartOpen`, on the line of the
// app's code that attached the leaked cart.
import PackageDescription

let package = Package(
    name: "LeakCheckedApp",
    platforms: [.macOS(.v26), .iOS(.v26)],   // what napkin-inspect (and napkin 2.x) require
    dependencies: [.package(name: "napkin-inspect", path: "../..")],
    targets: [
        .target(name: "Shop", dependencies: [.product(name: "Napkin", package: "napkin-inspect")],
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "ShopTests",
                    dependencies: ["Shop", .product(name: "NapkinTesting", package: "napkin-inspect")],
                    swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
