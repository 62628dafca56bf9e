/// A one-octet ASN.1 identifier: class (bits 8–7), constructed bit (6), tag number (5–1, below 31),
/// named as swift-asn1's `ASN1Identifier` names them.
///
/// The reading layer's vocabulary: outside `Reading/` no code compares an identifier octet with a
/// number; it names the tag (`element.tag == .sequence`). Multi-octet tags (number 31 and above)
/// have no `ASN1Tag`: every production the package reads uses one-octet identifiers, and the
/// readers refuse the others where DER is required.
package struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The identifier octet.
    package let octet: UInt8

    /// The tag whose identifier octet is `octet`.
    @inline(__always)
    package init(octet: UInt8) {
        self.octet = octet
    }

    /// Whether two identifiers are the same octet.
    @inline(__always)
    package static func == (lhs: ASN1Tag, rhs: ASN1Tag) -> Bool {
        lhs.octet == rhs.octet
    }

    /// The class: 0 universal, 1 application, 2 context-specific, 3 private.
    @inline(__always) package var tagClass: UInt8 { octet >> 6 }

    /// Whether the constructed bit is set.
    @inline(__always) package var isConstructed: Bool { octet & 0x20 != 0 }

    /// The tag number (0–30).
    @inline(__always) package var number: UInt8 { octet & 0x1F }

    /// Whether the class is universal.
    @inline(__always) package var isUniversal: Bool { tagClass == 0 }

    /// Whether the class is context-specific.
    @inline(__always) package var isContextSpecific: Bool { tagClass == 2 }

    /// The same class and number with the constructed bit cleared (BER strings may be constructed).
    package var primitive: ASN1Tag { ASN1Tag(octet: octet & ~0x20) }

    /// `[number]` context-specific, constructed (`0xA0 | number`) or primitive (`0x80 | number`).
    @inline(__always)
    package static func contextSpecific(_ number: UInt8, constructed: Bool) -> ASN1Tag {
        ASN1Tag(octet: (constructed ? 0xA0 : 0x80) | (number & 0x1F))
    }

    /// BOOLEAN.
    @inline(__always) package static var boolean: ASN1Tag { ASN1Tag(octet: 0x01) }
    /// INTEGER.
    @inline(__always) package static var integer: ASN1Tag { ASN1Tag(octet: 0x02) }
    /// BIT STRING, primitive.
    @inline(__always) package static var bitString: ASN1Tag { ASN1Tag(octet: 0x03) }
    /// OCTET STRING, primitive.
    @inline(__always) package static var octetString: ASN1Tag { ASN1Tag(octet: 0x04) }
    /// NULL.
    @inline(__always) package static var null: ASN1Tag { ASN1Tag(octet: 0x05) }
    /// OBJECT IDENTIFIER.
    @inline(__always) package static var objectIdentifier: ASN1Tag { ASN1Tag(octet: 0x06) }
    /// NumericString, primitive.
    @inline(__always) package static var numericString: ASN1Tag { ASN1Tag(octet: 0x12) }
    /// UTF8String, primitive.
    @inline(__always) package static var utf8String: ASN1Tag { ASN1Tag(octet: 0x0C) }
    /// PrintableString, primitive.
    @inline(__always) package static var printableString: ASN1Tag { ASN1Tag(octet: 0x13) }
    /// TeletexString (T61String), primitive.
    @inline(__always) package static var teletexString: ASN1Tag { ASN1Tag(octet: 0x14) }
    /// IA5String, primitive.
    @inline(__always) package static var ia5String: ASN1Tag { ASN1Tag(octet: 0x16) }
    /// UTCTime.
    @inline(__always) package static var utcTime: ASN1Tag { ASN1Tag(octet: 0x17) }
    /// GeneralizedTime.
    @inline(__always) package static var generalizedTime: ASN1Tag { ASN1Tag(octet: 0x18) }
    /// VisibleString, primitive.
    @inline(__always) package static var visibleString: ASN1Tag { ASN1Tag(octet: 0x1A) }
    /// UniversalString, primitive.
    @inline(__always) package static var universalString: ASN1Tag { ASN1Tag(octet: 0x1C) }
    /// BMPString, primitive.
    @inline(__always) package static var bmpString: ASN1Tag { ASN1Tag(octet: 0x1E) }
    /// SEQUENCE / SEQUENCE OF (always constructed).
    @inline(__always) package static var sequence: ASN1Tag { ASN1Tag(octet: 0x30) }
    /// SET / SET OF (always constructed).
    @inline(__always) package static var set: ASN1Tag { ASN1Tag(octet: 0x31) }

    /// Whether an element with this identifier may be constructed in DER: any tag outside the
    /// universal class, or SEQUENCE and SET (a constructed NULL, INTEGER, OBJECT IDENTIFIER or
    /// string is not DER, and OpenSSL's ANY decoding refuses it).
    @inline(__always)
    package var mayBeConstructed: Bool {
        !isUniversal || self == .sequence || self == .set
    }

    /// Whether this is one of the one-byte strings a receipt attribute value or a name may hold
    /// as text (UTF8String, IA5String, PrintableString, VisibleString).
    @inline(__always)
    package var isASCIIString: Bool {
        octet == Self.utf8String.octet || octet == Self.ia5String.octet || octet == Self.printableString.octet
            || octet == Self.visibleString.octet
    }

    /// The name and octet, for error messages (`SEQUENCE (0x30)`).
    package var description: String {
        let names: [UInt8: String] = [
            0x01: "BOOLEAN", 0x02: "INTEGER", 0x03: "BIT STRING", 0x04: "OCTET STRING", 0x05: "NULL",
            0x06: "OBJECT IDENTIFIER", 0x0C: "UTF8String", 0x12: "NumericString", 0x13: "PrintableString", 0x14: "TeletexString",
            0x16: "IA5String", 0x17: "UTCTime", 0x18: "GeneralizedTime", 0x1A: "VisibleString",
            0x1C: "UniversalString", 0x1E: "BMPString", 0x30: "SEQUENCE", 0x31: "SET",
        ]
        let hex = "0x" + String(octet, radix: 16, uppercase: true).leftPadded(to: 2)
        if let name = names[octet] { return "\(name) (\(hex))" }
        if tagClass == 2 { return "[\(number)]\(isConstructed ? " constructed" : "") (\(hex))" }
        return "tag \(hex)"
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
