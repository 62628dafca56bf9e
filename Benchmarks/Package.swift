// swift-tools-version: 6.1
// The ReceiptKit benchmarks: a separate package (so the main build and CI never compile it) that
// depends on the root package with both backends. Run it with `Scripts/bench.sh`.

import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory (the checkout may be `ReceiptKit`, `main`, …).
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ReceiptKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "..", traits: ["OpenSSL", "GnuTLS"]),
        // The hostile-input generator of the issue-27 line (Fuzz/Sources/FuzzSupport/UnsignedEdits.swift).
        .package(path: "../Fuzz"),
    ],
    targets: [
        // The C baseline: tight loops over PKCS7_verify / gnutls_pkcs7_verify and a bare DER walk.
        .target(
            name: "CBaseline",
            linkerSettings: [.linkedLibrary("crypto"), .linkedLibrary("gnutls")]
        ),
        .executableTarget(
            name: "receipt-bench",
            dependencies: [
                .product(name: "ReceiptKit", package: root),
                .product(name: "FuzzSupport", package: "fuzz"),
                "CBaseline",
            ]
        ),
    ]
)
