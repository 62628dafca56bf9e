#!/usr/bin/env bash
# The test suite (both backends compiled in) under AddressSanitizer + LeakSanitizer, and its
# concurrent tests under ThreadSanitizer.
#
#   Scripts/sanitizers.sh              both
#   Scripts/sanitizers.sh address      ASan + LSan: every test (scratch .build-asan)
#   Scripts/sanitizers.sh thread       TSan: the tests listed in `thread_tests` below (scratch .build-tsan)
#
# ASan + LSan run every test. Every loop of generated inputs that takes
# TestIterations (Tests/ReceiptTestSupport/TestIterations.swift) runs
# 1/RECEIPTKIT_TEST_ITERATION_DIVISOR of its rounds (default 8 here; each still runs and meets
# its scaled minimums), and the seven sweeps that cost most under ASan (mutated SignedData
# headers, canonical input, one walk, one-pass decode, JWS cache, single-byte mutants across
# backends, the hour sweep of AppleCivilTexts) check every divisor-th case, a different share per input or backend. The plain runs of Scripts/test.sh
# keep every round and case; RECEIPTKIT_TEST_ITERATION_DIVISOR=1 keeps them here too.
#
# TSan runs every test that runs ReceiptKit code on more than one thread at once (the list below
# says which code each one reaches). The others build and parse on one thread; TSan reports only
# unsynchronised accesses from two threads, so it has nothing to find in them. Two guards keep the
# list honest: a listed name that matches no test fails the step, and so does a test file that
# starts tasks or threads (or uses the shared pool) without its suite being listed.
#
# LeakSanitizer ignores the toolchain leaks listed in Scripts/lsan-suppressions.txt (Foundation and
# XCTest only); any other leak, any ASan error and any TSan warning fails the step.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

# Module.Suite or Module.Suite/testFunction. Each runs under TSan with everything it reaches.
thread_tests=(
    # One validator per backend from 8 tasks: the verified-chain cache (ShardLock shards, filled,
    # hit and evicted concurrently), the validation pool (async API), shared trust stores and keys.
    BackendConformanceTests.ConcurrentValidationTests
    # The async API on ValidationThreadPool.shared: 64 concurrent validations; blocked validations
    # holding pool threads while the cooperative threads keep running.
    BackendConformanceTests.AsyncValidationTests
    # The async entry points (every input kind) on the shared pool, from parallel test cases.
    BackendConformanceTests.PublicAPITests
    # One trust store shared by 64 concurrent verifications, on each backend.
    BackendConformanceTests.BackendVerificationTests/oneTrustStoreServesManyConcurrentVerifications
    BackendConformanceTests.GnuTLSBackendTests/concurrentVerification
    # OpenSSL keys' per-thread verify contexts (slots, their mutexes, the fall-back to duplicates)
    # from eight threads over the same keys.
    BackendConformanceTests.OpenSSLThreadContextTests
    # The verified-chain cache's own behaviour (cold, warm, eviction, time windows): the cache's
    # lock paths, next to the concurrent run above.
    BackendConformanceTests.VerifiedChainCacheTests
    # The CLI's certificate summaries shared by formatting tasks on many threads.
    ReceiptCLITests.CertificateSummaryCacheTests
    # The CLI's parallel verification of many inputs (a `receipt` subprocess, built with TSan):
    # the folder walk on its own thread, validation and formatting on the pool's threads, the
    # buffer pool, the shared certificate summaries, output in input order, early failures.
    ReceiptCLITests.VerifyInputTests
    ReceiptCLITests.EveryInputCountedTests
    ReceiptCLITests.VerifyExitStatusTests
    ReceiptCLITests.VerifyTokenTests/mixedDirectory
    ReceiptCLITests.VerifyJSONTests/jsonArray
    ReceiptCLITests.VerifyAppleFormatTests/ndjsonBatch
    # Standard output written on one thread while another thread reads the pipe.
    ReceiptCLITests.BufferedOutputTests
    # A named pipe opened by a watchdog thread while the loader refuses it.
    ReceiptCoreTests.ReceiptLoaderTests
    # The CLI's chunk schedule: worker threads taking chunks and emitting in order under its lock.
    ReceiptCLITests.ChunkScheduleTests
    # The pool's queue: jobs queued from the test's thread and the pool's, taken, cleared and
    # compacted by the pool's thread.
    ReceiptCoreTests.ValidationThreadPoolTests
)

