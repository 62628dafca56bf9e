// swift-tools-version: 6.1
// 6.1: the tools version of the root package, whose traits this package turns off.

import PackageDescription

/// A third `CryptoBackend` for ReceiptKit, on swift-crypto and swift-certificates alone: no system
/// library, and written against ReceiptKit's public API only (no `@testable`, `@_spi` or `package`
/// access). A package of its own, so a ReceiptKit user never builds BoringSSL.
let package = Package(
    name: "ReceiptSwiftCrypto",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ReceiptSwiftCrypto", targets: ["ReceiptSwiftCrypto"]),
    ],
    dependencies: [
        // `traits: []`: ReceiptKit with neither OpenSSL nor GnuTLS, the verifier with no C library.
        .package(name: "ReceiptKit", path: "../..", traits: []),
        // 3.x: the RSA API is `_CryptoExtras` (4.x renamed the module).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"4.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        .target(
            name: "ReceiptSwiftCrypto",
            dependencies: [
                .product(name: "ReceiptKit", package: "ReceiptKit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(
            name: "ReceiptSwiftCryptoTests",
            dependencies: [
                "ReceiptSwiftCrypto",
                .product(name: "ReceiptKit", package: "ReceiptKit"),
                .product(name: "ReceiptConformance", package: "ReceiptKit"),
            ]
        ),
    ]
)
