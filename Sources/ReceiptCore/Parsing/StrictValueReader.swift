/// The strict lane's direct readers of the common value shapes, over ``DERCursor``. Each accepts
/// only encodings for which it gives exactly what ``ParsedAttribute``'s accessor gives; anything
/// else is `nil`, and the attribute takes the general path.
enum StrictValueReader {
    /// The content range of a value that is exactly one short-form UTF8String, IA5String,
    /// PrintableString or VisibleString (as `ParsedAttribute.asciiStringContent`, which also
    /// requires ASCII content: the callers check that, or accept only ASCII). `value` lies in
    /// `bytes` (a strict-lane slot).
    @inline(__always)
    static func shortString(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Range<Int>? {
        guard let element = DERCursor(bytes).shortElement(at: value.lowerBound, within: value.upperBound),
              element.end == value.upperBound, element.identifier.isASCIIString
        else { return nil }
        return Range(uncheckedBounds: (element.contentStart, element.end))
    }

    /// The value of exactly one short-form INTEGER of one to eight content octets (two's
    /// complement, as `ASN1Value.decode` and `ASN1Integer.decode` read it). `value` lies in `bytes`.
    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Int64? {
        guard let element = DERCursor(bytes).shortElement(at: value.lowerBound, within: value.upperBound),
              element.end == value.upperBound, element.identifier == .integer
        else { return nil }
        return DERCursor(bytes).int64(contentOf: element)
    }
}
