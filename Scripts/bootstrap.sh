#!/usr/bin/env bash
# Installs the system libraries ReceiptKit's backends link against, when they are missing.
# Debian/Ubuntu: libssl-dev, libgnutls28-dev, pkg-config (apt-get). macOS: prints the Homebrew line.
# A no-op when everything is present.
set -euo pipefail

if [[ "$(uname -s)" == "Darwin" ]]; then
    if ! pkg-config --exists openssl gnutls 2>/dev/null; then
        echo "bootstrap: install the libraries with: brew install openssl@3 gnutls pkg-config"
        echo "bootstrap: then export PKG_CONFIG_PATH=\"\$(brew --prefix openssl@3)/lib/pkgconfig:\$PKG_CONFIG_PATH\""
    fi
    exit 0
fi

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if command -v pkg-config >/dev/null 2>&1; then
    pkg-config --exists libcrypto || missing+=(libssl-dev)
    pkg-config --exists gnutls || missing+=(libgnutls28-dev)
else
    missing+=(libssl-dev libgnutls28-dev)
fi
# The test fixtures are re-checked with the openssl CLI.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "bootstrap: libssl-dev, libgnutls28-dev and pkg-config are present"
    exit 0
fi

echo "bootstrap: installing ${missing[*]}"
sudo=""
if [[ "$(id -u)" != "0" ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "bootstrap: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
