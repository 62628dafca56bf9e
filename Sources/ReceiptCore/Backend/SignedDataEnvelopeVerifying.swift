/// A built-in backend that verifies with what its caller has already read from the same bytes, so
/// that one validation reads the canonical signedData once: the validator reads the
/// ``SignedDataEnvelope`` for the cache's fast path, the inspection before verification and the
/// cache fill, knows the ``SignedDataRanges`` of the signedData it rebuilt, and hands both on
/// here instead of letting the backend read them again (to detach the content, to find the
/// embedded certificates).
///
/// Both only locate parts of `bytes`; nothing in them is trusted, and the library still decodes
/// and verifies `bytes` as ``CryptoBackend/verifySignedData(_:trustStore:)`` does.
package protocol SignedDataEnvelopeVerifying: CryptoBackend {
    /// ``CryptoBackend/verifySignedData(_:trustStore:)`` with `envelope`, which must be
    /// `SignedDataEnvelope(bytes)` (`nil` when `bytes` are not in the canonical shape), and with
    /// `ranges`, where the parts of `bytes` lie when `bytes` are the validator's
    /// ``CanonicalSignedData`` (its ``CanonicalSignedData/ranges``, of a signedData the validator's
    /// structure rules accepted); `nil`: the library finds them (a direct call). For the same bytes
    /// the result is the public method's, except that with `ranges` an embedded certificate the
    /// library cannot decode is always ``ReceiptValidationError/Code/invalidCertificate`` (a
    /// library that decodes certificates with the structure may say `not_pkcs7` without them).
    ///
    /// `content`, when given, holds the content detached from `bytes` (a
    /// ``CanonicalSignedData/isDetached`` rebuild, whose encapContentInfo has no eContent): it lies
    /// at `envelope`'s `content` range of `content` (then `envelope` and `ranges` are given), and
    /// the library verifies it as detached content, read in place. The result is the one for the
    /// attached signedData, its content verified in `content` at that range.
    func verifySignedData(
        _ bytes: [UInt8],
        content: [UInt8]?,
        envelope: SignedDataEnvelope?,
        ranges: SignedDataRanges?,
        trustStore: any TrustStore
    ) throws(ReceiptValidationError) -> VerifiedSignedData
}
