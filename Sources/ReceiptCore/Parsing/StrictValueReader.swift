/// The strict lane's direct readers of the common value shapes. Each accepts only encodings for
/// which it gives exactly what ``ParsedAttribute``'s accessor gives; anything else is `nil`, and
/// the attribute takes the general path.
enum StrictValueReader {
    /// The content range of a value that is exactly one short-form UTF8String, IA5String,
    /// PrintableString or VisibleString (as `ParsedAttribute.asciiStringContent`, which also
    /// requires ASCII content: the callers check that, or accept only ASCII).
    @inline(__always)
    static func shortString(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Range<Int>? {
        guard value.count >= 2 else { return nil }
        let tag = bytes[value.lowerBound]
        guard tag == 0x0C || tag == 0x16 || tag == 0x13 || tag == 0x1A else { return nil }
        let length = Int(bytes[value.lowerBound &+ 1])
        guard length < 0x80, length == value.count &- 2 else { return nil }
        return Range(uncheckedBounds: (value.lowerBound &+ 2, value.upperBound))
    }

    /// The value of exactly one short-form INTEGER of one to eight content octets (two's
    /// complement, as `ASN1Value.decode` and `ASN1Integer.decode` read it).
    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Int64? {
        guard value.count >= 3, bytes[value.lowerBound] == 0x02 else { return nil }
        let length = Int(bytes[value.lowerBound &+ 1])
        guard length >= 1, length <= 8, length == value.count &- 2 else { return nil }
        let start = value.lowerBound &+ 2
        var number: UInt64 = bytes[start] & 0x80 != 0 ? UInt64.max : 0
        for index in start..<value.upperBound { number = (number << 8) | UInt64(bytes[index]) }
        return Int64(bitPattern: number)
    }
}
