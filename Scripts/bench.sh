#!/usr/bin/env bash
# Runs the ReceiptKit benchmarks (Benchmarks/, a separate package depending on this one with the
# OpenSSL and GnuTLS traits) in release mode and prints the table with the C baseline ratios.
#   Scripts/bench.sh            full run (about a minute)
#   Scripts/bench.sh --quick    shorter batches
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scratch="${BENCH_SCRATCH_PATH:-$root/.build-bench}"
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product receipt-bench >&2
"$scratch/release/receipt-bench" --fixtures "$root/Fixtures" "$@"
