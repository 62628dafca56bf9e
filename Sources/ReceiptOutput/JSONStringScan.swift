/// The word-at-a-time test both JSON string paths share: the writer's (which bytes need an escape)
/// and the `verifyReceipt` request reader's (which bytes end the fast path: an escape, a control
/// character, the closing quote, or a byte beyond ASCII).
///
/// Eight bytes are tested at once with bit tricks on the whole word: a byte `b` of `word ^ c` is
/// zero when `b == c`; `b - 0x20` borrows into its top bit when `b < 0x20`; a top bit set is a
/// byte beyond ASCII (UTF-8's lead and continuation bytes).
enum JSONStringScan {
    /// Nonzero when a byte of `word` is a control character, `"` or `\`, or, with
    /// `stopsBeyondASCII`, 0x80 or above. Bytes beyond ASCII need no escape, so without
    /// `stopsBeyondASCII` they never match.
    @inline(__always)
    static func specialBits(_ word: UInt64, stopsBeyondASCII: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
        let special = control | hasZeroByte(word ^ 0x2222_2222_2222_2222) | hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
        return stopsBeyondASCII ? special | (word & highs) : special
    }

    /// Where a scan of `base[index..<count]` in eight-byte words stops: at the first word holding a
    /// special byte (``specialBits(_:stopsBeyondASCII:)``), or where fewer than eight bytes are
    /// left. Every byte from `index` up to the returned offset is plain.
    ///
    /// Thirty-two bytes (four words, one branch) at a time first, then eight: a word at a time
    /// alone was 25,000 instructions of a 2-purchase `verifyReceipt` answer's writing and 15,000 of
    /// its request's reading (callgrind), most of them the receipt's base64.
    @inline(__always)
    static func plainWords(_ base: UnsafeRawPointer, from index: Int, count: Int, stopsBeyondASCII: Bool) -> Int {
        var index = index
        while index &+ 32 <= count {
            let words = (0..<4).reduce(0 as UInt64) { found, word in
                found | specialBits(base.loadUnaligned(fromByteOffset: index &+ word &* 8, as: UInt64.self), stopsBeyondASCII: stopsBeyondASCII)
            }
            guard words == 0 else { break }
            index &+= 32
        }
        while index &+ 8 <= count,
              specialBits(base.loadUnaligned(fromByteOffset: index, as: UInt64.self), stopsBeyondASCII: stopsBeyondASCII) == 0 {
            index &+= 8
        }
        return index
    }
}
