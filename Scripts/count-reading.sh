#!/usr/bin/env bash
# Issue 29's "must show" counts for the reading layer, over Sources/ (every target):
#
# 1. Hand-written TLV readers: the types that decode an ASN.1 length octet themselves. A line
#    decodes one when it tests a length octet for the short/long form or a long-form count:
#      (length|lengthOctet)… < 0x80, if first < 0x80   (short form? — `first < 0x80` alone is
#                                               also an INTEGER's sign test, which is not counted)
#      (length|first)… == 0x81 / 0x82           (long form of one / two octets?)
#      (lengthOctet|first) & 0x7F               (long-form octet count)
#    Each match is attributed to the nearest top-level `struct`/`enum`/`class`/`extension` above it;
#    the readers are the distinct (file, type) pairs. Encoders (`length >= 0x80 ? …`) do not match.
#    Target: two, both in Sources/ReceiptCore/Reading/ (one BER, one strict DER).
#
# 2. Raw tag comparisons: an identifier octet compared with (or masked by) a hex literal, or a tag
#    tested by number instead of by name, outside Sources/ReceiptCore/Reading/:
#      tag/identifier/octet == 0x…, tag & 0x…     (`element.tag == 0x30`, `tag & 0x1F`)
#      X[i] == 0x30 … where the literal is an identifier octet of a universal type the package reads
#                                                  (`bytes[0] == 0x30`, `value[0] == 0x03`)
#      .first != 0x30                              (a DER SEQUENCE sniffed by its first octet)
#      isUniversal(n), isContext(n), tagNumber/tagClass compared with a number
#      `case 0x…` or `case (0x…, …)` inside a `switch` whose subject names a tag
#      an eight-octet packed header compared with a literal (`head & … == 0x0102_…_0030`)
#    Text scanners (JSON, Base64, hex, RFC 3339) compare characters, not identifiers, and match
#    none of these because their subjects are not named tag/identifier and their literals are ASCII.
#
# Usage: Scripts/count-reading.sh [ROOT]   (default: the checkout containing this script)
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
reading="Sources/ReceiptCore/Reading/"

mapfile -t files < <(find Sources -name '*.swift' | LC_ALL=C sort)

echo "== Hand-written TLV readers (types that decode a length octet themselves)"
readers=$(for file in "${files[@]}"; do
    awk -v file="$file" '
        /^((package|public|private|fileprivate|internal|final) )*(struct|enum|class|extension) / {
            match($0, /(struct|enum|class|extension) [A-Za-z0-9_.]+/)
            split(substr($0, RSTART, RLENGTH), parts, " "); type = parts[2]
        }
        /(length|Length|lengthOctet)[A-Za-z]* *< *0x80/ || /if first *< *0x80/ || /(length|first) *== *0x8[12]([^0-9A-Fa-f_]|$)/ ||
        /(lengthOctet|first) *& *0x7F/ {
            if ($0 !~ /^[[:space:]]*\/\//) print file ": " type
        }' "$file"
done | LC_ALL=C sort -u)
inside=$(grep -c "^$reading" <<<"$readers" || true)
outside=$(grep -vc "^$reading" <<<"$readers" || true)
sed 's/^/  /' <<<"$readers"
echo "  total: $((inside + outside)) ($inside in Reading/, $outside outside)"

echo "== Files with raw tag comparisons outside Reading/ (lines per file)"
tag_values='(0[1-6]|0[Cc]|1[2-8]|1[AaCcEe]|3[01]|[89Aa][0-9A-Fa-f])'
raw=$(for file in "${files[@]}"; do
    [[ $file == "$reading"* ]] && continue
    awk -v tags="$tag_values" '
        /^[[:space:]]*\/\// { next }
        /switch / { subject = $0 }
        {
            hit = 0
            if ($0 ~ /(tag|identifier|octet)[A-Za-z]* *[!=]= *0x[0-9A-Fa-f]+/) hit = 1
            if ($0 ~ /[Tt]ag *& *0x[0-9A-Fa-f]+/) hit = 1
            if ($0 ~ ("\\] *[!=]= *0x" tags "([^0-9A-Fa-f_]|$)")) hit = 1
            if ($0 ~ ("\\.first *[!=]= *0x" tags "([^0-9A-Fa-f_]|$)")) hit = 1
            if ($0 ~ /isUniversal\(|isContext\(/) hit = 1
            if ($0 ~ /tag(Number|Class) *([!=<>]=?|>=|<=) *(0x)?[0-9]/) hit = 1
            if ($0 ~ /== 0x[0-9A-Fa-f_]*_00(30|31)([^0-9A-Fa-f_]|$)/) hit = 1
            if ($0 ~ /^[[:space:]]*case \(?0x/ && $0 !~ /\.\.\./ && subject ~ /[Tt]ag|identifier/) hit = 1
            if (hit) count++
        }
        END { if (count) printf "%5d  %s\n", count, FILENAME }' "$file"
done)
if [[ -n $raw ]]; then
    LC_ALL=C sort -rn <<<"$raw"
    files_count=$(wc -l <<<"$raw")
    lines_count=$(awk '{ sum += $1 } END { print sum }' <<<"$raw")
else
    files_count=0
    lines_count=0
fi
echo "  total: $files_count file(s), $lines_count line(s)"
