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
        guard let found = bytes.withUnsafeBufferPointer({ Self.read(structure.parsed, $0) }) else { return nil }
        self = found
    }

    private static func read(_ parsed: SignedDataStructure.Parsed, _ bytes: UnsafeBufferPointer<UInt8>) -> SignedDataEnvelope? {
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
        guard let root = parsed.root, header(root, .sequence), root.children.count == 2,
              encodes(root.children[0], signedDataOID)
        else { return nil }
        let explicit = root.children[1]
        guard header(explicit, .contextSpecific(0, constructed: true)), explicit.children.count == 1 else { return nil }
        let signedData = explicit.children[0]
        let fields = signedData.children
        // version, digestAlgorithms, encapContentInfo, [0] certificates, signerInfos: no crls.
        guard header(signedData, .sequence), fields.count == 5,
              header(fields[0], .integer), header(fields[1], .set), fields[1].children.count == 1,
              header(fields[2], .sequence), fields[2].children.count == 2, encodes(fields[2].children[0], dataOID)
        else { return nil }
        let eExplicit = fields[2].children[1]
        guard header(eExplicit, .contextSpecific(0, constructed: true)), eExplicit.children.count == 1,
              header(eExplicit.children[0], .octetString)
        else { return nil }
        let octets = eExplicit.children[0]
        let certificates = fields[3]
        guard header(certificates, .contextSpecific(0, constructed: true)), certificates.contentLength > 0,
              certificates.children.allSatisfy({ header($0, .sequence) }),
              header(fields[4], .set), fields[4].children.count == 1
        else { return nil }
        // SignerInfo SEQUENCE { version, sid, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature }
        let signer = fields[4].children[0]
        let items = signer.children
        guard header(signer, .sequence), items.count == 5 || items.count == 6,
              header(items[0], .integer), header(items[1], .sequence), header(items[2], .sequence)
        else { return nil }
        let digest = items[2]
        guard let digestOID = digest.children.first, digest.children.count <= 2,
              digest.children.count == 1 || isNull(digest.children[1])
        else { return nil }
        let digestAlgorithm: DigestAlgorithm
        if encodes(digestOID, sha256OID) {
            digestAlgorithm = .sha256
        } else if encodes(digestOID, sha1OID) {
            digestAlgorithm = .sha1
        } else {
            return nil
        }
        // digestAlgorithms lists the signer's algorithm alone, encoded as the signer encodes it.
        let listed = fields[1].children[0]
        guard !digest.isIndefiniteLength, encodes(listed, Array(bytes[digest.offset..<digest.end])) else { return nil }

        var signedAttributes: Range<Int>?
        var index = 3
        if items.count == 6 {
            // DER throughout: the checks applied ``SignedAttributeEncoding`` to exactly this TLV.
            guard let attributes = parsed.signedAttributes, attributes.offset == items[3].offset,
                  header(items[3], .contextSpecific(0, constructed: true))
            else { return nil }
            signedAttributes = attributes.offset..<attributes.end
            index = 4
        }
        let signatureAlgorithm = items[index]
        let signature = items[index + 1]
        guard header(signatureAlgorithm, .sequence), let signatureOID = signatureAlgorithm.children.first,
              header(signatureOID, .objectIdentifier),
              signatureAlgorithm.children.count == 1
                || (signatureAlgorithm.children.count == 2 && isNull(signatureAlgorithm.children[1])),
              header(signature, .octetString), signature.contentLength > 0
        else { return nil }

        return SignedDataEnvelope(
            head: fields[0].offset..<fields[1].end,
            content: octets.contentStart..<octets.contentEnd,
            certificates: certificates.contentStart..<certificates.contentEnd,
            signerHead: items[0].offset..<digest.end,
            signedAttributes: signedAttributes,
            signatureAlgorithm: signatureAlgorithm.offset..<signatureAlgorithm.end,
            signature: signature.contentStart..<signature.contentEnd,
            digestAlgorithm: digestAlgorithm)
    }
}
