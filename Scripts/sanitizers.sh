#!/usr/bin/env bash
# The whole test suite (both backends compiled in) under AddressSanitizer + LeakSanitizer and under
# ThreadSanitizer.
#
#   Scripts/sanitizers.sh              both
#   Scripts/sanitizers.sh address      ASan + LSan only (scratch .build-asan)
#   Scripts/sanitizers.sh thread       TSan only (scratch .build-tsan)
#
# LeakSanitizer ignores the toolchain leaks listed in Scripts/lsan-suppressions.txt (Foundation and
# XCTest only); any other leak, any ASan error and any TSan warning fails the step.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

run() {  # sanitizer scratch
    local sanitizer="$1" scratch="$2" log status reports
    log="$(mktemp)"
    echo "-- swift test --sanitize=$sanitizer --traits OpenSSL,GnuTLS --scratch-path $scratch"
    if ! swift build --build-tests --sanitize="$sanitizer" --traits OpenSSL,GnuTLS --scratch-path "$scratch" >"$log" 2>&1; then
        tail -30 "$log"
        echo "sanitizers: the $sanitizer-sanitized build FAILED, so the $sanitizer sanitizer run cannot happen here"
        rm -f "$log"
        return 1
    fi
    set +e
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1" \
    LSAN_OPTIONS="suppressions=$root/Scripts/lsan-suppressions.txt:print_suppressions=1" \
    TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1" \
        swift test --skip-build --sanitize="$sanitizer" --traits OpenSSL,GnuTLS --scratch-path "$scratch" >"$log" 2>&1
    status=$?
    set -e
    reports="$(grep -c -E 'ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer' "$log" || true)"
    grep -E '^(✔|✘) Test run with|Executed [0-9]+ tests' "$log" | tail -2
    if grep -q "Suppressions used" "$log"; then
        echo "   (toolchain leaks suppressed by Scripts/lsan-suppressions.txt:)"
        grep -A8 "Suppressions used" "$log" | grep -E '^ +[0-9]+ ' | sed 's/^/   /' | sort -u
    fi
    if [[ $status -ne 0 || $reports -ne 0 ]]; then
        grep -B2 -A40 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer' "$log" | head -120
        grep -E '^✘' "$log" | head -20
        echo "sanitizers: $sanitizer: FAILED (swift test exit $status, $reports sanitizer report(s))"
        rm -f "$log"
        return 1
    fi
    echo "sanitizers: $sanitizer: clean (0 sanitizer reports, every test passed)"
    rm -f "$log"
}

selected=("$@")
[[ ${#selected[@]} -gt 0 ]] || selected=(address thread)
status=0
for sanitizer in "${selected[@]}"; do
    case "$sanitizer" in
        address) run address .build-asan || status=1 ;;
        thread) run thread .build-tsan || status=1 ;;
        *) echo "usage: Scripts/sanitizers.sh [address|thread]..." >&2; exit 2 ;;
    esac
done
exit $status
