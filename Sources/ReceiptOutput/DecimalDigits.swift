/// The decimal digits of integers (``JSONByteWriter``'s and the texts of Apple's response), from
/// two constants folded by the compiler: powers of ten and the two-digit pairs (a `static let`
/// array is read through a `swift_once` check at every integer written).
enum DecimalDigits {
    /// The longest text ``store(_:to:)`` stores: 19 digits of `Int64.min`'s magnitude and a sign.
    static var maximumLength: Int { 20 }

    /// Stores `value` in decimal at `out`, which has room for ``maximumLength`` bytes, and returns
    /// how many bytes it stored.
    @inline(__always)
    static func store(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            length = 1
        }
        var rest = value.magnitude
        // The number of digits: estimated from the bit length (log10(2) ≈ 1233 / 4096), then
        // corrected by one comparison with the power of ten at the estimate.
        let estimate = ((64 &- rest.leadingZeroBitCount) &* 1233) >> 12
        let digits = max(1, estimate &+ (rest >= powerOfTen(estimate) ? 1 : 0))
        let pairs = Self.pairs.utf8Start
        // Two digits a division, from the last.
        var index = length &+ digits
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index &-= 2
            out[index] = pairs[pair]
            out[index &+ 1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            out[index &- 2] = pairs[pair]
            out[index &- 1] = pairs[pair &+ 1]
        } else {
            out[index &- 1] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        }
        return length &+ digits
    }

    /// `value` in decimal, as `String(value)` writes it, built in place (up to 15 bytes, a small
    /// string with no allocation). `String(value)` goes through `description`'s generic witness:
    /// two of them a transaction of Apple's response (quantity, web order line item id).
    static func text(_ value: Int64) -> String {
        String(unsafeUninitializedCapacity: maximumLength) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return store(value, to: base)
        }
    }

    /// 10 to the power `exponent` (0–19; a switch of constants, which the compiler makes a table).
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// "00" to "99", two bytes a number.
    static var pairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }
}
