#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The crypto library underneath ReceiptKit: PKCS #7 verification, X.509 loading and SHA-1.
///
/// ReceiptKit ships two conformances, `OpenSSLBackend` and `GnuTLSBackend`, selected with package
/// traits. Everything above this protocol (loading, parsing, Apple policy) is backend-agnostic, and
/// the `ReceiptConformance` kit checks that every backend classifies every fixture identically.
///
/// ``ReceiptValidator`` never hands a backend the sender's bytes: it checks the structure and
/// its bounds first and passes a signedData it rebuilt in strict DER with the signer's digest
/// algorithm alone, the content as one OCTET STRING, no unsigned attributes and the certificates
/// of one candidate path (leaf first; the anchor is in the trust store), trying each candidate
/// path in turn. A backend may still be called directly with any bytes, and must stay bounded.
///
/// Contract:
/// - Certificates load from DER or PEM; anything else throws ``ReceiptValidationError/Code/invalidCertificate``.
/// - ``verifySignedData(_:trustStore:at:)`` accepts DER and BER signedData, SHA-1 and SHA-256 RSA
///   signatures, with or without signed attributes; it builds the chain from the embedded
///   certificates to the store's anchors and checks every chain certificate's validity at `time`
///   (never at "now" unless asked), notBefore and notAfter seconds included (RFC 5280 §4.1.2.5);
///   it accepts SHA-1-signed chains for that call only, and changes no process-wide state.
/// - Signed attributes that are not DER throughout are `invalid_signature` (each library verifies
///   over its own re-encoding of them), and a BMPString or UniversalString that is not a whole
///   number of characters anywhere in the SignerInfo is `not_pkcs7`. The built-in backends share
///   these rules (`SignedDataStructure`, `ValidityPeriod`); the conformance manifest's `edge/`
///   cases hold every backend to them. It does not check extended key usage: Apple's policy (marker OIDs,
///   chain shape) runs once, in Swift, over the returned ``VerifiedSignedData/signerChain``.
/// - A backend that verified the content where it lies in its input says so by returning
///   ``VerifiedSignedData/init(contentVerifiedIn:range:signerChain:digestAlgorithm:hasSignedAttributes:)``
///   with the content's range in that input (``VerifiedSignedData/inputContentRange``); the
///   validator then believes a receipt it parsed from that range before verification. The input
///   must hold exactly the content there, or validation fails with `backend_failure`.
/// - Failures map to the same ``ReceiptValidationError/Code`` on every backend, decided by what
///   the adapter checks, with the library's own text in ``ReceiptValidationError/libraryMessage``:
///   ``ReceiptValidationError/Code/notPKCS7``, ``ReceiptValidationError/Code/notSigned``,
///   ``ReceiptValidationError/Code/untrustedChain``, ``ReceiptValidationError/Code/invalidSignature``,
///   ``ReceiptValidationError/Code/certificateExpired``, ``ReceiptValidationError/Code/certificateNotYetValid``.
///   When several apply, the order of precedence is: not PKCS #7, not signed, untrusted chain,
///   certificate time, signature.
public protocol CryptoBackend: Sendable {
    /// A short stable name: `openssl` or `gnutls`.
    var name: String { get }

    /// Decodes one X.509 certificate from DER or PEM bytes.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when the library rejects the bytes.
    func loadCertificate(_ bytes: [UInt8]) throws(ReceiptValidationError) -> Certificate

    /// Builds the native trust store for a set of anchors. Call once per anchor set and reuse it.
    /// - Throws: ``ReceiptValidationError/Code/rootCertificateNotFound`` for an empty set,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` for an anchor the library rejects.
    func makeTrustStore(anchors: [Certificate]) throws(ReceiptValidationError) -> any TrustStore

    /// Verifies a PKCS #7 signedData (DER or BER) against `trustStore` at `time`.
    /// - Returns: the signed content bytes, the verified chain (leaf first, anchor last) and the digest algorithm.
    func verifySignedData(
        _ bytes: [UInt8],
        trustStore: any TrustStore,
        at time: Date
    ) throws(ReceiptValidationError) -> VerifiedSignedData

    /// SHA-1 over the concatenation of `parts`.
    func sha1(_ parts: [[UInt8]]) throws(ReceiptValidationError) -> [UInt8]
}
