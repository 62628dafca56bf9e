/// One object identifier the package matches, written as its content octets and its dotted form
/// (in the catalogue below; `ObjectIdentifierTests` holds each dotted form to the decoding of its
/// octets), with the TLV the readers compare against derived from them.
///
/// The dotted forms are written out rather than decoded when the catalogue is first used (by the
/// first validation's structure checks): decoding them formatted 20 OIDs' arcs as numbers, code a
/// validation otherwise never runs, whose pages then stayed resident.
package struct KnownObjectIdentifier: Sendable {
    /// The content octets (what follows the tag and length).
    package let content: [UInt8]
    /// The whole DER TLV: `06`, the length, the content octets.
    package let tlv: [UInt8]
    /// The dotted form, as ``decodeObjectIdentifier(_:)`` gives it.
    package let dotted: String

    private init(_ content: [UInt8], _ dotted: String) {
        self.content = content
        self.tlv = [0x06, UInt8(content.count)] + content
        self.dotted = dotted
    }

    // MARK: The catalogue

    /// PKCS #7 signedData, 1.2.840.113549.1.7.2.
    package static let signedData = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02], "1.2.840.113549.1.7.2")
    /// PKCS #7 data, 1.2.840.113549.1.7.1.
    package static let data = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01], "1.2.840.113549.1.7.1")
    /// SHA-1, 1.3.14.3.2.26.
    package static let sha1 = Self([0x2B, 0x0E, 0x03, 0x02, 0x1A], "1.3.14.3.2.26")
    /// SHA-256, 2.16.840.1.101.3.4.2.1.
    package static let sha256 = Self([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01], "2.16.840.1.101.3.4.2.1")
    /// SHA-384, 2.16.840.1.101.3.4.2.2.
    package static let sha384 = Self([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02], "2.16.840.1.101.3.4.2.2")
    /// id-ecPublicKey, 1.2.840.10045.2.1.
    package static let ecPublicKey = Self([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01], "1.2.840.10045.2.1")
    /// The P-256 curve (prime256v1, secp256r1), 1.2.840.10045.3.1.7.
    package static let prime256v1 = Self([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07], "1.2.840.10045.3.1.7")
    /// The P-384 curve (secp384r1), 1.3.132.0.34.
    package static let secp384r1 = Self([0x2B, 0x81, 0x04, 0x00, 0x22], "1.3.132.0.34")
    /// ecdsa-with-SHA256, 1.2.840.10045.4.3.2.
    package static let ecdsaWithSHA256 = Self([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02], "1.2.840.10045.4.3.2")
    /// ecdsa-with-SHA384, 1.2.840.10045.4.3.3.
    package static let ecdsaWithSHA384 = Self([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03], "1.2.840.10045.4.3.3")
    /// rsaEncryption, 1.2.840.113549.1.1.1.
    package static let rsaEncryption = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01], "1.2.840.113549.1.1.1")
    /// sha1WithRSAEncryption, 1.2.840.113549.1.1.5.
    package static let sha1WithRSAEncryption = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05], "1.2.840.113549.1.1.5")
    /// sha256WithRSAEncryption, 1.2.840.113549.1.1.11.
    package static let sha256WithRSAEncryption = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B], "1.2.840.113549.1.1.11")
    /// The contentType signed attribute, 1.2.840.113549.1.9.3.
    package static let contentType = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03], "1.2.840.113549.1.9.3")
    /// The messageDigest signed attribute, 1.2.840.113549.1.9.4.
    package static let messageDigest = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04], "1.2.840.113549.1.9.4")
    /// The signingTime signed attribute, 1.2.840.113549.1.9.5.
    package static let signingTime = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05], "1.2.840.113549.1.9.5")
    /// The X.509 subjectAltName extension, 2.5.29.17.
    package static let subjectAltName = Self([0x55, 0x1D, 0x11], "2.5.29.17")
    /// The X.509 issuerAltName extension, 2.5.29.18.
    package static let issuerAltName = Self([0x55, 0x1D, 0x12], "2.5.29.18")
    /// Apple's Worldwide Developer Relations intermediate marker, 1.2.840.113635.100.6.2.1.
    package static let appleIntermediateMarker = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x02, 0x01], "1.2.840.113635.100.6.2.1")
    /// Apple's receipt-signing leaf marker, 1.2.840.113635.100.6.11.1.
    package static let appleLeafMarker = Self([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01], "1.2.840.113635.100.6.11.1")

    /// Every entry of the catalogue.
    package static let all: [KnownObjectIdentifier] = [
        signedData, data, sha1, sha256, sha384, ecPublicKey, prime256v1, secp384r1, ecdsaWithSHA256, ecdsaWithSHA384,
        rsaEncryption, sha1WithRSAEncryption, sha256WithRSAEncryption,
        contentType, messageDigest, signingTime, subjectAltName, issuerAltName, appleIntermediateMarker,
        appleLeafMarker,
    ]

    /// The dotted form of `content` when it is in the catalogue (no string built).
    static func dotted(_ content: ArraySlice<UInt8>) -> String? {
        for known in all where known.content.count == content.count && known.content.elementsEqual(content) {
            return known.dotted
        }
        return nil
    }
}

/// Decodes the content octets of an OBJECT IDENTIFIER into dotted form, or nil when malformed
/// (empty, over 128 octets, an arc starting with 0x80 or longer than 9 octets, the last arc
/// incomplete). Catalogue entries are looked up instead of decoded.
func decodeObjectIdentifier(_ content: ArraySlice<UInt8>) -> String? {
    KnownObjectIdentifier.dotted(content) ?? dottedObjectIdentifier(content)
}

/// ``decodeObjectIdentifier(_:)`` without the catalogue (which is built with it).
func dottedObjectIdentifier(_ content: ArraySlice<UInt8>) -> String? {
    ObjectIdentifierContent.dotted(content)
}
