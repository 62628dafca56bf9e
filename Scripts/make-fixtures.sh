#!/usr/bin/env bash
# Recreates Fixtures/generated/ (test PKI, synthetic signed receipts, hostile corpus),
# Fixtures/signed-data-classes/, Fixtures/jws/ (Apple-shaped EC PKI and JWS tokens) and
# Fixtures/manifest.json. The outputs are committed: tests never need to run this script.
#
# Requirements: openssl 3.x CLI and python3 (standard library; `cryptography` 44+ for Fixtures/jws).
# Layout (file names) is deterministic; keys, signatures and signing times are not — except in
# Fixtures/jws, whose keys are kept and whose signatures are RFC 6979 deterministic.
#
# Usage: Scripts/make-fixtures.sh            (from anywhere inside the repository)
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HELPERS="$ROOT_DIR/Scripts/fixtures"
FIXTURES="$ROOT_DIR/Fixtures"
OUT="$FIXTURES/generated"
PKI="$OUT/pki"
KEYS="$PKI/keys"
PAYLOADS="$OUT/payloads"
RECEIPTS="$OUT/receipts"
HOSTILE="$OUT/hostile"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

export OPENSSL_CONF="$HELPERS/ca.cnf"
CA_CNF="$HELPERS/ca.cnf"

say() { printf '%s\n' "$*"; }
made() { say "  made $(realpath --relative-to="$FIXTURES" "$1") ($(stat -c %s "$1") bytes)"; }

rm -rf "$OUT"
mkdir -p "$PKI" "$KEYS" "$PAYLOADS" "$RECEIPTS" "$HOSTILE"

# ---------------------------------------------------------------------------
# Test PKI
# ---------------------------------------------------------------------------
# issue NAME ISSUER|self SUBJECT START END EXTENSION_SECTION DIGEST [KEYNAME]
# Writes pki/NAME.pem, pki/NAME.cer (DER) and pki/keys/KEYNAME.key (KEYNAME defaults to NAME).
issue() {
    local name=$1 issuer=$2 subject=$3 start=$4 end=$5 ext=$6 md=$7 keyname=${8:-$1}
    local key="$KEYS/$keyname.key"
    [[ -f $key ]] || openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$key"
    openssl req -new -config "$CA_CNF" -key "$key" -subj "$subject" -out "$WORK/$name.csr"
    local ca_dir
    if [[ $issuer == self ]]; then
        ca_dir="$WORK/ca-$name"
    else
        ca_dir="$WORK/ca-$issuer"
    fi
    if [[ ! -d $ca_dir ]]; then
        mkdir -p "$ca_dir"
        : >"$ca_dir/index.txt"
        echo 1000 >"$ca_dir/serial"
    fi
    local signer_args
    if [[ $issuer == self ]]; then
        signer_args=(-selfsign -keyfile "$key")
    else
        signer_args=(-cert "$PKI/$issuer.pem" -keyfile "$KEYS/$issuer.key")
    fi
    CA_DIR="$ca_dir" openssl ca -batch -notext -config "$CA_CNF" "${signer_args[@]}" \
        -in "$WORK/$name.csr" -out "$WORK/$name.crt" \
        -startdate "$start" -enddate "$end" -extensions "$ext" -md "$md" 2>"$WORK/ca.log" \
        || { cat "$WORK/ca.log" >&2; exit 1; }
    openssl x509 -in "$WORK/$name.crt" -out "$PKI/$name.pem"
    openssl x509 -in "$WORK/$name.crt" -outform DER -out "$PKI/$name.cer"
    made "$PKI/$name.cer"
}

O="/C=US/O=ReceiptKit Test"
# The root starts in 2010 (not 2020) so that the 2015-2020 "expired" pair is valid at its 2018
# creation date all the way up to the anchor.
ROOT_START=20100101000000Z
ROOT_END=20450101000000Z
VALID_START=20200101000000Z
VALID_END=20450101000000Z

say "PKI (RSA-2048):"
issue root self "$O/OU=ReceiptKit Test Certification Authority/CN=ReceiptKit Test Root CA" \
    $ROOT_START $ROOT_END root_ext sha256
issue intermediate root "$O/OU=G1/CN=ReceiptKit Test WWDR CA" \
    $VALID_START $VALID_END intermediate_ext sha256
