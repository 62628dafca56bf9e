/// A built-in backend that verifies with the ``SignedDataEnvelope`` its caller has already read
/// from the same bytes, so that one validation reads the canonical envelope once: the validator
/// reads it for the cache's fast path, the inspection before verification and the cache fill, and
/// hands it on here instead of letting the backend read it again to detach the content.
///
/// The envelope only locates parts of `bytes`; nothing in it is trusted, and every check of
/// ``CryptoBackend/verifySignedData(_:trustStore:)`` still runs on `bytes`.
package protocol SignedDataEnvelopeVerifying: CryptoBackend {
    /// ``CryptoBackend/verifySignedData(_:trustStore:)`` with `envelope`, which must be
    /// `SignedDataEnvelope(bytes)` (`nil` when `bytes` are not in the canonical shape), and with
    /// `checked`, what ``SignedDataStructure`` establishes on `bytes` when the caller knows it
    /// already (the validator's ``CanonicalSignedData/checked``; `nil`: the backend runs the checks).
    /// The result is the same as the public method's for the same bytes.
    func verifySignedData(
        _ bytes: [UInt8],
        envelope: SignedDataEnvelope?,
        checked: CheckedSignedData?,
        trustStore: any TrustStore
    ) throws(ReceiptValidationError) -> VerifiedSignedData
}
