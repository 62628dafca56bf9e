/// A canonical-shape signedData (``SignedDataEnvelope``) re-encoded for a library to verify
/// without holding a copy of the content or decoding certificates it already has: the same
/// SignedData with the content detached (an encapContentInfo of id-data without eContent) and
/// with the embedded certificates that `omitting` selects left out. The content is then handed to
/// the library separately, read in place.
///
/// Nothing a signature covers changes: the SignerInfo (signed attributes, signature) and the
/// version and digest algorithms are copied byte for byte, and the signature covers the content
/// (or the signed attributes, whose messageDigest covers the content) whether it travels inside
/// the structure or beside it. The embedded certificates are not signed; a backend leaves out
/// only certificates it already holds as trust anchors, which a chain finds in the trust store.
///
/// ```
/// ContentInfo SEQUENCE { OID signedData, [0] { SignedData SEQUENCE {
///   version, digestAlgorithms,                        -- copied
///   SEQUENCE { OID data },                            -- content detached
///   [0] { the certificates kept, in order },          -- left out when none is kept
///   signerInfos } } }                                 -- copied
/// ```
package struct DetachedSignedData: Sendable {
    /// The re-encoded signedData (strict DER).
    package var der: [UInt8]
    /// The content octets, in the original bytes.
    package var content: Range<Int>
    /// The byte ranges, in the original bytes, of the embedded certificates left out.
    package var omittedCertificates: [Range<Int>]

    /// A signedData that already is detached (the validator's ``CanonicalSignedData/isDetached``
    /// rebuild), taken as it is: `der` is `bytes` (the same storage), `content` where the content
    /// lies beside it, and no certificate left out.
    package init(alreadyDetached bytes: [UInt8], content: Range<Int>) {
        self.der = bytes
        self.content = content
        self.omittedCertificates = []
    }

    /// Re-encodes `bytes`, or returns `nil` when they are not in ``SignedDataEnvelope``'s canonical
    /// shape (then verify the original bytes).
    /// - Parameter omitting: whether to leave out the embedded certificate at a byte range of `bytes`.
    package init?(_ bytes: [UInt8], omitting: (Range<Int>) -> Bool) {
        self.init(bytes, envelope: SignedDataEnvelope(bytes), omitting: omitting)
    }

    /// Re-encodes `bytes` whose ``SignedDataEnvelope`` the caller has read already (`nil` when they
    /// are not in the canonical shape: then this is `nil` too).
    /// - Parameters:
    ///   - envelope: `SignedDataEnvelope(bytes)`, read from these very bytes.
    ///   - certificates: the embedded certificates' ranges when the caller knows them (the
    ///     validator's ``SignedDataRanges/certificates`` of the ``CanonicalSignedData`` it built):
    ///     they must tile the envelope's certificates field, in order; `nil`: read here.
    package init?(
        _ bytes: [UInt8], envelope: SignedDataEnvelope?, certificates known: [Range<Int>]? = nil,
        omitting: (Range<Int>) -> Bool
    ) {
        guard let envelope, envelope.certificates.upperBound <= bytes.count else { return nil }
        var kept: [Range<Int>] = []
        var omitted: [Range<Int>] = []
        if let known, known.first?.lowerBound == envelope.certificates.lowerBound,
           known.last?.upperBound == envelope.certificates.upperBound,
           zip(known, known.dropFirst()).allSatisfy({ $0.upperBound == $1.lowerBound }) {
            for range in known {
                if omitting(range) { omitted.append(range) } else { kept.append(range) }
            }
        } else if !(bytes.withUnsafeBufferPointer { pointer -> Bool in
            let cursor = DERCursor(pointer)
            var position = envelope.certificates.lowerBound
            while position < envelope.certificates.upperBound {
                guard let certificate = cursor.element(at: position, within: envelope.certificates.upperBound) else {
                    return false
                }
                if omitting(certificate.whole) { omitted.append(certificate.whole) } else { kept.append(certificate.whole) }
                position = certificate.end
            }
            return true
        }) {
            return nil
        }

        // The envelope ends with signerInfos, right after the certificates field (no crls).
        let signerInfos = envelope.certificates.upperBound..<bytes.count
        let keptLength = kept.reduce(0) { $0 + $1.count }
        let detachedContentInfo = 2 + SignedDataEnvelope.dataOID.count
        let certificatesField = kept.isEmpty ? 0 : DEREncoding.headerLength(keptLength) + keptLength
        let signedDataLength = envelope.head.count + detachedContentInfo + certificatesField + signerInfos.count
        let explicitLength = DEREncoding.headerLength(signedDataLength) + signedDataLength
        let contentInfoLength = SignedDataEnvelope.signedDataOID.count + DEREncoding.headerLength(explicitLength) + explicitLength

        var der: [UInt8] = []
        der.reserveCapacity(DEREncoding.headerLength(contentInfoLength) + contentInfoLength)
        DEREncoding.appendHeader(ASN1Tag.sequence.octet, contentInfoLength, to: &der)
        der += SignedDataEnvelope.signedDataOID
        DEREncoding.appendHeader(ASN1Tag.contextSpecific(0, constructed: true).octet, explicitLength, to: &der)
        DEREncoding.appendHeader(ASN1Tag.sequence.octet, signedDataLength, to: &der)
        der += bytes[envelope.head]
        DEREncoding.appendHeader(ASN1Tag.sequence.octet, SignedDataEnvelope.dataOID.count, to: &der)
        der += SignedDataEnvelope.dataOID
        if !kept.isEmpty {
            DEREncoding.appendHeader(ASN1Tag.contextSpecific(0, constructed: true).octet, keptLength, to: &der)
            for range in kept { der += bytes[range] }
        }
        der += bytes[signerInfos]

        self.der = der
        self.content = envelope.content
        self.omittedCertificates = omitted
    }
}
