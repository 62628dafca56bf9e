/// A public key a backend imported once from a certificate and keeps for repeated signature
/// checks: a receipt leaf's RSA key (the verified-chain cache's fast path), a JWS chain's EC keys.
///
/// Backends return their own final class, which owns the library handle (`EVP_PKEY`,
/// `gnutls_pubkey_t`) and frees it in `deinit`. It must be usable from many tasks at once.
public protocol SignatureVerificationKey: AnyObject, Sendable {}

/// The lower-level operations the verified-chain cache and the JWS pipeline need from a backend:
/// import a certificate's public key once, digest, and verify one signature with a kept key.
///
/// ``ReceiptValidator`` uses them on the receipt fast path, for a receipt whose certificate chain
/// it already verified in full with ``CryptoBackend/verifySignedData(_:trustStore:)`` (the
/// reference path), and for every signature of a JWS (each chain certificate's, by its issuer's
/// key, and the token's). A backend that does not adopt this protocol still verifies receipts
/// (every receipt then takes the full path); it cannot verify a JWS (`backend_failure`).
///
/// What a backend must do:
/// - ``makeVerificationKey(for:)``: import the SubjectPublicKeyInfo of a DER certificate: an RSA
///   key, or an EC key on P-256 or P-384 (named curve); anything else throws
///   ``ReceiptValidationError/Code/invalidCertificate``.
/// - ``digest(_:of:)``: SHA-1, SHA-256 and SHA-384.
/// - ``verifySignature(_:of:scheme:key:)``: RSASSA-PKCS1-v1_5 with SHA-1 or SHA-256 (SHA-1 accepted
///   for this call, with no process-wide setting), and ECDSA with SHA-256 or SHA-384 over a raw
///   `r ‖ s` signature of exactly twice the curve's field width, with the math alone: a high `s`
///   (greater than half the group order) is as valid as its low twin, as in FIPS 186-4 (no
///   malleability rule). A scheme that does not fit the key's type is `false`.
public protocol SignaturePrimitives: CryptoBackend {
    /// Imports the subject public key of `certificate` (DER) for ``verifySignature(_:of:scheme:key:)``:
    /// RSA, or EC on P-256 or P-384.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when the library rejects the
    ///   certificate or its key is of another type or curve.
    func makeVerificationKey(for certificate: Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey

    /// The digest of the concatenation of `parts` (SHA-1, SHA-256 or SHA-384).
    /// - Throws: ``ReceiptValidationError/Code/backendFailure`` for another algorithm or a library failure.
    func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8]

    /// Whether `signature` is a valid signature under `scheme` over the concatenation of
    /// `message`, made by `key` (a key this backend made). For ``SignatureScheme/ecdsa(_:)``,
    /// `signature` is raw `r ‖ s` (64 bytes for a P-256 key, 96 for P-384); any other length is
    /// `false`. Any failure, including a key from another backend or of the wrong type, is `false`.
    func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        scheme: SignatureScheme,
        key: any SignatureVerificationKey
    ) -> Bool
}