issue leaf intermediate "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing" \
    $VALID_START $VALID_END leaf_ext sha256
# SHA-1-signed certificates (as Apple's pre-2023 chains) for the SHA-1 receipts.
issue intermediate-sha1 root "$O/OU=G1 SHA-1/CN=ReceiptKit Test WWDR CA SHA-1" \
    $VALID_START $VALID_END intermediate_ext sha1
issue leaf-sha1 intermediate-sha1 "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing SHA-1" \
    $VALID_START $VALID_END leaf_ext sha1
# Marker variants.
issue intermediate-nomarker root "$O/OU=G1/CN=ReceiptKit Test WWDR CA Without Marker" \
    $VALID_START $VALID_END intermediate_nomarker_ext sha256
issue leaf-of-intermediate-nomarker intermediate-nomarker "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing Under Unmarked CA" \
    $VALID_START $VALID_END leaf_ext sha256
issue leaf-nomarker intermediate "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing Without Marker" \
    $VALID_START $VALID_END leaf_nomarker_ext sha256
# Time variants.
issue intermediate-expired root "$O/OU=G0/CN=ReceiptKit Test WWDR CA 2015-2020" \
    20150101000000Z 20200101000000Z intermediate_ext sha256
issue leaf-expired intermediate-expired "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing 2015-2020" \
    20150101000000Z 20200101000000Z leaf_ext sha256
issue intermediate-future root "$O/OU=G9/CN=ReceiptKit Test WWDR CA 2040-2045" \
    20400101000000Z 20450101000000Z intermediate_ext sha256
issue leaf-future intermediate-future "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing 2040-2045" \
    20400101000000Z 20450101000000Z leaf_ext sha256
# Untrusted variants.
issue other-root self "/C=US/O=Some Other CA/OU=Other Certification Authority/CN=Other Root CA" \
    $ROOT_START $ROOT_END root_ext sha256
issue other-intermediate other-root "/C=US/O=Some Other CA/OU=G1/CN=Other WWDR CA" \
    $VALID_START $VALID_END intermediate_ext sha256
issue other-leaf other-intermediate "/C=US/O=Some Other CA/OU=Other WWDR/CN=Other Receipt Signing" \
    $VALID_START $VALID_END leaf_ext sha256
issue samename-root self "$O/OU=ReceiptKit Test Certification Authority/CN=ReceiptKit Test Root CA" \
    $ROOT_START $ROOT_END root_ext sha256
issue samename-intermediate samename-root "$O/OU=G1/CN=ReceiptKit Test WWDR CA" \
    $VALID_START $VALID_END intermediate_ext sha256
issue samename-leaf samename-intermediate "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing" \
    $VALID_START $VALID_END leaf_ext sha256
issue intermediate-notca root "$O/OU=G1/CN=ReceiptKit Test WWDR Not A CA" \
    $VALID_START $VALID_END intermediate_notca_ext sha256
issue leaf-of-intermediate-notca intermediate-notca "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing Under Non-CA" \
    $VALID_START $VALID_END leaf_ext sha256
issue leaf-selfsigned self "$O/OU=ReceiptKit Test WWDR/CN=ReceiptKit Test Receipt Signing Self-Signed" \
    $VALID_START $VALID_END leaf_selfsigned_ext sha256
# A key that matches no certificate (for a signature made by the wrong key).
openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$KEYS/wrong.key"
made "$KEYS/wrong.key"

