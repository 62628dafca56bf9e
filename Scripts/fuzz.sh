#!/usr/bin/env bash
# libFuzzer harnesses for ReceiptKit (the Fuzz/ package; the main build never compiles them).
#
#   Scripts/fuzz.sh                      list the targets, one per line
#   Scripts/fuzz.sh TARGET SECONDS       build (cached) and fuzz TARGET for SECONDS
#   Scripts/fuzz.sh --regress [TARGET]   run the target(s) once over Fixtures/fuzz-regressions/ (no fuzzing)
#
# Each run starts from a seed corpus copied from Fixtures/ (real receipts, generated receipts, the
# hostile corpus; for `parser` the payloads in Fixtures/generated/payloads and the signed content of
# every real receipt) plus the inputs found by earlier runs (Fuzz/.corpus/TARGET, not committed),
# with the dictionary Fuzz/receipt.dict (Fuzz/request.dict for `request`, whose seeds are verifyReceipt
# bodies; Fuzz/jws.dict for `jws`: its seeds are Fixtures/jws/tokens,
# Fixtures/real-jws and their header and payload JSON in the shapes of JWSFuzzing.token(from:)). A crash (ASan report, Swift trap, violated invariant, leak,
# timeout, out-of-memory) exits non-zero and leaves the input in fuzz-crashes/.
#
# Environment: FUZZ_LOG=FILE appends one markdown table row per run;
# FUZZ_MAX_LEN (default 65536) caps the input size; FUZZ_SCRATCH (default Fuzz/.build-fuzz).
# The whole script is one brace group, so bash parses it completely before running it and a
# checkout that rewrites this file during a long run cannot derail the rest of the run.
{
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

targets=(loader container parser validator-openssl validator-gnutls jws request)

product_for() {
    case "$1" in
        loader) echo FuzzLoader ;;
        container) echo FuzzContainer ;;
        parser) echo FuzzParser ;;
        validator-openssl) echo FuzzValidatorOpenSSL ;;
        validator-gnutls) echo FuzzValidatorGnuTLS ;;
        jws) echo FuzzJWS ;;
        request) echo FuzzRequest ;;
        *) return 1 ;;
    esac
}

scratch="${FUZZ_SCRATCH:-$root/Fuzz/.build-fuzz}"

build() {
    local product="$1"
    # Serialise builds of the shared scratch directory (two fuzzers may start at once).
    (
        flock 9
        cd "$root/Fuzz"
        # --sanitize=fuzzer tells SwiftPM to link libFuzzer's main (it does not rename ours away);
        # the combined -Xswiftc -sanitize=fuzzer,address is what makes swiftc instrument every module
        # for coverage: with two separate -sanitize= flags the last one wins and coverage is lost.
        # SwiftPM keeps the two --sanitize options in a Set and writes them into every module's
        # command in that Set's order, which follows the process's random hash seed: whenever a
        # build replans (a new directory, another product), the order can flip, every module's
        # command changes and all of them recompile (50–100 s; twice in some CI runs). A fixed
        # seed keeps one order for every build of the scratch directory.
        set +e
        SWIFT_DETERMINISTIC_HASHING=1 swift build -c release --product "$product" --sanitize=fuzzer --sanitize=address \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --scratch-path "$scratch" 2>&1 |
            grep -v -e "Cannot export local symbol '__asan_extra_spill_area'" >&2
        built=${PIPESTATUS[0]}
        set -e
        [[ $built -eq 0 && -x "$scratch/release/$product" ]] || { echo "fuzz.sh: building $product failed" >&2; exit 1; }
    ) 9>"$root/Fuzz/.build-lock"
    echo "$scratch/release/$product"
}

