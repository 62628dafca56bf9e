// swift-tools-version: 6.1
// 6.1 is the first tools version that accepts `.when(traits:)` on target dependencies.

import PackageDescription

let package = Package(
    name: "ReceiptKit",
    // Linux and macOS only: the backends need OpenSSL's libcrypto or GnuTLS as system libraries
    // (apt or Homebrew), which iOS, tvOS, watchOS and visionOS do not have.
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ReceiptKit", targets: ["ReceiptKit"]),
        .library(name: "ReceiptConformance", targets: ["ReceiptConformance"]),
        .executable(name: "receipt", targets: ["receipt"]),
    ],
    traits: [
        .trait(name: "OpenSSL", description: "Verify receipts with OpenSSL (libssl-dev / openssl@3)."),
        .trait(name: "GnuTLS", description: "Verify receipts with GnuTLS (libgnutls28-dev / gnutls)."),
        .default(enabledTraits: ["OpenSSL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation` (Scripts/docs.sh). No target uses it, so a
        // dependent package never builds or links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CReceiptOpenSSL",
            // libcrypto alone: the backend uses no TLS, so libssl is neither linked nor loaded.
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "CReceiptGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]
        ),
        .target(
            name: "ReceiptCore",
            dependencies: [.product(name: "SwiftASN1", package: "swift-asn1")]
        ),
        .target(
            name: "ReceiptOpenSSL",
            dependencies: [
                "ReceiptCore",
                .target(name: "CReceiptOpenSSL", condition: .when(traits: ["OpenSSL"])),
            ]
        ),
        .target(
            name: "ReceiptGnuTLS",
            dependencies: [
                "ReceiptCore",
                .target(name: "CReceiptGnuTLS", condition: .when(traits: ["GnuTLS"])),
            ]
        ),
        // The layers above the verifier, each its own target so that the compiler keeps ReceiptCore
        // from reaching up; ReceiptKit re-exports both. Entitlements: one model per product and per
        // subscription group, from a validated receipt or verified JWS transactions.
        .target(
            name: "ReceiptEntitlements",
            dependencies: ["ReceiptCore"]
        ),
        // Apple's verifyReceipt formats (request, response model, dates, status, endpoint) and the
        // one JSON writer (receipt model, Apple's response, entitlements, error objects) of the
        // `receipt` tool and of receipt-server.
        .target(
            name: "ReceiptOutput",
            dependencies: ["ReceiptCore", "ReceiptEntitlements"]
        ),
        .target(
            name: "ReceiptKit",
            dependencies: [
                "ReceiptCore",
                "ReceiptEntitlements",
                "ReceiptOutput",
                .target(name: "ReceiptOpenSSL", condition: .when(traits: ["OpenSSL"])),
                .target(name: "ReceiptGnuTLS", condition: .when(traits: ["GnuTLS"])),
            ]
        ),
        .target(
            name: "ReceiptConformance",
            dependencies: ["ReceiptCore"]
        ),
        .executableTarget(
            name: "receipt",
            dependencies: [
                "ReceiptKit",
                "ReceiptConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The tool's own process-exit choice (OpenSSLProcessExit), not the library's.
                .target(name: "CReceiptOpenSSL", condition: .when(traits: ["OpenSSL"])),
            ],
            exclude: ["README.md"]  // the tool's manual
        ),
        // What every test target shares: the fixture directories, the real-receipt catalogue, hex
        // and independent SHA-1/SHA-256. Not a product: nothing outside the tests sees it.
        .target(
            name: "ReceiptTestSupport",
            path: "Tests/ReceiptTestSupport"
        ),
        .testTarget(
            name: "ReceiptCoreTests",
            dependencies: ["ReceiptCore", "ReceiptConformance", "ReceiptTestSupport"],
            resources: []
        ),
        .testTarget(
            name: "ReceiptEntitlementsTests",
            dependencies: ["ReceiptCore", "ReceiptEntitlements", "ReceiptTestSupport"]
        ),
        .testTarget(
            name: "ReceiptOutputTests",
            dependencies: ["ReceiptCore", "ReceiptEntitlements", "ReceiptOutput"]
        ),
        .testTarget(
            name: "BackendConformanceTests",
            dependencies: ["ReceiptKit", "ReceiptConformance", "ReceiptTestSupport"]
        ),
        .testTarget(
            name: "ReceiptCLITests",
            // `receipt` for @testable access to its output writers (JSONByteWriter, the formatters).
            dependencies: ["ReceiptCore", "ReceiptKit", "receipt", "ReceiptTestSupport"]
        ),
    ]
)
