/// A CMS `SignerInfo` (RFC 5652 §5.3) with its attributes, read in place: its nodes are ranges of
/// the reader's buffer, nothing is copied.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///   version             CMSVersion,
///   sid                 SignerIdentifier,
///   digestAlgorithm     DigestAlgorithmIdentifier,
///   signedAttrs         [0] IMPLICIT SignedAttributes OPTIONAL,
///   signatureAlgorithm  SignatureAlgorithmIdentifier,
///   signature           SignatureValue,
///   unsignedAttrs       [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// SignerIdentifier ::= CHOICE {
///   issuerAndSerialNumber  IssuerAndSerialNumber,
///   subjectKeyIdentifier   [0] SubjectKeyIdentifier }     -- not read: receipts name the issuer
/// IssuerAndSerialNumber ::= SEQUENCE {
///   issuer        Name,
///   serialNumber  CertificateSerialNumber }
/// SignedAttributes ::= SET SIZE (1..MAX) OF Attribute
/// UnsignedAttributes ::= SET SIZE (1..MAX) OF Attribute
/// SignatureValue ::= OCTET STRING
/// ```
///
/// Built by ``SignedDataStructure``'s schema phase, which checks the version and serial number
/// are minimal INTEGERs, the issuer a well-formed Name, both algorithms ``AlgorithmIdentifier``s,
/// the signature a primitive OCTET STRING and each attribute set an ``CMSAttributes``.
struct SignerInfo: Sendable {
    /// The whole SEQUENCE.
    var node: BERNode
    /// The version INTEGER.
    var version: BERNode
    /// The sid, an IssuerAndSerialNumber SEQUENCE.
    var sid: BERNode
    /// The sid's issuer Name.
    var issuer: BERNode
    /// The sid's serialNumber INTEGER.
    var serialNumber: BERNode
    /// The digestAlgorithm.
    var digestAlgorithm: AlgorithmIdentifier
    /// The `[0] IMPLICIT` signedAttrs, when present.
    var signedAttributes: CMSAttributes?
    /// The signatureAlgorithm.
    var signatureAlgorithm: AlgorithmIdentifier
    /// The signature OCTET STRING (primitive).
    var signature: BERNode
    /// The `[1] IMPLICIT` unsignedAttrs, when present.
    var unsignedAttributes: CMSAttributes?
}
