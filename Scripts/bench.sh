#!/usr/bin/env bash
# Runs the ReceiptKit benchmarks (Benchmarks/, a separate package depending on this one with the
# OpenSSL and GnuTLS traits) in release mode and prints the table with the C baseline ratios.
#   Scripts/bench.sh            full run (about two minutes, plus the first release builds)
#   Scripts/bench.sh --quick    shorter batches (and 2,000 / 40 files in the end-to-end lines)
#   Scripts/bench.sh --cli-only only the end-to-end lines of the `receipt` tool (20,000 copies of
#                               the 1-purchase fixture, 200 of the real 187-purchase receipt, and
#                               2,000 of it in --ndjson on one and two cores beside the host's
#                               two-process ceiling)
#   Scripts/bench.sh --worst-only only the issue-27 lines (also at the end of a full run): thread CPU
#                               per cold validation of the worst hostile inputs (A1: 15,000 / 45,000 /
#                               58,000 digestAlgorithms; B: 20,000 / 45,000 unsigned attributes), built
#                               in memory from the real 187-purchase receipt, next to that receipt cold
#                               and the C baseline (PKCS7_verify); target ≤ 50 ms each
#   Scripts/bench.sh --jws-only only the issue-31 lines (also at the end of a full run): one real
#                               StoreKit 2 token per backend, warm and cold, against C (a) SHA-256 +
#                               ECDSA P-256 verify with the key parsed once and C (b) a straightforward
#                               verifier (x5c decoded, chain verified at signedDate, then the signature)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scratch="${BENCH_SCRATCH_PATH:-$root/.build-bench}"
static_scratch="${BENCH_STATIC_SCRATCH_PATH:-$root/.build-bench-static}"  # + -openssl / -gnutls / -cli
# Release builds of a path dependency are not safe to reuse once its sources change: SwiftPM keeps
# the dependency's file list in the build description, and after a stored property was added a
# reused --static-swift-stdlib receipt-memory crashed in swift_release under ASLR (2026-11-27; the
# same commit built fresh ran clean). So every scratch directory remembers the sources it was built
# from (tree hashes of the committed sources plus a hash of uncommitted changes) and its release
# products are rebuilt from nothing when they differ.
sources_stamp=$( { git -C "$root" rev-parse HEAD:Sources HEAD:Package.swift HEAD:Benchmarks 2>/dev/null || true
    git -C "$root" diff HEAD -- Sources Package.swift Benchmarks 2>/dev/null || true; } | sha256sum | cut -d' ' -f1)
for dir in "$scratch" "$static_scratch"-openssl "$static_scratch"-gnutls "$static_scratch"-cli-openssl "$static_scratch"-cli-gnutls; do
    if [[ -d $dir && $(cat "$dir/.receiptkit-sources" 2>/dev/null) != "$sources_stamp" ]]; then
        rm -rf "$dir"/*/release "$dir/release"
    fi
    mkdir -p "$dir" && printf '%s\n' "$sources_stamp" > "$dir/.receiptkit-sources"
done
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product receipt-bench >&2
for argument in "$@"; do
    if [[ $argument == --worst-only || $argument == --jws-only ]]; then
        exec "$scratch/release/receipt-bench" --fixtures "$root/Fixtures" "$@"
    fi
done
# The `receipt` tool itself, for the end-to-end lines, built as the README says to build the tool
# (with the Swift runtime linked in, --static-swift-stdlib) and once per backend with that
# backend's trait alone, as a user builds it: a tool linked with both libraries pays both
# libraries' load-time initialisation at every start (GnuTLS's about 1.6 ms).
swift build -c release --static-swift-stdlib --product receipt --scratch-path "$static_scratch-cli-openssl" \
    --traits OpenSSL >&2
swift build -c release --static-swift-stdlib --product receipt --scratch-path "$static_scratch-cli-gnutls" \
    --disable-default-traits --traits GnuTLS >&2
# The whole-process memory probe, once per backend, each built with that backend's trait alone (as a
# server would be) and the static Swift runtime (as a server image would be).
probes=()
cli_only=false
for argument in "$@"; do [[ $argument == --cli-only ]] && cli_only=true; done
for backend in openssl gnutls; do
    $cli_only && break  # the end-to-end lines need no memory probe
    RECEIPT_MEMORY_BACKEND=$backend swift build -c release --static-swift-stdlib --package-path Benchmarks/MemoryProbe \
        --scratch-path "$static_scratch-$backend" --product receipt-memory >&2
    probes+=(--memory-probe "$backend=$static_scratch-$backend/release/receipt-memory")
done
"$scratch/release/receipt-bench" --fixtures "$root/Fixtures" "${probes[@]}" --cli openssl="$static_scratch-cli-openssl/release/receipt" \
    --cli gnutls="$static_scratch-cli-gnutls/release/receipt" "$@"
