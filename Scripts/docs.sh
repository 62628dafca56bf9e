#!/usr/bin/env bash
# Builds the DocC documentation of ReceiptKit (the catalog Sources/ReceiptKit/ReceiptKit.docc and
# every public symbol a user of `import ReceiptKit` sees, including those ReceiptKit re-exports
# from ReceiptCore, ReceiptEntitlements, ReceiptOutput and the two backends) and fails on any warning.
# The archive is left in .build-docs/ReceiptKit.doccarchive.
#   bash Scripts/docs.sh             build and check
#   bash Scripts/docs.sh --preview   serve it at http://localhost:8080/documentation/receiptkit
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
graphs="$scratch/reexported-symbol-graphs"
log="$scratch/docs.log"
traits=OpenSSL,GnuTLS
mkdir -p "$scratch"

# The docc plugin extracts ReceiptKit's own symbols only; the types users call (ReceiptValidator,
# ReceiptValidationError, …) live in ReceiptCore and are re-exported. swift-symbolgraph-extract
# includes re-exported modules' symbols when asked, and the plugin merges that graph in.
swift build --scratch-path "$scratch" --traits "$traits" --target ReceiptKit
modules="$(swift build --scratch-path "$scratch" --traits "$traits" --show-bin-path)/Modules"
triple="$(swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)"
rm -rf "$graphs" && mkdir -p "$graphs"
swift-symbolgraph-extract -module-name ReceiptKit -target "$triple" \
    -I "$modules" -I Sources/CReceiptOpenSSL -I Sources/CReceiptGnuTLS \
    -minimum-access-level public -skip-synthesized-members \
    -experimental-allowed-reexported-modules=ReceiptCore,ReceiptEntitlements,ReceiptOutput,ReceiptOpenSSL,ReceiptGnuTLS \
    -output-dir "$graphs"

if [[ "${1:-}" == "--preview" ]]; then
    exec swift package --scratch-path "$scratch" --traits "$traits" --disable-sandbox \
        preview-documentation --target ReceiptKit --additional-symbol-graph-dir "$graphs"
fi

swift package --scratch-path "$scratch" --traits "$traits" --allow-writing-to-directory "$scratch" \
    generate-documentation --target ReceiptKit --additional-symbol-graph-dir "$graphs" \
    --output-path "$scratch/ReceiptKit.doccarchive" 2>&1 | tee "$log"

warnings="$(grep -c -E '^(warning|error):' "$log" || true)"
echo "docs: $warnings warning(s); archive at $scratch/ReceiptKit.doccarchive"
[[ "$warnings" == 0 ]]
