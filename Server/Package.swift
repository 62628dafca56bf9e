// swift-tools-version: 6.2
// The verifyReceipt-compatible HTTP service: a package of its own, so that Hummingbird and SwiftNIO
// never enter ReceiptKit's dependency graph (a library user fetches and builds neither).

import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory (the checkout may be `ReceiptKit`, `main`, …).
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ReceiptServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "receipt-server", targets: ["receipt-server"]),
    ],
    dependencies: [
        .package(path: "..", traits: ["OpenSSL", "GnuTLS"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Already in the graph through Hummingbird; no trait: the command line comes from ArgumentParser.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // The stored tokens and the state derived from them: storage (SQLite, PostgreSQL) and a
        // pure derivation, with no HTTP.
        .target(
            name: "ReceiptState",
            dependencies: [
                .product(name: "ReceiptKit", package: root),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "ReceiptServer",
            dependencies: [
                "ReceiptState",
                .product(name: "ReceiptKit", package: root),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .executableTarget(
            name: "receipt-server",
            dependencies: [
                "ReceiptServer",
                "ReceiptState",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ReceiptServerTests",
            dependencies: [
                "ReceiptServer",
                "StateTestSupport",
                // A small client of our own (HTTPTestClient.swift) rather than HummingbirdTesting,
                // whose AsyncHTTPClient would add NIOHTTP2, NIOHPACK and more to the test build.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        .testTarget(
            name: "ReceiptStateTests",
            // The drivers, to write rows as a newer build would (a kind this build does not know).
            dependencies: [
                "ReceiptState", "StateTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ]
        ),
        // Throwaway PostgreSQL servers (Scripts/postgres.sh) and synthetic tokens, for both test targets.
        .target(
            name: "StateTestSupport",
            dependencies: [
                "ReceiptState", .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/StateTestSupport"
        ),
    ]
)
