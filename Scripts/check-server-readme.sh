#!/usr/bin/env bash
# Runs the README's verifyReceipt example ("A drop-in for verifyReceipt") as written, with one
# substitution: `swift run -c release receipt-server` becomes the receipt-server binary given as the
# argument (test.sh builds it in debug; a release build would add minutes). The answer must be
# Apple's status 0 for the fixture the example names.
#   Scripts/check-server-readme.sh PATH/TO/receipt-server
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
server="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
block="$(awk '/^## A drop-in for verifyReceipt/ { section = 1 } section && /^```sh/ { inside = 1; next }
    inside && /^```/ { exit } inside { print }' "$repo/README.md")"
start_line="$(printf '%s\n' "$block" | grep 'receipt-server')"
request_line="$(printf '%s\n' "$block" | grep '^curl')"
[[ -n "$start_line" && -n "$request_line" ]] || { echo "check-server-readme: the README's example was not found" >&2; exit 1; }
cd "$repo"
eval "${start_line//swift run -c release receipt-server/$server}"
trap 'kill %1 2>/dev/null || true; pkill -f "$server --port 8080" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -s -o /dev/null http://127.0.0.1:8080/health && break
    sleep 0.1
done
answer="$(eval "$request_line")"
printf '%s\n' "$answer" | grep -q '"status":0' || { echo "check-server-readme: the README's example answered: $answer" >&2; exit 1; }
echo "check-server-readme: the README's verifyReceipt example answers status 0 for the fixture it names"
