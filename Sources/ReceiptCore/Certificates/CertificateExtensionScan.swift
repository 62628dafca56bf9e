/// Whether a certificate carries an extension, taken from its ``X509Certificate`` reading: no
/// swift-asn1 tree. The chain policy's cheap first look (``AppleChainPolicy``).
///
/// It answers only when the certificate is in the shape ``X509Certificate`` reads (strict DER,
/// each TBSCertificate field tagged as RFC 5280 says) and every Extension is a SEQUENCE that
/// begins with an OID and ends with an OCTET STRING. Anything else is `nil`, and the caller asks
/// ``CertificateInfo``, which decodes the whole certificate with swift-asn1 and explains what is
/// wrong. The certificates it is asked about were already decoded and verified by the crypto
/// library.
enum CertificateExtensionScan {
    /// `true` or `false` when the certificate `der` was read; `nil` when it is not in the shape above.
    /// - Parameter oid: the extension's OBJECT IDENTIFIER as a whole DER TLV (tag, length, content).
    static func contains(_ oid: [UInt8], in der: [UInt8]) -> Bool? {
        der.withUnsafeBufferPointer { pointer -> Bool? in
            let cursor = DERCursor(pointer)
            guard let extensions = X509Certificate(cursor)?.tbsCertificate.extensionList(cursor) else { return nil }
            return extensions.contains { cursor.equals($0.extnID.whole, oid) }
        }
    }
}
