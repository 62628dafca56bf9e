#!/usr/bin/env bash
# Recreates Fixtures/generated/ (test PKI, synthetic signed receipts, hostile corpus) and
# Fixtures/manifest.json. The outputs are committed: tests never need to run this script.
#
# Requirements: openssl 3.x CLI and python3 (standard library only).
# Layout (file names) is deterministic; keys, signatures and signing times are not.
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

# HOSTILE_CORPUS_MARKER
