#!/usr/bin/env bash
# Compiles and runs every Swift block of the README and the DocC articles as written, against a fresh
# clone of this repository's HEAD standing in for the public one (Scripts/check-doc-code.py): the
# dependency lines resolve, the programs build and exit 0 on the fixtures they name, and the getting-
# started package, which selects `traits: ["GnuTLS"]`, builds, runs and links no OpenSSL.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${RECEIPTKIT_DEPENDENT_DIR:-$(mktemp -d)}"
python3 "$repo/Scripts/check-doc-code.py" "$repo" "$work" | tee "$work/check.log" | grep -v '^MANIFEST_BINARY'
bin="$(awk '/^MANIFEST_BINARY/ { print $3 }' "$work/check.log" | head -n 1)"
[[ -x "$bin" ]] || { echo "check-dependent: the getting-started package's binary is missing" >&2; exit 1; }
bash "$repo/Scripts/check-linkage.sh" "$bin" gnutls
echo "check-dependent: the getting-started package (traits [\"GnuTLS\"]) links no OpenSSL"
[[ -n "${RECEIPTKIT_DEPENDENT_DIR:-}" ]] || rm -rf "$work"
