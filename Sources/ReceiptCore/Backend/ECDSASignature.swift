/// Conversions between the two encodings of an ECDSA signature: the DER
/// `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 §2.2.3) certificates carry,
/// and the raw `r ‖ s` form (each padded to the curve's field width) JWS carries and
/// ``SignaturePrimitives/verifySignature(_:of:scheme:key:)`` takes.
public enum ECDSASignature {
    /// The field width in bytes of the curves ReceiptKit verifies: 32 (P-256), 48 (P-384).
    public static let p256Width = 32
    /// The field width of P-384.
    public static let p384Width = 48

    /// The raw `r ‖ s` form of a strict-DER `ECDSA-Sig-Value`, each integer left-padded to
    /// `width` bytes; `nil` when `der` is not exactly that SEQUENCE of two minimal, positive
    /// INTEGERs of at most `width` significant bytes.
    public static func raw(fromDER der: ArraySlice<UInt8>, width: Int) -> [UInt8]? {
        guard width > 0, width <= 66 else { return nil }
        var position = der.startIndex
        guard let sequence = readElement(der, &position), sequence.tag == 0x30, position == der.endIndex else { return nil }
        var inner = sequence.content.startIndex
        guard let r = readElement(sequence.content, &inner), r.tag == 0x02,
              let s = readElement(sequence.content, &inner), s.tag == 0x02, inner == sequence.content.endIndex,
              let rBytes = magnitude(r.content, width: width), let sBytes = magnitude(s.content, width: width)
        else { return nil }
        return rBytes + sBytes
    }

    /// The strict-DER `ECDSA-Sig-Value` of a raw `r ‖ s` signature (even length, at most 132
    /// bytes); `nil` for another length.
    public static func der(fromRaw raw: ArraySlice<UInt8>) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, raw.count <= 132 else { return nil }
        let half = raw.count / 2
        let r = integer(raw.prefix(half))
        let s = integer(raw.suffix(half))
        let body = r + s
        return [0x30] + length(body.count) + body
    }

    /// A DER INTEGER TLV of the unsigned big-endian `value`.
    private static func integer(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var content = Array(value.drop { $0 == 0 })
        if content.isEmpty { content = [0] } else if content[0] >= 0x80 { content.insert(0, at: 0) }
        return [0x02] + length(content.count) + content
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }

    /// One DER element at `position` (definite, minimal length of at most two bytes), advancing it.
    private static func readElement(
        _ bytes: ArraySlice<UInt8>, _ position: inout ArraySlice<UInt8>.Index
    ) -> (tag: UInt8, content: ArraySlice<UInt8>)? {
        guard bytes.endIndex - position >= 2 else { return nil }
        let tag = bytes[position]
        var length = Int(bytes[position + 1])
        var start = position + 2
        if length == 0x81 {
            guard start < bytes.endIndex, bytes[start] >= 0x80 else { return nil }
            length = Int(bytes[start])
            start += 1
        } else if length > 0x80 {
            return nil
        } else if length == 0x80 {
            return nil
        }
        guard bytes.endIndex - start >= length else { return nil }
        position = start + length
        return (tag, bytes[start..<(start + length)])
    }

    /// The magnitude of a minimal positive INTEGER's content, left-padded to `width`.
    private static func magnitude(_ content: ArraySlice<UInt8>, width: Int) -> [UInt8]? {
        guard let first = content.first, first < 0x80 else { return nil }  // empty or negative
        var digits = content
        if first == 0 {
            guard content.count >= 2, content[content.startIndex + 1] >= 0x80 else { return nil }  // not minimal, or zero
            digits = content.dropFirst()
        }
        guard digits.count <= width else { return nil }
        return [UInt8](repeating: 0, count: width - digits.count) + digits
    }
}
