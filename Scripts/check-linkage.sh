#!/usr/bin/env bash
# check-linkage.sh BINARY gnutls|openssl|both — asserts with ldd which crypto libraries BINARY links.
# Never libgnutls-openssl (it exports OpenSSL's symbol names).
set -euo pipefail
bin="$1"; want="$2"
[[ -x "$bin" ]] || { echo "check-linkage: no executable at $bin" >&2; exit 1; }
if [[ "$(uname -s)" == "Darwin" ]]; then libs="$(otool -L "$bin")"; else libs="$(ldd "$bin")"; fi
has() { grep -Eq "$1" <<<"$libs"; }
fail() { echo "check-linkage: $bin: $*" >&2; echo "$libs" >&2; exit 1; }
has 'libgnutls-openssl' && fail "links libgnutls-openssl"
case "$want" in
    gnutls)  has 'libgnutls\.' || fail "does not link libgnutls"
             has 'lib(ssl|crypto)\.' && fail "links OpenSSL" ;;
    openssl) has 'lib(ssl|crypto)\.' || fail "does not link OpenSSL"
             has 'libgnutls\.' && fail "links GnuTLS" ;;
    both)    has 'libgnutls\.' || fail "does not link libgnutls"
             has 'lib(ssl|crypto)\.' || fail "does not link OpenSSL" ;;
    *) echo "usage: check-linkage.sh BINARY gnutls|openssl|both" >&2; exit 2 ;;
esac
echo "check-linkage: $(basename "$bin") links as expected ($want)"
