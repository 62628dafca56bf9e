// swift-tools-version: 6.1
// Fuzzing and soak harnesses for ReceiptKit, kept out of the main package so that `swift build` and
// `swift test` at the root never compile them (as apple/swift-protobuf's FuzzTesting package does).
//
// Fuzz targets (libFuzzer; build and run them with Scripts/fuzz.sh):
//   swift build -c release --product FuzzParser -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// Soak / leak / stress executable (AddressSanitizer + LeakSanitizer; Scripts/leak-check.sh):
//   swift build -c release --product ReceiptSoak --sanitize=address

import PackageDescription

let receiptKit: Target.Dependency = .product(name: "ReceiptKit", package: "ReceiptKit")

let package = Package(
    name: "ReceiptKitFuzz",
    products: [
        // The harnesses' shared code, for Benchmarks/ (its issue-27 line builds inputs with UnsignedEdits).
        .library(name: "FuzzSupport", targets: ["FuzzSupport"]),
    ],
    dependencies: [
        .package(name: "ReceiptKit", path: "..", traits: ["OpenSSL", "GnuTLS"])
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [receiptKit]),
        .executableTarget(name: "FuzzLoader", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "FuzzContainer", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "FuzzParser", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "FuzzValidatorOpenSSL", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "FuzzValidatorGnuTLS", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "FuzzJWS", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "FuzzRequest", dependencies: ["FuzzSupport", receiptKit]),
        .executableTarget(name: "ReceiptSoak", dependencies: ["FuzzSupport", receiptKit]),
    ]
)
