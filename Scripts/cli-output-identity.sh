#!/usr/bin/env bash
# Shows that two builds of the `receipt` tool print the same bytes: every JSON and text output
# (verify text/--json/--ndjson/--format apple, dump text/--json, entitlements --json and text) on
# the real, generated, edge and hostile fixture folders, with each run's exit status and stderr.
#
#   Scripts/cli-output-identity.sh BEFORE_RECEIPT_BINARY AFTER_RECEIPT_BINARY
#
# The fields that depend on the moment of the run — Apple's `request_date` (`_ms`, `_pst`) and
# the text report's "Checked at:" for `--at now` — are replaced by NOW in both; entitlements run
# at fixed moments (`--at creation` and a date).
# Prints a summary line; exits 1 when any output differs (the diff's first lines shown).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 2 ]] || { echo "usage: $0 BEFORE_RECEIPT_BINARY AFTER_RECEIPT_BINARY" >&2; exit 2; }
before="$1"; after="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

folders=(Fixtures/real/receipts Fixtures/generated/receipts Fixtures/generated/edges Fixtures/generated/hostile)

# Runs every command of one binary into $work/$2/, one file per command.
capture() {
    local cli="$1" out="$work/$2" n=0
    mkdir -p "$out"
    run() {
        n=$((n + 1))
        local status=0
        "$cli" "$@" > "$out/$n.out" 2> "$out/$n.err" || status=$?
        echo "$status $*" > "$out/$n.cmd"
        sed -E -i 's/"request_date(_ms|_pst)?"( ?: ?)"[^"]*"/"request_date\1"\2"NOW"/g; s/(Checked at: +)[0-9T:.Z-]+/\1NOW/' "$out/$n.out"
    }
    for folder in "${folders[@]}"; do
        run verify "$folder"
        run verify --json "$folder"
        run verify --ndjson "$folder"
        run verify --format apple "$folder"
        run verify --format apple --ndjson "$folder"
        run verify --xcode --json "$folder"
        run verify --at 2024-02-29T12:00:00Z "$folder"
        for file in "$folder"/*; do
            [[ -f "$file" ]] || continue
            run verify --json "$file"
            run verify --format apple "$file"
            run dump --json "$file"
            run dump "$file"
            run entitlements --json --at creation "$file"
            run entitlements --json --at 2030-01-01T00:00:00Z "$file"
            run entitlements --at creation "$file"
        done
    done
}

capture "$before" before
capture "$after" after
count=$(find "$work/before" -name '*.out' | wc -l)
if diff -r "$work/before" "$work/after" > "$work/diff.txt"; then
    bytes=$(cat "$work"/before/*.out | wc -c)
    echo "cli-output-identity: IDENTICAL: $count runs over ${#folders[@]} folders ($bytes bytes of output), stdout, stderr and exit status"
else
    head -60 "$work/diff.txt"
    echo "cli-output-identity: DIFFERENT (first lines of the diff above)" >&2
    exit 1
fi
