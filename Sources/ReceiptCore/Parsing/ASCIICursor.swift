/// Stores ASCII text at a pointer, left to right: the fixed-width numbers and separators of the
/// RFC 3339 and Apple date texts, without building a string for each part. The caller provides
/// the room (each user writes at most a known, fixed number of bytes).
package struct ASCIICursor {
    /// Where the text starts.
    package let base: UnsafeMutablePointer<UInt8>
    /// How many bytes have been stored.
    package private(set) var count = 0

    /// A cursor at `base`.
    package init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    /// Stores `value` (not negative) in decimal, zero-padded to `width` digits (its lowest
    /// `width` digits when it has more). Two digits at a time, from a table of the pairs 00–99.
    @inline(__always)
    package mutating func digits(_ value: Int, width: Int) {
        let pairs = ASCIICursor.pairs
        var rest = UInt(bitPattern: value)
        var index = count + width
        while index - count >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index -= 2
            base[index] = pairs.utf8Start[pair]
            base[index + 1] = pairs.utf8Start[pair + 1]
        }
        if index > count {
            base[index - 1] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
        }
        count += width
    }

    /// "00" to "99", two bytes a number: ReceiptCore's one table of decimal pairs (ReceiptOutput
    /// keeps its own, `DecimalDigits.pairs`, so that its writers read it without a call across
    /// the module boundary).
    package static var pairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Stores one byte.
    @inline(__always)
    package mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    /// Stores the bytes of `text`.
    @inline(__always)
    package mutating func text(_ text: StaticString) {
        text.withUTF8Buffer { units in
            for unit in units { byte(unit) }
        }
    }
}

extension ASCIICursor {
    /// The ASCII text `write` stores at a pointer with room for `capacity` bytes, as one string;
    /// nil when `write` stores nothing (returns nil or 0).
    package static func string(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int?) -> String? {
        let text = String(unsafeUninitializedCapacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(base) ?? 0
        }
        return text.isEmpty ? nil : text
    }
}
