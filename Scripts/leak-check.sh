#!/usr/bin/env bash
# Leak check and concurrency stress, in release builds of Fuzz/'s ReceiptSoak executable.
#
#   Scripts/leak-check.sh [ITERATIONS] [STRESS_ITERATIONS]
#
# 1. Leak: ITERATIONS (default 100000) validations per backend (OpenSSL, GnuTLS) in one process on
#    one shared validator, cycling through real receipts, generated valid receipts and the hostile
#    corpus (valid and invalid mixed), built with AddressSanitizer; LeakSanitizer checks at exit and
#    must report no leak ("0 bytes definitely lost"). VmRSS is printed every 10,000 validations and
#    must stay flat after warm-up. (valgrind is not used: it crashes in libdispatch on this system.)
# 2. The same run in a plain release build, where VmRSS is not inflated by ASan's quarantine.
# 3. Stress: 8 tasks × STRESS_ITERATIONS (default 10000) validations sharing one validator per
#    backend; every result must equal the sequential run's (plain release build).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
iterations="${1:-100000}"
stress_iterations="${2:-10000}"

build() {  # scratch-suffix, extra flags...
    local scratch="$root/Fuzz/.build-$1"
    shift
    local built
    set +e
    (cd "$root/Fuzz" && swift build -c release --product ReceiptSoak --scratch-path "$scratch" "$@" 2>&1 |
        grep -v -e "Cannot export local symbol" >&2; exit "${PIPESTATUS[0]}")
    built=$?
    set -e
    [[ $built -eq 0 && -x "$scratch/release/ReceiptSoak" ]] || { echo "leak-check: building ReceiptSoak ($scratch) failed" >&2; exit 1; }
    echo "$scratch/release/ReceiptSoak"
}

status=0

echo "== leak-check: AddressSanitizer + LeakSanitizer build"
asan_bin="$(build soak-asan --sanitize=address)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" LSAN_OPTIONS="report_objects=0" \
    "$asan_bin" leak --iterations "$iterations" 2>&1 | tee "$log"
asan_status=${PIPESTATUS[0]}
set -e
if grep -q "ERROR: LeakSanitizer" "$log"; then
    echo "leak-check: LeakSanitizer: $(grep -E '^SUMMARY: AddressSanitizer: [0-9]+ byte' "$log" | tail -1)"
    status=1
elif grep -q "ERROR: AddressSanitizer" "$log"; then
    echo "leak-check: AddressSanitizer reported an error"
    status=1
else
    echo "leak-check: LeakSanitizer: 0 bytes definitely lost (no leak reported at exit) after $iterations validations per backend"
fi
[[ $asan_status -eq 0 ]] || { echo "leak-check: ASan soak run exited $asan_status"; status=1; }

echo
echo "== leak-check: plain release build (VmRSS without ASan's quarantine)"
plain_bin="$(build soak)"
"$plain_bin" leak --iterations "$iterations" || status=1

echo
echo "== stress: 8 tasks × $stress_iterations validations per backend, one shared validator"
"$plain_bin" stress --tasks 8 --iterations "$stress_iterations" || status=1

echo
if [[ $status -eq 0 ]]; then echo "leak-check: all checks passed"; else echo "leak-check: FAILED"; fi
exit $status
