/// Two's-complement INTEGER content octets: the one integer decoder of the reading layer.
///
/// ``decode(_:)`` (attribute types and values), ``DERCursor/int64(contentOf:)`` (the strict lane's
/// values), ``value(ofTwo:_:)`` (the strict lane's in-app types) and ``isMinimal(_:)`` (the DER rule ``CertificateStructure`` and the signed-attribute
/// checks apply) all read content octets here.
enum ASN1Integer {
    /// The value of one to eight two's-complement content octets (the caller has checked the
    /// count).
    @inline(__always)
    static func value<Octets: Collection<UInt8>>(ofAtMostEight octets: Octets, first: UInt8) -> Int64 {
        var value: UInt64 = first & 0x80 != 0 ? UInt64.max : 0
        for byte in octets { value = (value << 8) | UInt64(byte) }
        return Int64(bitPattern: value)
    }

    /// The value of exactly two two's-complement content octets (`high`, `low`): what
    /// ``decode(_:)`` gives for them, without a loop (the strict lane's in-app attribute types).
    @inline(__always)
    static func value(ofTwo high: UInt8, _ low: UInt8) -> Int {
        Int(Int16(bitPattern: UInt16(high) << 8 | UInt16(low)))
    }

    /// Whether content octets are non-empty and minimal (no redundant leading sign octet), as DER
    /// requires of an INTEGER.
    static func isMinimal<Octets: Collection<UInt8>>(_ content: Octets) -> Bool {
        guard let first = content.first else { return false }
        let secondIndex = content.index(after: content.startIndex)
        guard secondIndex != content.endIndex else { return true }
        let second = content[secondIndex]
        return !(first == 0x00 && second & 0x80 == 0) && !(first == 0xFF && second & 0x80 != 0)
    }

    /// Decodes content octets to `Int64`, or nil when empty or too large.
    @inline(__always)
    static func decode(_ content: ArraySlice<UInt8>) -> Int64? {
        content.withUnsafeBufferPointer(decode)
    }

    /// ``decode(_:)`` of the octets in a buffer (read where they lie: a slice passed to a function
    /// that is not inlined is retained and released around the call).
    static func decode(_ content: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = content.first else { return nil }
        var start = 0
        // Drop redundant sign octets so 9-byte encodings of values that fit are accepted.
        while content.count &- start > 1 {
            let lead = content[start]
            let next = content[start &+ 1]
            guard (lead == 0x00 && next & 0x80 == 0) || (lead == 0xFF && next & 0x80 != 0) else { break }
            start &+= 1
        }
        guard content.count &- start <= 8 else { return nil }
        return value(ofAtMostEight: UnsafeBufferPointer(rebasing: content[start...]), first: first)
    }

    /// Minimal two's-complement content octets for a value.
    static func encode(_ value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var remaining = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
            remaining >>= 8
        } while !(remaining == 0 && bytes[0] & 0x80 == 0) && !(remaining == -1 && bytes[0] & 0x80 != 0)
        return bytes
    }
}
