/// A public key a backend imported once from a verified certificate and keeps for repeated
/// signature checks (the verified-chain cache's fast path).
///
/// Backends return their own final class, which owns the library handle (`EVP_PKEY`,
/// `gnutls_pubkey_t`) and frees it in `deinit`. It must be usable from many tasks at once.
public protocol SignatureVerificationKey: AnyObject, Sendable {}

/// The lower-level operations the verified-chain cache needs from a backend: import a leaf's key
/// once, digest, and verify one RSA signature with a kept key.
///
/// ``ReceiptValidator`` uses them only on its fast path, for a receipt whose certificate chain it
/// already verified in full with ``CryptoBackend/verifySignedData(_:trustStore:)`` (the
/// reference path). A backend that does not adopt this protocol still works: every receipt then
/// takes the full path.
public protocol SignaturePrimitives: CryptoBackend {
    /// Imports the subject public key of `certificate` (DER) for ``verifySignature(_:of:digest:key:)``.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when the library rejects it.
    func makeVerificationKey(for certificate: Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey

    /// The digest of the concatenation of `parts` (SHA-1 or SHA-256).
    /// - Throws: ``ReceiptValidationError/Code/backendFailure`` for another algorithm or a library failure.
    func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8]

    /// Whether `signature` is a valid RSASSA-PKCS1-v1_5 signature with `digest` over the
    /// concatenation of `message`, made by `key` (a key this backend made). SHA-1 is accepted for
    /// this call only. Any failure, including a key from another backend, is `false`.
    func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        key: any SignatureVerificationKey
    ) -> Bool
}
