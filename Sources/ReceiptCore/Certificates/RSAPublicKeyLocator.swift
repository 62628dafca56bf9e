/// Finds the RSA modulus and public exponent of a DER X.509 certificate by walking to its
/// SubjectPublicKeyInfo, so a backend can build a verification key from them directly
/// (OpenSSL's `receipt_rsa_public_key`, GnuTLS's `gnutls_pubkey_import_rsa_raw`) instead of
/// decoding the whole certificate again.
///
/// Deliberately narrow: strict DER on the path walked, algorithm rsaEncryption with NULL or no
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
        guard let spki = CertificateStructure.tbsFields(reader)?.subjectPublicKeyInfo,
              let algorithm = reader.element(at: spki.contentStart, within: spki.end), algorithm.identifier == .sequence,
              let oid = reader.element(at: algorithm.contentStart, within: algorithm.end),
              reader.equals(oid.start..<oid.end, rsaEncryptionOID),
              let bitString = reader.element(at: algorithm.end, within: spki.end), bitString.identifier == .bitString,
              bitString.end == spki.end, bitString.end > bitString.contentStart, der[bitString.contentStart] == 0,
              let rsaKey = reader.element(at: bitString.contentStart + 1, within: bitString.end), rsaKey.identifier == .sequence,
              rsaKey.end == bitString.end,
              let modulus = reader.element(at: rsaKey.contentStart, within: rsaKey.end), modulus.identifier == .integer,
              let exponent = reader.element(at: modulus.end, within: rsaKey.end), exponent.identifier == .integer,
              exponent.end == rsaKey.end,
              let modulusMagnitude = positiveMagnitude(der, modulus),
              let exponentMagnitude = positiveMagnitude(der, exponent),
              modulusMagnitude.count <= 2048, exponentMagnitude.count <= 2048
        else { return nil }
        // Parameters: absent or NULL.
        if oid.end != algorithm.end {
            guard let parameters = reader.element(at: oid.end, within: algorithm.end), parameters.identifier == .null,
                  parameters.contentStart == parameters.end, parameters.end == algorithm.end
            else { return nil }
        }
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
