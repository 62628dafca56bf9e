/// A CMS `SignedData` (RFC 5652 §5.1), read in place: its nodes are ranges of the reader's
/// buffer, nothing is copied. Named as swift-certificates names its reading of the same production.
///
/// ```
/// SignedData ::= SEQUENCE {
///   version           CMSVersion,
///   digestAlgorithms  DigestAlgorithmIdentifiers,
///   encapContentInfo  EncapsulatedContentInfo,
///   certificates      [0] IMPLICIT CertificateSet OPTIONAL,
///   crls              [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///   signerInfos       SignerInfos }
/// CMSVersion ::= INTEGER
/// DigestAlgorithmIdentifiers ::= SET OF DigestAlgorithmIdentifier
/// CertificateSet ::= SET OF CertificateChoices
/// SignerInfos ::= SET OF SignerInfo
/// ```
///
/// Built by ``SignedDataStructure``'s schema phase (inside a ``ContentInfo``), which bounds the
/// number of digest algorithms and SignerInfos; the certificates are checked in its phase 3 and
/// the `crls` field is only noted (receipts carry none: `not_signed`).
struct CMSSignedData: Sendable {
    /// The whole SEQUENCE.
    var node: BERNode
    /// The version INTEGER (minimal).
    var version: BERNode
    /// The digestAlgorithms SET.
    var digestAlgorithmSet: BERNode
    /// The members of ``digestAlgorithmSet``, in order.
    var digestAlgorithms: [AlgorithmIdentifier]
    /// The encapsulated content.
    var encapContentInfo: EncapsulatedContentInfo
    /// The `[0]` certificates field (constructed), when present.
    var certificateSet: BERNode?
    /// The `[1]` crls field, when present.
    var crls: BERNode?
    /// The signerInfos SET.
    var signerInfoSet: BERNode
    /// The members of ``signerInfoSet``, in order.
    var signerInfos: [SignerInfo]

    /// The embedded certificates (the members of ``certificateSet``), in order; empty when absent.
    var certificates: [BERNode] { certificateSet?.children ?? [] }
}
