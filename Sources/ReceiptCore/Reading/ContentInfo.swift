/// A CMS `ContentInfo` (RFC 5652 §3), the outermost production of a PKCS #7 receipt, read in
/// place: its nodes are ranges of the reader's buffer, nothing is copied.
///
/// ```
/// ContentInfo ::= SEQUENCE {
///   contentType  ContentType,
///   content      [0] EXPLICIT ANY DEFINED BY contentType OPTIONAL }
/// ContentType ::= OBJECT IDENTIFIER
/// ```
///
/// Built once per validation by ``SignedDataStructure``'s schema phase, which checks the schema as
/// it reads (a failure is `not_pkcs7`); the content is read as ``CMSSignedData`` when the type is
/// id-signedData and left unread otherwise (the usability phase then refuses it as `not_signed`).
struct ContentInfo: Sendable {
    /// The whole SEQUENCE.
    var node: BERNode
    /// The contentType OBJECT IDENTIFIER.
    var contentType: BERNode
    /// ``contentType``, dotted.
    var contentTypeOID: String
    /// The `[0] EXPLICIT` element, whose one child is the content; `nil` when absent.
    var contentField: BERNode?
    /// The content read as a signedData: present when ``contentTypeOID`` is id-signedData and
    /// ``contentField`` is present.
    var signedData: CMSSignedData?
}