# Every test file that starts tasks or threads or reaches the shared pool must have its suites in
# `thread_tests` (a new concurrent test cannot silently miss ThreadSanitizer).
check_thread_list() {
    local file suite missing=0 listed
    listed="$(printf '%s\n' "${thread_tests[@]}")"
    while IFS= read -r file; do
        while IFS= read -r suite; do
            if ! grep -q -E "\.${suite}(/|$)" <<<"$listed"; then
                echo "sanitizers: $file starts tasks or threads, but its suite $suite is not in thread_tests (Scripts/sanitizers.sh)"
                missing=1
            fi
        done < <(grep -o -E '(struct|class) [A-Za-z0-9_]+Tests\b' "$file" | grep -o -E '[A-Za-z0-9_]+$' | sort -u)
    done < <(grep -r -l -E 'withTaskGroup|withThrowingTaskGroup|async let|Task \{|Task\.detached|DispatchQueue|Thread\(|pthread_create|concurrentPerform|NamedPipeWatchdog|SharedCertificateSummaries|ValidationThreadPool|await [A-Za-z.]*[vV]alidator[A-Za-z.]*\.(report|validate|verify)' \
        Tests --include='*.swift' --exclude-dir=ReceiptTestSupport | sort)
    return $missing
}

# Each name in thread_tests must match at least one test of the build.
check_thread_tests_exist() {
    local scratch="$1" listing name missing=0
    listing="$(swift test list --skip-build --sanitize=thread --traits OpenSSL,GnuTLS --scratch-path "$scratch" 2>/dev/null)"
    for name in "${thread_tests[@]}"; do
        if ! grep -q -F -e "$name/" -e "$name(" <<<"$listing" && ! grep -q -x -F "$name" <<<"$listing"; then
            echo "sanitizers: thread_tests names $name, which matches no test (renamed or removed?)"
            missing=1
        fi
    done
    return $missing
}

run() {  # sanitizer scratch
    local sanitizer="$1" scratch="$2" log status reports started filters=()
    log="$(mktemp)"
    started=$SECONDS
    if [[ $sanitizer == thread ]]; then
        check_thread_list || { rm -f "$log"; return 1; }
        for name in "${thread_tests[@]}"; do filters+=(--filter "$name"); done
    fi
    echo "-- swift build --build-tests --sanitize=$sanitizer --traits OpenSSL,GnuTLS --scratch-path $scratch"
    if ! swift build --build-tests --sanitize="$sanitizer" --traits OpenSSL,GnuTLS --scratch-path "$scratch" >"$log" 2>&1; then
        tail -30 "$log"
        echo "sanitizers: the $sanitizer-sanitized build FAILED, so the $sanitizer sanitizer run cannot happen here"
        rm -f "$log"
        return 1
    fi
    echo "   built in $((SECONDS - started))s"
    if [[ $sanitizer == thread ]]; then
        check_thread_tests_exist "$scratch" || { rm -f "$log"; return 1; }
        echo "-- swift test --sanitize=thread … (${#thread_tests[@]} names: the concurrent tests)"
    else
        echo "-- swift test --sanitize=address … (every test; generated-input loops ÷${RECEIPTKIT_TEST_ITERATION_DIVISOR:-8})"
    fi
    started=$SECONDS
    set +e
    RECEIPTKIT_TEST_ITERATION_DIVISOR="${RECEIPTKIT_TEST_ITERATION_DIVISOR:-8}" \
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1" \
    LSAN_OPTIONS="suppressions=$root/Scripts/lsan-suppressions.txt:print_suppressions=1" \
    TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1" \
        swift test --skip-build --sanitize="$sanitizer" --traits OpenSSL,GnuTLS --scratch-path "$scratch" "${filters[@]}" >"$log" 2>&1
    status=$?
    set -e
    reports="$(grep -c -E 'ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer' "$log" || true)"
    grep -E '^(✔|✘) Test run with|Executed [0-9]+ tests' "$log" | tail -2
    echo "   tests ran in $((SECONDS - started))s"
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
