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
        let base = der.startIndex
        return der.withUnsafeBufferPointer { pointer -> [UInt8]? in
            let cursor = DERCursor(pointer)
            guard let sequence = cursor.element(at: 0, within: pointer.count), sequence.identifier == .sequence,
                  sequence.end == pointer.count,
                  let r = cursor.element(at: sequence.contentStart, within: sequence.end), r.identifier == .integer,
                  let s = cursor.element(at: r.end, within: sequence.end), s.identifier == .integer, s.end == sequence.end,
                  let rBytes = magnitude(der[(base + r.contentStart)..<(base + r.end)], width: width),
                  let sBytes = magnitude(der[(base + s.contentStart)..<(base + s.end)], width: width)
            else { return nil }
            return rBytes + sBytes
        }
    }

    /// The strict-DER `ECDSA-Sig-Value` of a raw `r ‖ s` signature (even length, at most 132
    /// bytes); `nil` for another length.
    public static func der(fromRaw raw: ArraySlice<UInt8>) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, raw.count <= 132 else { return nil }
        let half = raw.count / 2
        let r = integer(raw.prefix(half))
        let s = integer(raw.suffix(half))
        let body = r + s
        return [ASN1Tag.sequence.octet] + length(body.count) + body
    }

    /// A DER INTEGER TLV of the unsigned big-endian `value`.
    private static func integer(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var content = Array(value.drop { $0 == 0 })
        if content.isEmpty { content = [0] } else if content[0] >= 0x80 { content.insert(0, at: 0) }
        return [ASN1Tag.integer.octet] + length(content.count) + content
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
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
