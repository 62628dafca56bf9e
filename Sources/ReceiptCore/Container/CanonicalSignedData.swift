/// The signedData a backend is handed: rebuilt by the validator from its own reading of the input
/// (``SignedDataStructure``), so that no crypto library ever sees the sender's unsigned bytes.
///
/// ```
/// ContentInfo SEQUENCE { OID signedData, [0] { SignedData SEQUENCE {
///   version INTEGER,                                   -- re-encoded (minimal length)
///   digestAlgorithms SET { the signer's digestAlgorithm },  -- the signer's alone
///   encapContentInfo SEQUENCE { OID data,
///     [0] { OCTET STRING (primitive) } },              -- BER segments concatenated
///   [0] certificates { one candidate path, leaf first }, -- no other certificate
///   signerInfos SET { SignerInfo SEQUENCE {
///     version, sid, digestAlgorithm,                   -- re-encoded as DER
///     [0] signedAttrs,                                 -- copied byte for byte (DER already)
///     signatureAlgorithm,                              -- re-encoded as DER
///     signature OCTET STRING } } } } }                 -- primitive; no unsignedAttrs
/// ```
///
/// Why this is sound: a SignerInfo's signature covers the content (through the messageDigest
/// signed attribute when there are signed attributes) and nothing else of the signedData
/// (RFC 5652 §5.4). The content bytes and the signed attributes are copied exactly; every field
/// that changes — the digestAlgorithms hint (§5.1: "a collection of message digest algorithm
/// identifiers ... to facilitate one-pass signature verification"), the version numbers, the
/// encodings of lengths, NULL parameters and constructed strings (X.690 §8.7.3: a constructed
/// OCTET STRING's value is the concatenation of its segments), the unsigned attributes and the
/// certificates off the chosen path (§5.1: certificates "may contain more certificates than
/// necessary") — is outside what the signature covers. A forged input stays forged after the
/// rebuild, and a genuine one stays genuine; and every library verifies the same bytes, so the
/// verdict does not depend on how a library reads BER, skips unsigned data or builds chains.
package struct CanonicalSignedData: Sendable {
    /// The rebuilt signedData, strict DER: the input itself (its storage shared, nothing copied)
    /// when ``isInput``.
    package var der: [UInt8]
    /// Whether the input already is this canonical form, octet for octet, so that ``der`` is the
    /// input (the common case: a DER receipt whose embedded certificates are exactly the path,
    /// in order, with no unsigned attributes). `false` when the rebuild differs from the input,
    /// or when it was asked to be built regardless.
    package var isInput: Bool
    /// Whether ``der`` holds no content (its encapContentInfo is `SEQUENCE { OID data }`): the
    /// content then lies in the input at ``content`` and is handed to the backend separately, so
    /// that a large content is never held twice (``SignedDataStructure/canonical(certificates:reusesInput:detachesContent:)``).
    package var isDetached: Bool
    /// Where the content lies in ``der``, or in the input when ``isDetached``.
    package var content: Range<Int>
    /// Where the same content bytes lie in the input, when its eContent was one primitive OCTET
    /// STRING (so the input holds them contiguously); `nil` for a constructed one.
    package var inputContent: Range<Int>?
    /// Where ``der``'s certificates (those asked for, leaf first) and the signer's certificate lie,
    /// and what its SignerInfo names, known from the rebuild (``der`` is not read again): equal to
    /// what reading ``der`` finds (``SignedDataStructure/ranges``).
    package var ranges: SignedDataRanges
    /// ``der``'s ``SignedDataEnvelope``, known from the rebuild (the canonical bytes are not read
    /// again): equal to `SignedDataEnvelope(der)`, which `CanonicalSignedDataTests` checks for
    /// every input; when ``isDetached``, the same except that its `content` is a range of the
    /// input (the envelope of the attached rebuild, with the content left out). `nil` exactly when
    /// that reading is `nil` (an empty signature, an algorithm identifier the envelope does not
    /// take).
    package var envelope: SignedDataEnvelope?
}

