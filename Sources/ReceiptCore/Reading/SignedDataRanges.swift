/// Where the parts a backend verifies lie in one signedData, as byte ranges of it: the embedded
/// certificates, the signer's certificate among them, and what the SignerInfo names (its digest
/// algorithm, whether it carries signed attributes).
///
/// ```
/// SignedData ::= SEQUENCE { ...,
///   certificates [0] IMPLICIT SET OF Certificate,   -- certificates, signerCertificate
///   signerInfos SET { SignerInfo SEQUENCE { ...,
///     digestAlgorithm AlgorithmIdentifier,          -- digestAlgorithm
///     signedAttrs [0] IMPLICIT SET OF Attribute OPTIONAL, ... } } }  -- hasSignedAttributes
/// ```
///
/// A value of what was read, not of what was checked: the validator reads it once with the rest of
/// the input (``SignedDataStructure/ranges``) and knows it for the signedData it rebuilds
/// (``CanonicalSignedData/ranges``), and hands it to a built-in backend with those bytes
/// (``SignedDataEnvelopeVerifying``) so that the backend does not look for the same parts again.
/// `CanonicalSignedDataTests` proves that the ranges of a rebuild equal those read from its bytes.
package struct SignedDataRanges: Hashable, Sendable {
    /// The byte ranges of the embedded certificates, in order.
    package var certificates: [Range<Int>]
    /// The byte range of the signer's certificate (one of ``certificates``).
    package var signerCertificate: Range<Int>
    /// The signer's digest algorithm.
    package var digestAlgorithm: DigestAlgorithm
    /// Whether the signer carries signed attributes.
    package var hasSignedAttributes: Bool
}
