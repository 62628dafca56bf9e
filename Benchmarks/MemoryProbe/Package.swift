// swift-tools-version: 6.1
// receipt-memory, the whole-process memory probe, as its own package so that it is built with one
// backend, as a server chooses one with a package trait: the process then loads only that
// backend's libraries. Scripts/bench.sh builds it once per backend:
//   RECEIPT_MEMORY_BACKEND=openssl|gnutls swift build -c release --static-swift-stdlib --package-path Benchmarks/MemoryProbe …

import Foundation
import PackageDescription

let backend: Package.Dependency.Trait = Context.environment["RECEIPT_MEMORY_BACKEND"] == "gnutls" ? "GnuTLS" : "OpenSSL"

// SwiftPM names a path dependency after its directory (the checkout may be `ReceiptKit`, `main`, …).
let root = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ReceiptKitMemoryProbe",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../..", traits: [backend]),
    ],
    targets: [
        // Whole-process peak memory of one validation, in a process holding nothing else.
        .executableTarget(
            name: "receipt-memory",
            dependencies: [.product(name: "ReceiptKit", package: root)]
        ),
    ]
)