extension SignedDataStructure {
    /// Rebuilds the input as ``CanonicalSignedData`` with the embedded certificates at `certificates`
    /// (ranges of ``bytes``, in order: leaf first).
    /// - Parameter reusesInput: whether an input that already is its own rebuild, octet for
    ///   octet, is handed on as it is (``CanonicalSignedData/isInput``: the same storage, nothing
    ///   copied) rather than copied; `false` builds the copy always (for the tests that compare the
    ///   two).
    /// - Parameter detachesContent: whether a rebuild that is not the input leaves its content out
    ///   (``CanonicalSignedData/isDetached``), when the input holds it in one primitive OCTET STRING
    ///   and the rebuild has an envelope: the rebuild is then a few kilobytes, whatever the content.
    /// - Throws: `not_pkcs7` when the content cannot be read as one string (never for an input
    ///   these checks accepted).
    /// - Precondition: `certificates` holds ``signerCertificate`` (a path always starts with it).
    package func canonical(
        certificates: [Range<Int>], reusesInput: Bool = true, detachesContent: Bool = false
    ) throws(ReceiptValidationError) -> CanonicalSignedData {
        let bytes = reader.bytes
        // The one SignerInfo read; `signer` below is its encoding being built.
        let signerInfo = self.signer
        let version = signedData.version, signerVersion = signerInfo.version, sid = signerInfo.sid
        let digest = signerInfo.digestAlgorithm.node, signatureAlgorithm = signerInfo.signatureAlgorithm.node
        let signature = signerInfo.signature
        guard let eContent = signedData.encapContentInfo.eContent else {
            throw ReceiptValidationError(.notPKCS7, "The signedData lacks a field the canonical form needs.")
        }

        // The SignerInfo, small: built first so every length is known before the one output write.
        // Offsets into `signer` are kept for the envelope (``CanonicalSignedData/envelope``).
        var signer: [UInt8] = []
        DEREncoding.append(version: signerVersion, of: reader, to: &signer)
        try DEREncoding.append(sid, of: reader, to: &signer)
        let digestStart = signer.count
        try DEREncoding.append(digest, of: reader, to: &signer)
        let digestEnd = signer.count
        var attributesInSigner: Range<Int>?
        if let attributes = signerInfo.signedAttributes?.node {
            let start = signer.count
            signer += bytes[attributes.offset..<attributes.end]
            attributesInSigner = start..<signer.count
        }
        let signatureAlgorithmStart = signer.count
        try DEREncoding.append(signatureAlgorithm, of: reader, to: &signer)
        let signatureAlgorithmEnd = signer.count
        DEREncoding.appendHeader(ASN1Tag.octetString.octet, signature.contentLength, to: &signer)
        let signatureStart = signer.count
        signer += bytes[signature.contentStart..<signature.contentEnd]
        var signerInfos: [UInt8] = []
        DEREncoding.appendHeader(ASN1Tag.set.octet, DEREncoding.headerLength(signer.count) + signer.count, to: &signerInfos)
        DEREncoding.appendHeader(ASN1Tag.sequence.octet, signer.count, to: &signerInfos)
        signerInfos += signer

        var head: [UInt8] = []
        DEREncoding.append(version: version, of: reader, to: &head)
        var algorithm: [UInt8] = []
        try DEREncoding.append(digest, of: reader, to: &algorithm)
        DEREncoding.appendHeader(ASN1Tag.set.octet, algorithm.count, to: &head)
        head += algorithm

        // The content: where its octets lie in the input (one range when primitive; the segments
        // of a constructed one, concatenated in the rebuild; bounded by the reader's depth).
        let contentSegments: [Range<Int>]
        do {
            contentSegments = try reader.stringSegments(of: eContent)
        } catch {
            throw ReceiptValidationError(.notPKCS7, "The eContent could not be read: \(error.reason).", offset: error.offset)
        }
        let contentLength = contentSegments.reduce(0) { $0 + $1.count }
        let dataOID = KnownObjectIdentifier.data.tlv
        let octetString = DEREncoding.headerLength(contentLength) + contentLength
        let explicitContent = DEREncoding.headerLength(octetString) + octetString
        let attachedEncapsulated = dataOID.count + explicitContent
        let certificateLength = certificates.reduce(0) { $0 + $1.count }
        let certificateField = certificates.isEmpty ? 0 : DEREncoding.headerLength(certificateLength) + certificateLength
        let signedDataOID = KnownObjectIdentifier.signedData.tlv
        // The lengths of the rebuild with its content (`false`) or without it (`true`).
        func lengths(detached: Bool) -> (encapsulated: Int, signedData: Int, explicit: Int, contentInfo: Int, total: Int) {
            let encapsulated = detached ? dataOID.count : attachedEncapsulated
            let signedData = head.count + DEREncoding.headerLength(encapsulated) + encapsulated + certificateField
                + signerInfos.count
            let explicit = DEREncoding.headerLength(signedData) + signedData
            let contentInfo = signedDataOID.count + DEREncoding.headerLength(explicit) + explicit
            return (encapsulated, signedData, explicit, contentInfo, DEREncoding.headerLength(contentInfo) + contentInfo)
        }
        let total = lengths(detached: false).total
        let inputContent = eContent.isConstructed ? nil : eContent.contentStart..<eContent.contentEnd

        // Written once in order; where the octets go is the output's mode (``CanonicalOutput``).
        var placed: [Range<Int>] = []
        var signerPlaced: Range<Int>?
        var headRange = 0..<0
        var content = 0..<0
        var certificatesContent = 0..<0
        func write(to der: inout CanonicalOutput, detachedContent: Range<Int>? = nil) {
            placed = []
            signerPlaced = nil
            let length = lengths(detached: detachedContent != nil)
            der.appendHeader(ASN1Tag.sequence.octet, length.contentInfo)
            der.append(signedDataOID)
            der.appendHeader(ASN1Tag.contextSpecific(0, constructed: true).octet, length.explicit)
            der.appendHeader(ASN1Tag.sequence.octet, length.signedData)
            headRange = der.count..<(der.count + head.count)
            der.append(head)
            der.appendHeader(ASN1Tag.sequence.octet, length.encapsulated)
            der.append(dataOID)
            if let detachedContent {
                content = detachedContent
            } else {
                der.appendHeader(ASN1Tag.contextSpecific(0, constructed: true).octet, octetString)
                der.appendHeader(ASN1Tag.octetString.octet, contentLength)
                let contentStart = der.count
                for segment in contentSegments { der.append(input: segment) }
                content = contentStart..<der.count
            }
            certificatesContent = der.count..<der.count
            if !certificates.isEmpty {
                der.appendHeader(ASN1Tag.contextSpecific(0, constructed: true).octet, certificateLength)
                certificatesContent = der.count..<(der.count + certificateLength)
                for certificate in certificates {
                    let range = der.count..<(der.count + certificate.count)
                    der.append(input: certificate)
                    if signerPlaced == nil, certificate == signerCertificate { signerPlaced = range }
                    placed.append(range)
                }
            }
            der.append(signerInfos)
        }

        // The input is handed on as it is when it already is its own rebuild: compared first
        // (no octet copied) when it can be — a constructed eContent is written primitive, so an
        // input that has one, or another length, is never its rebuild.
        var output = CanonicalOutput(input: bytes, mode: .comparing, capacity: 0)
        var isInput = false
        if reusesInput, !eContent.isConstructed, total == bytes.count {
            write(to: &output)
            isInput = output.isInput
        }
        // Otherwise the rebuild is built: without its content when asked and the input holds the
        // content in one piece (it is then handed on as that range of the input).
        var isDetached = false
        if !isInput, detachesContent, let inputContent {
            output = CanonicalOutput(input: bytes, mode: .building, capacity: lengths(detached: true).total)
            write(to: &output, detachedContent: inputContent)
            isDetached = true
        } else if !isInput {
            output = CanonicalOutput(input: bytes, mode: .building, capacity: total)
            write(to: &output)
        }
        let der = isInput ? bytes : output.der
        guard let signerPlaced else {
            throw ReceiptValidationError(.untrustedChain, "The canonical form was asked for without the signer's certificate.")
        }
        // The SignerInfo's first octet in `der`: after the SET's and the SEQUENCE's headers.
        let signerBase = der.count - signer.count
        let shifted = { (range: Range<Int>) in (signerBase + range.lowerBound)..<(signerBase + range.upperBound) }
        let envelope = Self.envelope(
            in: der,
            ranges: SignedDataEnvelope(
                head: headRange, content: content, certificates: certificatesContent,
                signerHead: signerBase..<(signerBase + digestEnd), signedAttributes: attributesInSigner.map(shifted),
                signatureAlgorithm: shifted(signatureAlgorithmStart..<signatureAlgorithmEnd),
                signature: shifted(signatureStart..<signer.count), digestAlgorithm: digestAlgorithm),
            digest: shifted(digestStart..<digestEnd))
        if isDetached, envelope == nil {
            // A backend verifies a detached rebuild with its envelope only: without one, attached.
            return try canonical(certificates: certificates, reusesInput: reusesInput, detachesContent: false)
        }
        return CanonicalSignedData(
            der: der, isInput: isInput, isDetached: isDetached, content: content,
            inputContent: inputContent,
            ranges: SignedDataRanges(
                certificates: placed, signerCertificate: signerPlaced, digestAlgorithm: digestAlgorithm,
                hasSignedAttributes: hasSignedAttributes),
            envelope: envelope)
    }

