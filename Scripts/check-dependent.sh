#!/usr/bin/env bash
# Builds a throwaway package that depends on ReceiptKit with `traits: ["GnuTLS"]`, runs it, and checks
# that it uses GnuTLS and links no libssl/libcrypto.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${RECEIPTKIT_DEPENDENT_DIR:-$(mktemp -d)}"
mkdir -p "$work/Sources/DependentCheck"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DependentCheck",
    dependencies: [.package(name: "ReceiptKit", path: "$repo", traits: ["GnuTLS"])],
    targets: [
        .executableTarget(
            name: "DependentCheck",
            dependencies: [.product(name: "ReceiptKit", package: "ReceiptKit")]
        )
    ]
)
SWIFT
cat > "$work/Sources/DependentCheck/main.swift" <<'SWIFT'
import ReceiptKit

print(DefaultCryptoBackend().name)
SWIFT
(cd "$work" && swift build -q)
bin="$(cd "$work" && swift build --show-bin-path)/DependentCheck"
name="$("$bin")"
[[ "$name" == "gnutls" ]] || { echo "check-dependent: default backend is '$name', expected gnutls" >&2; exit 1; }
bash "$repo/Scripts/check-linkage.sh" "$bin" gnutls
echo "check-dependent: a dependent package with traits [\"GnuTLS\"] uses '$name' and links no OpenSSL"
[[ -n "${RECEIPTKIT_DEPENDENT_DIR:-}" ]] || rm -rf "$work"