# Signed content of each real receipt (the parser's natural input), without verification.
extract_payloads() {
    local out="$1" file
    for file in "$root"/Fixtures/real/receipts/*.receipt; do
        openssl cms -verify -noverify -nosigs -inform DER -binary -in "$file" \
            -out "$out/content-$(basename "$file" .receipt).der" >/dev/null 2>&1 || true
    done
}

# base64url without padding → bytes.
b64url_decode() {
    local text="$1"
    while ((${#text} % 4)); do text+="="; done
    printf '%s' "$text" | basenc --base64url -d
}

seed_corpus() {
    local target="$1" out="$2" file
    mkdir -p "$out"
    case "$target" in
        jws)
            # Every token, and the structured shapes of JWSFuzzing.token(from:): 0x01 header JSON
            # 0x00 payload JSON, and 0x02 payload JSON.
            cp "$root"/Fixtures/jws/tokens/*.jws "$root"/Fixtures/real-jws/*.jws "$out"/
            for file in "$root"/Fixtures/jws/tokens/valid-*.jws "$root"/Fixtures/real-jws/*.jws; do
                local stem header payload
                stem="$(basename "$file" .jws)"
                IFS=. read -r header payload _ <"$file" || true
                { printf '\001'; b64url_decode "$header"; printf '\000'; b64url_decode "$payload"; } >"$out/json-$stem"
                { printf '\002'; b64url_decode "$payload"; } >"$out/payload-$stem"
            done
            ;;
        request)
            # verifyReceipt bodies of a few receipts: plain, with the other members, URL-safe,
            # escaped, spaced; and the hostile JSON shapes.
            for file in "$root"/Fixtures/real/receipts/tpinapp-sandbox-g5-sha256-2025-2iap.receipt \
                "$root"/Fixtures/real/receipts/aporat-production-g5-sha256-2025-1iap.receipt \
                "$root"/Fixtures/generated/receipts/valid-sha256-noattr.receipt; do
                local stem text
                stem="$(basename "$file" .receipt)"
                text="$(base64 -w 0 "$file")"
                printf '{"receipt-data":"%s"}' "$text" >"$out/plain-$stem"
                printf '{"receipt-data":"%s","password":"secret","exclude-old-transactions":true}' "$text" >"$out/members-$stem"
                printf '{"exclude-old-transactions":false,"receipt-data":"%s","x":[1,{"y":null}]}' "$(tr '+/' '-_' <<<"$text" | tr -d '=')" >"$out/urlsafe-$stem"
                printf ' {\n "receipt-data" : "%s" ,\n "password" : null }\n' "$(sed 's|/|\\/|g' <<<"$text")" >"$out/escaped-$stem"
            done
            printf '{"receipt-data":"QQ=="}' >"$out/short"
            printf '{"receipt-data":"QQ==","receipt-data":"QUI="}' >"$out/duplicate"
            # As data, not as printf's format: printf would turn \u0051 into Q itself.
            printf '%s' '{"receipt-data":"Q\u0051=="}' >"$out/unicode-escape"
            ;;
        parser)
            cp "$root"/Fixtures/generated/payloads/*.der "$out"/
            extract_payloads "$out"
            ;;
        *)
            cp "$root"/Fixtures/real/receipts/* "$root"/Fixtures/real/legacy/* \
                "$root"/Fixtures/generated/receipts/* "$root"/Fixtures/generated/hostile/* "$out"/
            if [[ "$target" == loader || "$target" == validator-* ]]; then
                # base64 text forms (with line breaks and URL-safe) of a few receipts
                for file in "$root"/Fixtures/generated/receipts/valid-sha256-noattr.receipt \
                    "$root"/Fixtures/real/receipts/tpinapp-sandbox-g5-sha256-2025-2iap.receipt; do
                    base64 -w 76 "$file" >"$out/b64-$(basename "$file")"
                    base64 -w 0 "$file" | tr '+/' '-_' | tr -d '=' >"$out/b64url-$(basename "$file")"
                done
            fi
            ;;
    esac
    if [[ -d "$root/Fixtures/fuzz-regressions/$target" ]]; then
        cp "$root/Fixtures/fuzz-regressions/$target"/* "$out"/ 2>/dev/null || true
    fi
}

if [[ $# -eq 0 ]]; then
    printf '%s\n' "${targets[@]}"
    exit 0
fi

if [[ "$1" == "--regress" ]]; then
    shift
    selected=("${@:-${targets[@]}}")
    status=0
    for target in "${selected[@]}"; do
        product="$(product_for "$target")" || { echo "fuzz.sh: unknown target '$target'" >&2; exit 2; }
        dir="$root/Fixtures/fuzz-regressions/$target"
        compgen -G "$dir/*" >/dev/null || { echo "fuzz.sh: $target: no regression inputs"; continue; }
        binary="$(build "$product")"
        # With files (not directories) as arguments, libFuzzer runs each input once.
        if output="$("$binary" "$dir"/* 2>&1)"; then
            echo "fuzz.sh: $target: $(ls "$dir" | wc -l) regression input(s) pass"
        else
            printf '%s\n' "$output" | tail -40 >&2
            echo "fuzz.sh: $target: a regression input fails" >&2
            status=1
        fi
    done
    exit $status
fi

target="$1"
seconds="${2:?usage: Scripts/fuzz.sh TARGET SECONDS}"
product="$(product_for "$target")" || { echo "fuzz.sh: unknown target '$target' (run Scripts/fuzz.sh to list them)" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number" >&2; exit 2; }

binary="$(build "$product")"
corpus="$root/Fuzz/.corpus/$target"
seeds="$(mktemp -d)"
trap 'rm -rf "$seeds"' EXIT
seed_corpus "$target" "$seeds"
mkdir -p "$corpus" "$root/fuzz-crashes"
log="$(mktemp)"
trap 'rm -rf "$seeds" "$log"' EXIT

echo "fuzz.sh: $target for ${seconds}s ($(ls "$seeds" | wc -l) seeds, $(ls "$corpus" | wc -l) inputs in Fuzz/.corpus/$target)"
set +e
"$binary" "$corpus" "$seeds" \
    -dict="$root/Fuzz/$(case $target in jws | request) echo "$target" ;; *) echo receipt ;; esac).dict" \
    -max_total_time="$seconds" \
    -max_len="${FUZZ_MAX_LEN:-65536}" \
    -timeout=20 -rss_limit_mb=3072 -malloc_limit_mb=3072 \
    -artifact_prefix="$root/fuzz-crashes/$target-" \
    -print_final_stats=1 -reload=0 2>&1 | tee "$log" | grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)|^"|^###### |^MS: ' >&2
status=${PIPESTATUS[0]}
set -e

execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)"
last="$(grep -E '^#[0-9]+\s' "$log" | grep -E 'cov: ' | tail -1)"
cov="$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")"
ft="$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")"
corp="$(sed -nE 's/.*corp: ([0-9]+).*/\1/p' <<<"$last")"
rate="$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)"
crashes=0
[[ $status -eq 0 ]] || crashes=1
summary="target=$target seconds=$seconds execs=${execs:-?} exec/s=${rate:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} crashes=$crashes"
echo "fuzz.sh: $summary"
if [[ -n "${FUZZ_LOG:-}" ]]; then
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(date -u +%FT%TZ)" "$target" "$seconds" \
        "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes" >>"$FUZZ_LOG"
fi
if [[ $status -ne 0 ]]; then
    echo "fuzz.sh: $target FAILED (libFuzzer exit $status); input(s) in fuzz-crashes/:" >&2
    ls -1t "$root/fuzz-crashes" | grep "^$target-" | head -5 >&2 || true
    exit 1
fi
exit 0
}
