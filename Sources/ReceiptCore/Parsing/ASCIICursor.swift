/// Stores ASCII text at a pointer, left to right: the fixed-width numbers and separators of the
/// RFC 3339 and Apple date texts, without building a string for each part. The caller provides
/// the room (each user writes at most a known, fixed number of bytes).
struct ASCIICursor {
    /// Where the text starts.
    let base: UnsafeMutablePointer<UInt8>
    /// How many bytes have been stored.
    private(set) var count = 0

    /// A cursor at `base`.
    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    /// Stores `value` (not negative) in decimal, zero-padded to `width` digits (its lowest
    /// `width` digits when it has more).
    @inline(__always)
    mutating func digits(_ value: Int, width: Int) {
        var rest = value
        var index = count + width
        while index > count {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
        }
        count += width
    }

    /// Stores one byte.
    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    /// Stores the bytes of `text`.
    @inline(__always)
    mutating func text(_ text: StaticString) {
        text.withUTF8Buffer { units in
            for unit in units { byte(unit) }
        }
    }
}

extension ASCIICursor {
    /// The ASCII text `write` stores at a pointer with room for `capacity` bytes, as one string;
    /// nil when `write` stores nothing (returns nil or 0).
    static func string(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int?) -> String? {
        let text = String(unsafeUninitializedCapacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(base) ?? 0
        }
        return text.isEmpty ? nil : text
    }
}
