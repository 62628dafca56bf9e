/// An `AlgorithmIdentifier` (RFC 5280 §4.1.1.2, used by RFC 5652 for every digest and signature
/// algorithm of a signedData), read in place: its nodes are ranges of the reader's buffer.
///
/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///   algorithm   OBJECT IDENTIFIER,
///   parameters  ANY DEFINED BY algorithm OPTIONAL }
/// ```
///
/// Built by ``SignedDataStructure``'s schema phase only for a node it accepted as one (a SEQUENCE
/// of an OBJECT IDENTIFIER `decodeObjectIdentifier` decodes and at most one well-formed value).
struct AlgorithmIdentifier: Sendable {
    /// The whole SEQUENCE.
    var node: BERNode
    /// The algorithm's OBJECT IDENTIFIER.
    var algorithm: BERNode
    /// The parameters, when present.
    var parameters: BERNode?

    /// The algorithm identifier `node`, whose first child is its OID and second (if any) its
    /// parameters; `nil` when it has not one or two children. The schema checks the rest.
    init?(_ node: BERNode) {
        guard (1...2).contains(node.children.count) else { return nil }
        self.node = node
        self.algorithm = node.children[0]
        self.parameters = node.children.count == 2 ? node.children[1] : nil
    }

    /// The algorithm as a dotted OID, or `nil` when it does not decode.
    func algorithmOID(_ reader: BERReader) -> String? {
        guard algorithm.identifier == .objectIdentifier, !algorithm.isIndefiniteLength else { return nil }
        return decodeObjectIdentifier(reader.content(of: algorithm))
    }

    /// Whether the parameters are absent or an empty primitive NULL (RFC 3370 §2.1, RFC 4055 §5).
    var hasAbsentOrNullParameters: Bool {
        guard let parameters else { return true }
        return parameters.identifier == .null && parameters.contentLength == 0
    }
}
