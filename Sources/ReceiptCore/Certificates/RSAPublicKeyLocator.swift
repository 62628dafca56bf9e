/// Finds the RSA modulus and public exponent of a DER X.509 certificate in its
/// ``X509Certificate`` reading's ``SubjectPublicKeyInfo``, so a backend can build a verification key from them directly
/// (OpenSSL's `receipt_rsa_public_key`, GnuTLS's `gnutls_pubkey_import_rsa_raw`) instead of
/// decoding the whole certificate again.
///
/// Deliberately narrow: a strict DER certificate, algorithm rsaEncryption with NULL or no
/// parameters, `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }` with both
/// integers positive and minimally encoded, nothing trailing. Anything else is `nil` and the
/// caller decodes the whole certificate with its library. The certificate has already been
/// verified by the full path (which decoded this same key with the library), so the numbers read
/// here are the key the library itself used.
package enum RSAPublicKeyLocator {
    /// The byte ranges of the modulus and exponent magnitudes (no sign octet) in `der`.
    package struct Components {
        /// The modulus, big-endian, without a leading zero octet.
        package var modulus: Range<Int>
        /// The public exponent, big-endian, without a leading zero octet.
        package var exponent: Range<Int>
    }

    /// rsaEncryption, 1.2.840.113549.1.1.1, as a whole TLV.
    private static let rsaEncryptionOID = KnownObjectIdentifier.rsaEncryption.tlv

    /// The modulus and exponent of `der`'s RSA key, or nil for anything outside the narrow shape above.
    package static func components(ofCertificate der: [UInt8]) -> Components? {
        der.withUnsafeBufferPointer { components(ofCertificate: der, reader: DERCursor($0)) }
    }

    private static func components(ofCertificate der: [UInt8], reader: DERCursor) -> Components? {
        guard let key = X509Certificate(reader)?.tbsCertificate.subjectPublicKeyInfo,
              reader.equals(key.algorithm.algorithm.whole, rsaEncryptionOID), key.algorithm.hasAbsentOrNullParameters,
              let numbers = key.rsaPublicKey(reader),
              let modulusMagnitude = positiveMagnitude(der, numbers.modulus),
              let exponentMagnitude = positiveMagnitude(der, numbers.exponent),
              modulusMagnitude.count <= 2048, exponentMagnitude.count <= 2048
        else { return nil }
        return Components(modulus: modulusMagnitude, exponent: exponentMagnitude)
    }

    /// The magnitude of a positive, minimally encoded INTEGER (its sign octet dropped); nil otherwise.
    private static func positiveMagnitude(_ der: [UInt8], _ integer: DERCursor.Element) -> Range<Int>? {
        let content = integer.contentStart..<integer.end
        guard let first = content.first else { return nil }
        let lead = der[first]
        guard lead & 0x80 == 0 else { return nil }  // negative
        if lead == 0 {
            // A leading zero only as the sign octet of a magnitude with its top bit set.
            guard content.count >= 2, der[first + 1] & 0x80 != 0 else { return nil }
            return (first + 1)..<content.upperBound
        }
        return content
    }
}
