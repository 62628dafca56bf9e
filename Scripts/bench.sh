#!/usr/bin/env bash
# Runs the ReceiptKit benchmarks (Benchmarks/, a separate package depending on this one with the
# OpenSSL and GnuTLS traits) in release mode and prints the table with the C baseline ratios.
#   Scripts/bench.sh            full run (about two minutes, plus the first release builds)
#   Scripts/bench.sh --quick    shorter batches
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scratch="${BENCH_SCRATCH_PATH:-$root/.build-bench}"
static_scratch="${BENCH_STATIC_SCRATCH_PATH:-$root/.build-bench-static}"
# SwiftPM keeps a path dependency's file list in the build description and does not notice files
# added to this package since the last benchmark build: drop the descriptions so they are re-planned.
rm -f "$scratch"/*/release/description.json "$static_scratch"/*/release/description.json
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product receipt-bench >&2
# The whole-process memory probe, linked with the static Swift runtime (as a server image would be).
swift build -c release --static-swift-stdlib --package-path Benchmarks --scratch-path "$static_scratch" --product receipt-memory >&2
"$scratch/release/receipt-bench" --fixtures "$root/Fixtures" --memory-probe "$static_scratch/release/receipt-memory" "$@"
