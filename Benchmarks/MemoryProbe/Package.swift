// swift-tools-version: 6.1
// receipt-memory, the whole-process memory probe, as its own package so that it is built with one
// backend, as a server chooses one with a package trait: the process then loads only that
// backend's libraries. Scripts/bench.sh builds it once per backend:
//   RECEIPT_MEMORY_BACKEND=openssl|gnutls swift build -c release --static-swift-stdlib --package-path Benchmarks/MemoryProbe …
//
// Linked as a current Linux server binary would be: with the toolchain's lld and packed relative
// relocations (`-z pack-relative-relocs`, DT_RELR; glibc ≥ 2.36: Debian 12, Ubuntu 24.04, RHEL 10,
// the swift:*-bookworm / -noble images). A position-independent executable with the static Swift
// runtime carries about 110,000 relative relocations: as RELA entries (24 bytes each, the
// default with gold) the loader reads 855 KiB of them at every start, and those pages stay
// resident; packed they take 7 KiB. The code and the data are the same (RssAnon unchanged).
// On an older glibc leave `releaseLinkerSettings` out.

import Foundation
import PackageDescription

let backend: Package.Dependency.Trait = Context.environment["RECEIPT_MEMORY_BACKEND"] == "gnutls" ? "GnuTLS" : "OpenSSL"

// SwiftPM names a path dependency after its directory (the checkout may be `ReceiptKit`, `main`, …).
let root = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

/// lld with packed relative relocations (see above), for Linux release builds only.
let releaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux], configuration: .release)),
]

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
            dependencies: [.product(name: "ReceiptKit", package: root)],
            linkerSettings: releaseLinkerSettings
        ),
    ]
)
