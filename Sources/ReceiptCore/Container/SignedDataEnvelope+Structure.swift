extension SignedDataEnvelope {
    /// The envelope of the bytes `structure` read, taken from that reading instead of reading the
    /// bytes again: equal to `SignedDataEnvelope(structure.bytes)` (`SignedDataEnvelopeTests`
    /// compares the two over every fixture and conformance case), `nil` exactly when that is.
    ///
    /// The structure checks already established most of the envelope's shape (field order, one
    /// SignerInfo, strict-DER certificates, DER signed attributes, the signer's digest algorithm
    /// SHA-1 or SHA-256 with absent or NULL parameters); what is left is compared here on the
    /// nodes of the reading: each element the envelope reads has a one-octet identifier that is
    /// the one the shape names and a definite minimal length (the header ``DERCursor`` accepts),
    /// the OIDs are encoded as the catalogue encodes them, certificates are present and no
    /// `crls` or unsigned attributes are, digestAlgorithms holds exactly the signer's algorithm
    /// byte for byte, and the signature is not empty.
    package init?(structure: SignedDataStructure) {
        let bytes = structure.bytes
        guard let found = bytes.withUnsafeBufferPointer({ Self.read(structure.contentInfo, $0) }) else { return nil }
        self = found
    }

    private static func read(_ contentInfo: ContentInfo, _ bytes: UnsafeBufferPointer<UInt8>) -> SignedDataEnvelope? {
        func header(_ node: BERNode, _ tag: ASN1Tag) -> Bool {
            node.offset < bytes.count && bytes[node.offset] == tag.octet && !node.isIndefiniteLength
                && node.contentLength <= Int(UInt32.max)
                && node.contentStart - node.offset == DEREncoding.headerLength(node.contentLength)
        }
        func encodes(_ node: BERNode, _ tlv: [UInt8]) -> Bool {
            !node.isIndefiniteLength && node.end - node.offset == tlv.count
                && bytes[node.offset..<node.end].elementsEqual(tlv)
        }
        func isNull(_ node: BERNode) -> Bool { header(node, .null) && node.contentLength == 0 }

        // ContentInfo SEQUENCE { OID signedData, [0] { SignedData SEQUENCE { ... } } }
        guard header(contentInfo.node, .sequence), encodes(contentInfo.contentType, signedDataOID),
              let explicit = contentInfo.contentField, let signedData = contentInfo.signedData
        else { return nil }
        guard header(explicit, .contextSpecific(0, constructed: true)) else { return nil }
        // version, digestAlgorithms, encapContentInfo, [0] certificates, signerInfos: no crls.
        let encapsulated = signedData.encapContentInfo
        guard header(signedData.node, .sequence), signedData.crls == nil,
              header(signedData.version, .integer), header(signedData.digestAlgorithmSet, .set),
              signedData.digestAlgorithms.count == 1,
              header(encapsulated.node, .sequence), encodes(encapsulated.eContentType, dataOID),
              let eExplicit = encapsulated.eContentField, let octets = encapsulated.eContent
        else { return nil }
        guard header(eExplicit, .contextSpecific(0, constructed: true)), header(octets, .octetString) else { return nil }
        guard let certificates = signedData.certificateSet,
              header(certificates, .contextSpecific(0, constructed: true)), certificates.contentLength > 0,
              certificates.children.allSatisfy({ header($0, .sequence) }),
              header(signedData.signerInfoSet, .set), signedData.signerInfos.count == 1,
              let signer = signedData.signerInfos.first
        else { return nil }
        // SignerInfo SEQUENCE { version, sid, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature }
        guard header(signer.node, .sequence), signer.unsignedAttributes == nil,
              header(signer.version, .integer), header(signer.sid, .sequence), header(signer.digestAlgorithm.node, .sequence)
        else { return nil }
        let digest = signer.digestAlgorithm
        guard digest.parameters.map(isNull) ?? true else { return nil }
        let digestAlgorithm: DigestAlgorithm
        if encodes(digest.algorithm, sha256OID) {
            digestAlgorithm = .sha256
        } else if encodes(digest.algorithm, sha1OID) {
            digestAlgorithm = .sha1
        } else {
            return nil
        }
        // digestAlgorithms lists the signer's algorithm alone, encoded as the signer encodes it.
        let listed = signedData.digestAlgorithms[0].node
        guard !digest.node.isIndefiniteLength, encodes(listed, Array(bytes[digest.node.offset..<digest.node.end])) else {
            return nil
        }

        var signedAttributes: Range<Int>?
        if let attributes = signer.signedAttributes {
            // DER throughout: the checks applied ``SignedAttributeEncoding`` to exactly this TLV.
            guard header(attributes.node, .contextSpecific(0, constructed: true)) else { return nil }
            signedAttributes = attributes.node.offset..<attributes.node.end
        }
        let signatureAlgorithm = signer.signatureAlgorithm
        let signature = signer.signature
        guard header(signatureAlgorithm.node, .sequence), header(signatureAlgorithm.algorithm, .objectIdentifier),
              signatureAlgorithm.parameters.map(isNull) ?? true,
              header(signature, .octetString), signature.contentLength > 0
        else { return nil }

        return SignedDataEnvelope(
            head: signedData.version.offset..<signedData.digestAlgorithmSet.end,
            content: octets.contentStart..<octets.contentEnd,
            certificates: certificates.contentStart..<certificates.contentEnd,
            signerHead: signer.version.offset..<digest.node.end,
            signedAttributes: signedAttributes,
            signatureAlgorithm: signatureAlgorithm.node.offset..<signatureAlgorithm.node.end,
            signature: signature.contentStart..<signature.contentEnd,
            digestAlgorithm: digestAlgorithm)
    }
}
