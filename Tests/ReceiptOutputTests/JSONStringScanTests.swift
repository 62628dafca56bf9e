import Testing
@testable import ReceiptOutput

/// The word-at-a-time string test the writer and the request reader share, against its byte-by-byte
/// definition.
@Suite struct JSONStringScanTests {
    private static func isSpecial(_ byte: UInt8, stopsBeyondASCII: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (stopsBeyondASCII && byte >= 0x80)
    }

    /// Every byte value at every position of a word of plain bytes, with plain, special and
    /// beyond-ASCII neighbours (borrows between bytes must not make a plain byte look special).
    @Test func aWordIsSpecialExactlyWhenOneOfItsBytesIs() {
        for stopsBeyondASCII in [false, true] {
            for neighbour: UInt8 in [UInt8(ascii: "A"), 0x00, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0xFF] {
                for position in 0..<8 {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: neighbour, count: 8)
                        bytes[position] = UInt8(value)
                        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                        let expected = bytes.contains { Self.isSpecial($0, stopsBeyondASCII: stopsBeyondASCII) }
                        #expect((JSONStringScan.specialBits(word, stopsBeyondASCII: stopsBeyondASCII) != 0) == expected)
                    }
                }
            }
        }
    }

    /// The scan stops at the word holding the first special byte, or where fewer than eight bytes
    /// are left, for every length, start and place of that byte.
    @Test func theScanStopsAtTheFirstSpecialWord() {
        for stopsBeyondASCII in [false, true] {
            for count in 0...48 {
                for start in 0...min(count, 9) {
                    for special in [nil] + Array(start..<count) {
                        for byte: UInt8 in [UInt8(ascii: "\""), 0x0A, 0xC3] {
                            var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: count)
                            if let special { bytes[special] = byte }
                            let stop = bytes.withUnsafeBytes { buffer in
                                buffer.baseAddress.map {
                                    JSONStringScan.plainWords($0, from: start, count: count, stopsBeyondASCII: stopsBeyondASCII)
                                } ?? start
                            }
                            let firstSpecial = (start..<count).first { Self.isSpecial(bytes[$0], stopsBeyondASCII: stopsBeyondASCII) }
                            // Whole words from `start`: the scan stops at the word holding the first
                            // special byte, else at the last whole word's end.
                            let wholeWordsEnd = start + (count - start) / 8 * 8
                            let expected = firstSpecial.map { min(start + ($0 - start) / 8 * 8, wholeWordsEnd) } ?? wholeWordsEnd
                            #expect(stop == expected, "count \(count) start \(start) special \(String(describing: special)) byte \(byte)")
                        }
                    }
                }
            }
        }
    }
}
