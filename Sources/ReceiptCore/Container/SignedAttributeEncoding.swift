/// The one rule for how a SignerInfo's signed attributes must be encoded, applied by the structure
/// check every backend runs (``SignedDataStructure``, phase 4) and by the verified-chain cache's
/// fast path before it verifies a signature over them.
///
/// The signature covers the DER encoding of the attribute SET (RFC 5652 §5.4), but neither library
/// verifies over the bytes it was sent: OpenSSL re-encodes the attributes (in the order sent, each
/// value normalised: minimal lengths, a BIT STRING's unused bits cleared, values sorted), GnuTLS
/// exports them through libtasn1 (attributes sorted, values as sent), and the fast path reads them
/// in place. The three byte strings are the same only when the bytes sent are already DER, so
/// anything else is refused before any of them looks at it, with one code on every backend.
/// Apple receipts carry no signed attributes: the rule costs them nothing.
///
/// DER here means, at every level of the `[0] IMPLICIT SET OF Attribute` (``DERCursor``: single-octet
/// tags, definite minimal lengths): the members of every SET (the attribute set itself and each
/// SET of values) in ascending order of their encodings (X.690 11.6; equal encodings allowed);
/// universal types constructed only as SEQUENCE or SET (no constructed strings); universal primitives
/// valid for their type (``CertificateStructure/isWellFormedPrimitive(tag:_:)``), a BOOLEAN 0x00 or
/// 0xFF, a BIT STRING's unused bits zero (X.690 11.1, 11.2).
package enum SignedAttributeEncoding {
    /// Nesting deeper than this inside the attribute set is refused.
    package static let maximumDepth = 16
    /// More members than this in one constructed value are refused.
    package static let maximumChildren = 4096

    /// Whether the TLV at `range` of the cursor's buffer is exactly one `[0]` constructed element
    /// (the signed attributes as sent) whose whole encoding is DER in the sense above.
    package static func isDER(_ cursor: DERCursor, _ range: Range<Int>) -> Bool {
        guard let outer = cursor.element(at: range.lowerBound, within: range.upperBound), outer.identifier == .contextSpecific(0, constructed: true),
              outer.end == range.upperBound
        else { return false }
        return isDER(cursor, outer, depth: 0)
    }

    /// Whether `bytes[range]` is DER signed attributes (see ``isDER(_:_:)``).
    package static func isDER(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { isDER(DERCursor($0), range) }
    }

    private static func isDER(_ cursor: DERCursor, _ element: DERCursor.Element, depth: Int) -> Bool {
        let content = cursor.bytes[element.contentStart..<element.end]
        guard element.identifier.isConstructed else {
            guard element.identifier.isUniversal else { return true }
            let tag = UInt32(element.identifier.number)
            guard CertificateStructure.isWellFormedPrimitive(tag: tag, content) else { return false }
            switch tag {
            case 1:
                return content.first == 0x00 || content.first == 0xFF
            case 3:
                guard let unused = content.first, let last = content.last, content.count > 1 else { return true }
                return last & ((1 << unused) - 1) == 0
            default:
                return true
            }
        }
        guard element.identifier.mayBeConstructed, depth < maximumDepth else { return false }
        // The attribute set is `[0] IMPLICIT SET OF`: ordered as a SET.
        let isSet = element.identifier == .set || depth == 0
        var previous: Range<Int>?
        var count = 0
        var position = element.contentStart
        while position < element.end {
            count += 1
            guard count <= maximumChildren, let child = cursor.element(at: position, within: element.end),
                  isDER(cursor, child, depth: depth + 1)
            else { return false }
            if isSet, let previous, !isOrdered(cursor, previous, child.whole) { return false }
            previous = child.whole
            position = child.end
        }
        return true
    }

    /// Whether encoding `a` sorts before or equal to encoding `b` (X.690 11.6: octet by octet, the
    /// shorter one padded with zeros).
    private static func isOrdered(_ cursor: DERCursor, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound, j < b.upperBound {
            let x = cursor.bytes[i]
            let y = cursor.bytes[j]
            if x != y { return x < y }
            i += 1
            j += 1
        }
        while i < a.upperBound {
            if cursor.bytes[i] != 0 { return false }
            i += 1
        }
        return true
    }
}
