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

extension CheckedSignedData {
    /// Runs the structure checks (``SignedDataStructure``) on `bytes` and returns what they
    /// establish: what a built-in backend called directly, without the validator's summary, needs
    /// to classify damaged input as the validator would.
    /// - Parameter decodeCertificate: the backend library's decoding of one embedded certificate
    ///   (its DER and its index); it throws ``ReceiptValidationError/Code/invalidCertificate``
    ///   when the library cannot decode it.
    /// - Throws: the code of the first failing check (see ``SignedDataStructure``).
    package init(
        checking bytes: [UInt8],
        decodeCertificate: ([UInt8], Int) throws(ReceiptValidationError) -> Void
    ) throws(ReceiptValidationError) {
        self = try SignedDataStructure(checking: bytes, decodeCertificate: decodeCertificate).checked
    }
}