    /// The envelope of a rebuilt `der` whose parts lie at `ranges`, or `nil` when
    /// ``SignedDataEnvelope``'s reading of it would be `nil`.
    ///
    /// The rebuild writes every TLV of the envelope's shape in strict DER and the checks that
    /// accepted the input guarantee the rest of it (certificates strict-DER SEQUENCEs, signed
    /// attributes DER, a digest algorithm SHA-1 or SHA-256 with absent or NULL parameters listed
    /// alone in digestAlgorithms, a signature algorithm of an OID and absent or NULL parameters).
    /// What is left is compared here, in the few octets it concerns: the digest algorithm's OID
    /// encoding, the signature algorithm's parameters, a non-empty signature.
    private static func envelope(in der: [UInt8], ranges: SignedDataEnvelope, digest: Range<Int>) -> SignedDataEnvelope? {
        let oid = ranges.digestAlgorithm == .sha1 ? SignedDataEnvelope.sha1OID : SignedDataEnvelope.sha256OID
        return der.withUnsafeBufferPointer { pointer -> SignedDataEnvelope? in
            let cursor = DERCursor(pointer)
            guard !ranges.signature.isEmpty,
                  let algorithm = cursor.element(at: digest.lowerBound, within: digest.upperBound),
                  let digestOID = cursor.element(at: algorithm.contentStart, within: algorithm.end),
                  cursor.equals(digestOID.whole, oid),
                  let signatureAlgorithm = cursor.element(
                      at: ranges.signatureAlgorithm.lowerBound, within: ranges.signatureAlgorithm.upperBound),
                  let signatureOID = cursor.element(at: signatureAlgorithm.contentStart, within: signatureAlgorithm.end),
                  signatureOID.identifier == .objectIdentifier
            else { return nil }
            if signatureOID.end != signatureAlgorithm.end {
                guard let parameters = cursor.element(at: signatureOID.end, within: signatureAlgorithm.end),
                      parameters.identifier == .null, parameters.contentStart == parameters.end,
                      parameters.end == signatureAlgorithm.end
                else { return nil }
            }
            return ranges
        }
    }
}
