/// A CMS `EncapsulatedContentInfo` (RFC 5652 §5.2), the signed content of a ``CMSSignedData``,
/// read in place: its nodes are ranges of the reader's buffer, nothing is copied.
///
/// ```
/// EncapsulatedContentInfo ::= SEQUENCE {
///   eContentType  ContentType,
///   eContent      [0] EXPLICIT OCTET STRING OPTIONAL }
/// ContentType ::= OBJECT IDENTIFIER
/// ```
///
/// For id-data, the schema phase of ``SignedDataStructure`` also checks that the eContent is an
/// OCTET STRING, primitive or (BER) constructed of OCTET STRING segments nested at most
/// ``SignedDataLimits/maximumStringNesting`` levels deep.
struct EncapsulatedContentInfo: Sendable {
    /// The whole SEQUENCE.
    var node: BERNode
    /// The eContentType OBJECT IDENTIFIER.
    var eContentType: BERNode
    /// ``eContentType``, dotted.
    var eContentTypeOID: String
    /// The `[0] EXPLICIT` element, whose one child is the eContent; `nil` for detached content.
    var eContentField: BERNode?
    /// The eContent OCTET STRING (primitive or constructed): present when ``eContentTypeOID`` is
    /// id-data and ``eContentField`` is present.
    var eContent: BERNode?
}
