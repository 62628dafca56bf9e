/// What ``SignedDataStructure``'s checks established about one signedData, as byte ranges of
/// that signedData: the embedded certificates, the signer's certificate among them, the signer's
/// digest algorithm and whether it signed attributes.
///
/// The validator hands a built-in backend the ``CanonicalSignedData`` it rebuilt together with this
/// summary of it (``CanonicalSignedData/checked``), so that the backend does not read and check
/// again what the validator built from checked parts; `CanonicalSignedDataTests` proves that the
/// summary equals what the checks find when they read the canonical bytes in full.
package struct CheckedSignedData: Hashable, Sendable {
    /// The byte ranges of the embedded certificates, in order.
    package var certificates: [Range<Int>]
    /// The byte range of the signer's certificate (one of ``certificates``).
    package var signerCertificate: Range<Int>
    /// The signer's digest algorithm (SHA-1 or SHA-256).
    package var digestAlgorithm: DigestAlgorithm
    /// Whether the signer carries signed attributes.
    package var hasSignedAttributes: Bool
}