# ---------------------------------------------------------------------------
# Payloads
# ---------------------------------------------------------------------------
say "Payloads (DER SET OF ReceiptAttribute):"
python3 "$HELPERS/payload.py" write "$PAYLOADS"
for f in "$PAYLOADS"/*.der; do made "$f"; done

# ---------------------------------------------------------------------------
# Signing
# ---------------------------------------------------------------------------
# sign OUT PAYLOAD LEAF "EXTRA_CERTS" DIGEST attrs|noattr der|ber [extra openssl args]
# EXTRA_CERTS: space-separated pki names embedded besides the signer (Apple embeds leaf,
# intermediate and root).
sign() {
    local out=$1 payload=$2 leaf=$3 certs=$4 md=$5 attrs=$6 enc=$7
    shift 7
    local args=(-sign -binary -nodetach -outform DER -in "$PAYLOADS/$payload.der"
        -signer "$PKI/$leaf.pem" -inkey "$KEYS/$leaf.key" -md "$md" -nosmimecap -out "$out")
    [[ $attrs == noattr ]] && args+=(-noattr)
    [[ $enc == ber ]] && args+=(-stream)
    if [[ -n $certs ]]; then
        : >"$WORK/certfile.pem"
        for c in $certs; do cat "$PKI/$c.pem" >>"$WORK/certfile.pem"; done
        args+=(-certfile "$WORK/certfile.pem")
    fi
    openssl cms "${args[@]}" "$@"
    made "$out"
}

CHAIN="intermediate root"
CHAIN_SHA1="intermediate-sha1 root"

say "Valid signed receipts:"
sign "$RECEIPTS/valid-sha256-noattr.receipt" valid leaf "$CHAIN" sha256 noattr der
sign "$RECEIPTS/valid-sha256-attrs.receipt" valid leaf "$CHAIN" sha256 attrs der
sign "$RECEIPTS/valid-sha1-noattr.receipt" valid leaf-sha1 "$CHAIN_SHA1" sha1 noattr der
sign "$RECEIPTS/valid-sha1-attrs.receipt" valid leaf-sha1 "$CHAIN_SHA1" sha1 attrs der
sign "$RECEIPTS/valid-sha256-noattr-ber.receipt" valid leaf "$CHAIN" sha256 noattr ber
sign "$RECEIPTS/valid-sha256-attrs-ber.receipt" valid leaf "$CHAIN" sha256 attrs ber
sign "$RECEIPTS/valid-sha1-noattr-ber.receipt" valid leaf-sha1 "$CHAIN_SHA1" sha1 noattr ber
sign "$RECEIPTS/valid-sha256-noattr-iap1.receipt" valid-iap1 leaf "$CHAIN" sha256 noattr der
sign "$RECEIPTS/valid-sha256-noattr-iap50.receipt" valid-iap50 leaf "$CHAIN" sha256 noattr der
sign "$RECEIPTS/valid-sha256-noattr-iap5000.receipt" valid-iap5000 leaf "$CHAIN" sha256 noattr der
# Expired now, valid at its 2018 creation date.
sign "$RECEIPTS/valid-2018-expired-chain.receipt" valid-2018 leaf-expired "intermediate-expired root" sha256 noattr der

cp "$HELPERS/README.generated.md" "$OUT/README.md"

# ---------------------------------------------------------------------------
# Hostile corpus (issue 4)
# ---------------------------------------------------------------------------
EDIT="python3 $HELPERS/cmsedit.py"
BASE="$RECEIPTS/valid-sha256-noattr.receipt"

say "Hostile: not PKCS #7:"
# Starts with 0x30 (so a loader takes it for DER) followed by 255 random bytes: not PKCS #7.
python3 -c 'import random, sys; sys.stdout.buffer.write(b"\x30" + random.Random(20240601).randbytes(255))' \
    >"$HOSTILE/not-pkcs7-random-256.bin"
made "$HOSTILE/not-pkcs7-random-256.bin"
# 256 random bytes starting 0x9e: neither DER (no 0x30) nor base64 text.
python3 -c 'import random, sys; sys.stdout.buffer.write(random.Random(20240601).randbytes(256))' \
    >"$HOSTILE/not-der-random-256.bin"
made "$HOSTILE/not-der-random-256.bin"
: >"$HOSTILE/empty.receipt"
made "$HOSTILE/empty.receipt"
$EDIT truncations "$BASE" "$HOSTILE/truncated" >/dev/null
for f in "$HOSTILE"/truncated-*.receipt; do made "$f"; done
cp "$PKI/leaf.cer" "$HOSTILE/not-pkcs7-certificate.cer"
made "$HOSTILE/not-pkcs7-certificate.cer"

say "Hostile: PKCS #7 but not signedData / no signer:"
openssl cms -encrypt -binary -outform DER -aes-256-cbc -in "$PAYLOADS/valid.der" \
    -out "$HOSTILE/not-signed-enveloped-data.receipt" "$PKI/leaf.pem"
made "$HOSTILE/not-signed-enveloped-data.receipt"
openssl cms -data_create -binary -outform DER -in "$PAYLOADS/valid.der" \
    -out "$HOSTILE/not-signed-data-only.receipt"
made "$HOSTILE/not-signed-data-only.receipt"
cat "$PKI/leaf.pem" "$PKI/intermediate.pem" >"$WORK/chain.pem"
openssl crl2pkcs7 -nocrl -certfile "$WORK/chain.pem" -outform DER \
    -out "$HOSTILE/not-signed-certs-only.receipt"
made "$HOSTILE/not-signed-certs-only.receipt"
# Two SignerInfos: ReceiptKit supports exactly one signer (Apple receipts have one), on every backend.
sign "$HOSTILE/not-signed-two-signers.receipt" valid leaf "$CHAIN" sha256 noattr der \
    -signer "$PKI/leaf-sha1.pem" -inkey "$KEYS/leaf-sha1.key"

say "Hostile: untrusted chains:"
sign "$HOSTILE/untrusted-other-root.receipt" valid other-leaf "other-intermediate other-root" sha256 noattr der
sign "$HOSTILE/untrusted-same-name-root-other-key.receipt" valid samename-leaf "samename-intermediate samename-root" sha256 noattr der
sign "$HOSTILE/untrusted-leaf-only.receipt" valid leaf "" sha256 noattr der
sign "$HOSTILE/untrusted-self-signed-leaf.receipt" valid leaf-selfsigned "" sha256 noattr der
sign "$HOSTILE/untrusted-no-certificates.receipt" valid leaf "" sha256 noattr der -nocerts
sign "$HOSTILE/untrusted-intermediate-not-ca.receipt" valid leaf-of-intermediate-notca "intermediate-notca root" sha256 noattr der

say "Hostile: content changed after signing (one bit of the bundle id, offset computed from the structure):"
$EDIT flip-content "$BASE" "$HOSTILE/tampered-content-der.receipt" receiptkit
made "$HOSTILE/tampered-content-der.receipt"
$EDIT flip-content "$RECEIPTS/valid-sha256-noattr-ber.receipt" "$HOSTILE/tampered-content-ber.receipt" receiptkit
made "$HOSTILE/tampered-content-ber.receipt"
$EDIT flip-content "$RECEIPTS/valid-sha256-attrs.receipt" "$HOSTILE/tampered-content-attrs.receipt" receiptkit
made "$HOSTILE/tampered-content-attrs.receipt"
$EDIT flip-content "$RECEIPTS/valid-sha1-noattr.receipt" "$HOSTILE/tampered-content-sha1.receipt" receiptkit
made "$HOSTILE/tampered-content-sha1.receipt"

say "Hostile: corrupted signatures:"
$EDIT flip-signature "$BASE" "$HOSTILE/bad-signature-flipped.receipt"
made "$HOSTILE/bad-signature-flipped.receipt"
$EDIT flip-signature "$RECEIPTS/valid-sha256-attrs.receipt" "$HOSTILE/bad-signature-flipped-attrs.receipt"
made "$HOSTILE/bad-signature-flipped-attrs.receipt"
# Same content, same leaf embedded, but the signature made with a key that is not the leaf's.
openssl dgst -sha256 -sign "$KEYS/wrong.key" -out "$WORK/wrong.sig" "$PAYLOADS/valid.der"
$EDIT replace-signature "$BASE" "$HOSTILE/bad-signature-wrong-key.receipt" "$WORK/wrong.sig"
made "$HOSTILE/bad-signature-wrong-key.receipt"
$EDIT flip-message-digest "$RECEIPTS/valid-sha256-attrs.receipt" "$HOSTILE/bad-signature-signed-attributes-modified.receipt"
made "$HOSTILE/bad-signature-signed-attributes-modified.receipt"
# messageDigest changed and the signed attributes re-signed with the leaf's own key: the signature
# is valid, but the messageDigest no longer equals the content's digest.
$EDIT flip-message-digest "$RECEIPTS/valid-sha256-attrs.receipt" "$WORK/md.receipt"
$EDIT signed-attributes "$WORK/md.receipt" "$WORK/md-attrs.der"
openssl dgst -sha256 -sign "$KEYS/leaf.key" -out "$WORK/md.sig" "$WORK/md-attrs.der"
$EDIT replace-signature "$WORK/md.receipt" "$HOSTILE/bad-signature-message-digest-mismatch.receipt" "$WORK/md.sig"
made "$HOSTILE/bad-signature-message-digest-mismatch.receipt"

say "Hostile: missing Apple marker OIDs (chains are otherwise valid):"
sign "$HOSTILE/missing-marker-intermediate.receipt" valid leaf-of-intermediate-nomarker "intermediate-nomarker root" sha256 noattr der
sign "$HOSTILE/missing-marker-leaf.receipt" valid leaf-nomarker "intermediate root" sha256 noattr der

say "Hostile: certificate time:"
sign "$HOSTILE/certificate-not-yet-valid.receipt" valid leaf-future "intermediate-future root" sha256 noattr der
sign "$HOSTILE/creation-date-in-future.receipt" valid-2044 leaf "$CHAIN" sha256 noattr der

say "Policy: a validly signed receipt whose own expiration date has passed:"
sign "$HOSTILE/policy-receipt-expired.receipt" policy-receipt-expired leaf "$CHAIN" sha256 noattr der

say "Hostile: malformed payloads and missing components (validly signed):"
for f in "$PAYLOADS"/malformed-*.der "$PAYLOADS"/missing-*.der "$PAYLOADS"/hash-*.der; do
    name=$(basename "$f" .der)
    sign "$HOSTILE/$name.receipt" "$name" leaf "$CHAIN" sha256 noattr der
done

# ---------------------------------------------------------------------------
# Self-check with openssl cms -verify (the backend-independent part of each expectation)
# ---------------------------------------------------------------------------
epoch() { date -u -d "$1" +%s; }
CHECK_FAILURES=0
# check ok|fail FILE [RFC3339 time] [anchor pem] [expected payload]: ok = verifies (and, when
# given, the verified content equals the payload); fail = openssl refuses it.
check() {
    local want=$1 file=$2 at=${3:-} anchor=${4:-$PKI/root.pem} payload=${5:-}
    local args=(cms -verify -inform DER -in "$file" -CAfile "$anchor" -purpose any -binary -out "$WORK/verified.bin")
    [[ -n $at ]] && args+=(-attime "$(epoch "$at")")
    local got result
    if openssl "${args[@]}" >"$WORK/verify.log" 2>&1; then got=ok; else got=fail; fi
    result=$( { grep -o 'Verify error:.*\|Verification successful' "$WORK/verify.log" \
        || grep -o 'routines:[A-Za-z_0-9]*:[^:]*' "$WORK/verify.log" || head -1 "$WORK/verify.log"; } | head -1)
    if [[ $got == ok && -n $payload ]] && ! cmp -s "$WORK/verified.bin" "$payload"; then
        got="ok-but-content-differs"
    fi
    if [[ $got == "$want" ]]; then
        say "  check $want: $(realpath --relative-to="$FIXTURES" "$file")${at:+ at $at}: $result"
    else
        say "  CHECK FAILED (want $want, got $got): $(realpath --relative-to="$FIXTURES" "$file")${at:+ at $at}: $result"
        CHECK_FAILURES=$((CHECK_FAILURES + 1))
    fi
}

say "Self-check (openssl cms -verify -purpose any, anchor pki/root.pem unless noted):"
C=2024-06-01T12:01:00Z
for f in "$RECEIPTS"/valid-sha*.receipt; do
    payload=valid
    case $f in *-iap1.receipt) payload=valid-iap1 ;; *-iap50.receipt) payload=valid-iap50 ;; *-iap5000.receipt) payload=valid-iap5000 ;; esac
    check ok "$f" $C "" "$PAYLOADS/$payload.der"
    check ok "$f" "" "" "$PAYLOADS/$payload.der"
done
check ok "$RECEIPTS/valid-2018-expired-chain.receipt" 2018-06-01T12:01:00Z "" "$PAYLOADS/valid-2018.der"
check fail "$RECEIPTS/valid-2018-expired-chain.receipt"
for f in "$HOSTILE"/not-pkcs7-* "$HOSTILE"/not-der-* "$HOSTILE"/empty.receipt "$HOSTILE"/truncated-* "$HOSTILE"/not-signed-*; do
    check fail "$f" $C
done
for f in "$HOSTILE"/untrusted-* "$HOSTILE"/tampered-* "$HOSTILE"/bad-signature-*; do
    check fail "$f" $C
done
check fail "$HOSTILE/untrusted-other-root.receipt" $C "$PKI/root.pem"
check ok "$HOSTILE/untrusted-other-root.receipt" $C "$PKI/other-root.pem"
check ok "$HOSTILE/untrusted-same-name-root-other-key.receipt" $C "$PKI/samename-root.pem"
# These two carry a signature that is valid over their signed attributes: only the messageDigest
# attribute disagrees with the content, so a backend that skips that comparison would accept them.
for f in "$HOSTILE/tampered-content-attrs.receipt" "$HOSTILE/bad-signature-message-digest-mismatch.receipt"; do
    $EDIT signed-attributes "$f" "$WORK/attrs.der"
    $EDIT signature "$f" "$WORK/attrs.sig"
    openssl x509 -in "$PKI/leaf.pem" -pubkey -noout >"$WORK/leaf.pub"
    if openssl dgst -sha256 -verify "$WORK/leaf.pub" -signature "$WORK/attrs.sig" "$WORK/attrs.der" >/dev/null; then
        say "  check ok: $(realpath --relative-to="$FIXTURES" "$f"): signature over the signed attributes is valid (messageDigest mismatch only)"
    else
        say "  CHECK FAILED: $(realpath --relative-to="$FIXTURES" "$f"): signature over the signed attributes does not verify"
        CHECK_FAILURES=$((CHECK_FAILURES + 1))
    fi
done
# Marker OIDs are policy, not PKCS #7: openssl accepts these chains.
for f in "$HOSTILE"/missing-marker-*; do check ok "$f" $C "" "$PAYLOADS/valid.der"; done
check fail "$HOSTILE/certificate-not-yet-valid.receipt" $C
check fail "$HOSTILE/certificate-not-yet-valid.receipt"
check ok "$HOSTILE/certificate-not-yet-valid.receipt" 2041-01-01T00:00:00Z
check ok "$HOSTILE/creation-date-in-future.receipt" 2044-06-01T12:01:00Z "" "$PAYLOADS/valid-2044.der"
# Payload problems are not openssl's business: each must verify with its exact payload.
for f in "$HOSTILE"/malformed-*.receipt "$HOSTILE"/missing-*.receipt "$HOSTILE"/hash-*.receipt; do
    name=$(basename "$f" .receipt)
    [[ $name == missing-marker-* ]] && continue
    check ok "$f" $C "" "$PAYLOADS/$name.der"
done

# ---------------------------------------------------------------------------
# SignerInfo encoding edges (issue 13): signed attributes that are not DER, signed with the leaf's
# key over what OpenSSL or GnuTLS verifies, and odd BMPString/UniversalString lengths.
# ---------------------------------------------------------------------------
say "SignerInfo encoding edges:"
python3 "$HELPERS/signerinfo.py" "$OUT/edges" "$RECEIPTS/valid-sha256-attrs.receipt" \
    "$RECEIPTS/valid-sha256-noattr.receipt" "$FIXTURES/real/receipts/aporat-production-g5-sha256-2025-1iap.receipt" \
    "$KEYS/leaf.key"

# ---------------------------------------------------------------------------
# Hostile signedData classes (issue 27): Fixtures/signed-data-classes/, committed outside generated/
# (this section rewrites its receipts and certificates; its two keys are kept). Mutants of the real
# and generated receipts that change nothing signed, and receipts with one certificate defect each.
# ---------------------------------------------------------------------------
say "Hostile signedData classes:"
python3 "$HELPERS/signed_data_classes.py" "$FIXTURES"

# ---------------------------------------------------------------------------
# JWS (issue 31): Fixtures/jws/, an Apple-shaped EC PKI (P-384 root and WWDR intermediate, P-256
# leaf) and ES256 tokens of every kind plus the failure cases (README there). Keys in
# Fixtures/jws/pki/keys are kept, so the output is the same byte for byte on every run; the
# helper checks the X.509/ECDSA cases with openssl verify / openssl dgst.
# ---------------------------------------------------------------------------
say "JWS tokens:"
python3 "$HELPERS/jws.py" "$FIXTURES" || CHECK_FAILURES=$((CHECK_FAILURES + 1))

# ---------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------
say "Manifest:"
python3 "$HELPERS/manifest.py" "$FIXTURES"

if ((CHECK_FAILURES > 0)); then
    say "$CHECK_FAILURES self-check(s) FAILED" >&2
    exit 1
fi
say "Done: $(find "$OUT" -type f | wc -l) files in Fixtures/generated, all self-checks passed."
