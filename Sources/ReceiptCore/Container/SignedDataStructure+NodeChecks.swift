/// The structure checks' small readings of one node: OCTET STRING segments, OIDs, INTEGERs,
/// AlgorithmIdentifiers and ANY values, each over a node the ``BERReader`` already bounded; the
/// schema phase builds the Reading values (``AlgorithmIdentifier``, ``SignerInfo``, …) from nodes
/// these accepted.
extension SignedDataStructure {
    /// A constructed OCTET STRING's segments are OCTET STRINGs, recursively (the reader bounded the depth).
    static func isOctetStringSegments(_ node: BERNode) -> Bool {
        node.children.allSatisfy { $0.hasTag(.octetString) && (!$0.isConstructed || isOctetStringSegments($0)) }
    }

    /// How many levels of constructed segments a string has: 0 when primitive (the reader bounded the depth).
    static func segmentDepth(_ node: BERNode) -> Int {
        guard node.isConstructed else { return 0 }
        return 1 + node.children.reduce(0) { max($0, segmentDepth($1)) }
    }

    /// Whether `node` is a primitive OBJECT IDENTIFIER that `decodeObjectIdentifier` accepts
    /// (checked without building its dotted string).
    static func isOID(_ node: BERNode, _ reader: BERReader) -> Bool {
        node.identifier == .objectIdentifier && !node.isIndefiniteLength
            && CertificateStructure.isObjectIdentifier(reader.content(of: node))
    }

    static func oid(_ node: BERNode, _ reader: BERReader) -> String? {
        guard node.identifier == .objectIdentifier, !node.isIndefiniteLength else { return nil }
        return decodeObjectIdentifier(reader.content(of: node))
    }

    static func isInteger(_ node: BERNode, _ reader: BERReader) -> Bool {
        guard node.identifier == .integer else { return false }
        return CertificateStructure.isMinimalInteger(reader.content(of: node))
    }

    static func isAlgorithmIdentifier(_ node: BERNode, _ reader: BERReader) -> Bool {
        node.identifier == .sequence && (1...2).contains(node.children.count)
            && isOID(node.children[0], reader)
            && (node.children.count == 1 || isWellFormedValue(node.children[1], reader))
    }

    /// An ANY value whose universal primitives are valid encodings of their type (as OpenSSL's
    /// `ASN1_TYPE` decoding demands), recursively; the reader already bounded the depth.
    static func isWellFormedValue(_ node: BERNode, _ reader: BERReader) -> Bool {
        if node.isConstructed {
            // Universal types in constructed form: only SEQUENCE and SET (a constructed NULL,
            // INTEGER or OBJECT IDENTIFIER is not an encoding OpenSSL accepts).
            guard node.mayBeConstructed else { return false }
            return node.children.allSatisfy { isWellFormedValue($0, reader) }
        }
        guard node.isUniversalClass else { return true }
        return CertificateStructure.isWellFormedPrimitive(tag: node.tagNumber, reader.content(of: node))
    }
}
