/// A SignerInfo's signed or unsigned attributes (RFC 5652 §5.3), read in place: its nodes are
/// ranges of the reader's buffer, nothing is copied.
///
/// ```
/// SignedAttributes ::= SET SIZE (1..MAX) OF Attribute      -- as [0] IMPLICIT
/// UnsignedAttributes ::= SET SIZE (1..MAX) OF Attribute    -- as [1] IMPLICIT
/// Attribute ::= SEQUENCE {
///   attrType    OBJECT IDENTIFIER,
///   attrValues  SET OF AttributeValue }
/// AttributeValue ::= ANY
/// ```
///
/// Built by ``SignedDataStructure``'s schema phase, which checks the set is constructed, not
/// empty, holds at most ``SignedDataLimits/maximumAttributes`` attributes, and that every one is
/// an OID and a non-empty SET of well-formed values. Whether signed attributes are DER, and which
/// attributes they hold, is its phase 4.
struct CMSAttributes: Sendable {
    /// One `Attribute`.
    struct Attribute: Sendable {
        /// The whole SEQUENCE.
        var node: BERNode
        /// The attrType OBJECT IDENTIFIER.
        var type: BERNode
        /// The attrValues SET's members, in order (at least one).
        var values: [BERNode]

        /// The attribute `node`, or `nil` when it has not two children; the schema checks the rest.
        init?(_ node: BERNode) {
            guard node.children.count == 2 else { return nil }
            self.node = node
            self.type = node.children[0]
            self.values = node.children[1].children
        }
    }

    /// The whole `[n] IMPLICIT SET OF` element (its encoding, with the `[0]` identifier, is what
    /// the DER rule for signed attributes reads).
    var node: BERNode
    /// The attributes, in encoded order.
    var attributes: [Attribute]
}
