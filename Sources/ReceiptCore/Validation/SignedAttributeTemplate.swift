/// Reading and checking a SignerInfo's signed attributes for the verified-chain cache's fast path.
///
/// Only canonical DER is read: ``SignedDataEnvelope`` locates signed attributes only when they meet
/// the encoding rule every backend's structure check applies (``SignedAttributeEncoding``: the set
/// sorted, minimal lengths, DER values, so that the bytes verified here are the bytes the libraries
/// verify on the full path), every
/// attribute with exactly one value, no attribute type twice, contentType and messageDigest present.
enum SignedAttributeTemplate {
    typealias Rule = VerifiedChainCache.SignedAttributeRule

    static let contentTypeOID = KnownObjectIdentifier.contentType.tlv
    static let messageDigestOID = KnownObjectIdentifier.messageDigest.tlv
    static let signingTimeOID = KnownObjectIdentifier.signingTime.tlv

    /// The most attributes read.
    static let maximumAttributes = 16

    private struct Attribute {
        var whole: Range<Int>
        var type: Range<Int>
        var value: DERCursor.Element
    }

    /// The attributes of the `[0]` TLV at `range`, or `nil` when not canonical.
    private static func read(_ cursor: DERCursor, _ range: Range<Int>) -> [Attribute]? {
        guard let outer = cursor.element(at: range.lowerBound, within: range.upperBound),
              outer.identifier == .contextSpecific(0, constructed: true),
              outer.end == range.upperBound, outer.contentStart < outer.end
        else { return nil }
        var attributes: [Attribute] = []
        var position = outer.contentStart
        while position < outer.end {
            guard attributes.count < maximumAttributes,
                  let attribute = cursor.element(at: position, within: outer.end), attribute.identifier == .sequence,
                  let type = cursor.element(at: attribute.contentStart, within: attribute.end), type.identifier == .objectIdentifier,
                  let values = cursor.element(at: type.end, within: attribute.end), values.identifier == .set,
                  values.end == attribute.end,
                  let value = cursor.element(at: values.contentStart, within: values.end), value.end == values.end
            else { return nil }
            if let previous = attributes.last {
                // The envelope checked the DER order; equal encodings are refused too.
                guard !cursor.bytes[previous.whole].elementsEqual(cursor.bytes[attribute.whole]) else { return nil }
                guard !attributes.contains(where: { cursor.bytes[$0.type].elementsEqual(cursor.bytes[type.whole]) }) else {
                    return nil
                }
            }
            attributes.append(Attribute(whole: attribute.whole, type: type.whole, value: value))
            position = attribute.end
        }
        return attributes
    }

    /// Learns the rules from the signed attributes of a receipt the full path accepted.
    static func learn(_ cursor: DERCursor, _ range: Range<Int>) -> [Rule]? {
        guard let attributes = read(cursor, range) else { return nil }
        var rules: [Rule] = []
        var sawContentType = false
        var sawMessageDigest = false
        for attribute in attributes {
            let type = Array(cursor.bytes[attribute.type])
            let kind: Rule.Kind
            if type == contentTypeOID {
                kind = .contentType
                sawContentType = true
            } else if type == messageDigestOID {
                kind = .messageDigest
                sawMessageDigest = true
            } else if type == signingTimeOID {
                kind = .signingTime
            } else {
                kind = .fixed(Array(cursor.bytes[attribute.value.whole]))
            }
            guard valueIsAcceptable(cursor, attribute.value, kind: kind, digest: nil) else { return nil }
            rules.append(Rule(type: type, kind: kind))
        }
        guard sawContentType, sawMessageDigest else { return nil }
        return rules
    }

    /// Whether the signed attributes at `range` follow `rules` and their messageDigest is `digest`.
    static func matches(_ cursor: DERCursor, _ range: Range<Int>, rules: [Rule], digest: [UInt8]) -> Bool {
        guard let attributes = read(cursor, range), attributes.count == rules.count else { return false }
        for (attribute, rule) in zip(attributes, rules) {
            guard cursor.bytes[attribute.type].elementsEqual(rule.type),
                  valueIsAcceptable(cursor, attribute.value, kind: rule.kind, digest: digest)
            else { return false }
        }
        return true
    }

    private static func valueIsAcceptable(_ cursor: DERCursor, _ value: DERCursor.Element, kind: Rule.Kind, digest: [UInt8]?) -> Bool {
        switch kind {
        case .contentType:
            return cursor.equals(value.whole, SignedDataEnvelope.dataOID)
        case .messageDigest:
            guard value.identifier == .octetString else { return false }
            guard let digest else { return value.end - value.contentStart == 20 || value.end - value.contentStart == 32 }
            return cursor.bytes[value.contentStart..<value.end].elementsEqual(digest)
        case .signingTime:
            guard value.identifier == .utcTime || value.identifier == .generalizedTime, value.end - value.contentStart <= 32 else {
                return false
            }
            return cursor.bytes[value.contentStart..<value.end].allSatisfy { byte in
                (0x30...0x39).contains(byte) || byte == 0x5A || byte == 0x2E || byte == 0x2B || byte == 0x2D
            }
        case .fixed(let bytes):
            return cursor.equals(value.whole, bytes)
        }
    }
}
