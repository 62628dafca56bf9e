/// The crypto library underneath ReceiptKit: X.509 loading, PKCS #7 signature and chain
/// verification, and SHA-1.
///
/// ReceiptKit ships two conformances, `OpenSSLBackend` and `GnuTLSBackend`, selected with package
/// traits; `Backends/SwiftCrypto` in the repository is a third, written against this public API
/// alone. The `ReceiptConformance` kit checks that ``ReceiptValidator`` classifies every fixture
/// identically on every backend.
///
/// A backend does the crypto library's work and nothing Swift can decide. ``ReceiptValidator``
/// decides the rest, once, for every backend: before the call it reads the signedData, applies
/// every structure rule and its bounds (DER-only signed attributes, string lengths, algorithms,
/// certificate encodings, chain shape), chooses each candidate certificate path and hands the
/// backend a signedData it rebuilt in strict DER (the signer's digest algorithm alone, the
/// content as one OCTET STRING, no unsigned attributes, the path's certificates leaf first; the
/// anchor is in the trust store); after the call it checks every certificate of the returned
/// ``VerifiedSignedData/signerChain`` against the verification time (RFC 5280 §4.1.2.5, both
/// bounds included) and applies Apple's chain policy (marker OIDs, chain shape). So a backend
/// applies no structure rule, checks no validity period and no extended key usage, and takes no
/// verification time; everything it needs is public.
///
/// What a backend must do:
/// - ``loadCertificate(_:)``: decode one X.509 certificate from DER or PEM and return its DER;
///   anything else throws ``ReceiptValidationError/Code/invalidCertificate``.
/// - ``makeTrustStore(anchors:)``: build a ``TrustStore`` (its own final class) for a set of
///   anchors, once, usable from many tasks at once; an empty set throws
///   ``ReceiptValidationError/Code/rootCertificateNotFound``.
/// - ``verifySignedData(_:trustStore:)``: for a PKCS #7 signedData (DER or BER, one SignerInfo,
///   id-data content, RSA PKCS #1 v1.5 with SHA-1 or SHA-256, with or without signed attributes),
///   with the library:
///   1. decode it and each embedded certificate;
///   2. find the signer's certificate among the embedded ones (issuerAndSerialNumber) and verify
///      the chain's signatures from it, through embedded certificates, up to an anchor of the
///      store (SHA-1-signed certificates accepted, for that call only, with no process-wide
///      state); a failure is ``ReceiptValidationError/Code/untrustedChain``;
///   3. only then verify the signature: over the content, or over the DER `SET` of the signed
///      attributes after checking that their messageDigest equals the content's digest; a failure
///      is ``ReceiptValidationError/Code/invalidSignature`` — so an untrusted chain is always
///      reported before a bad signature (the validator then reports a certificate time failure of
///      that chain before the signature);
///   4. return the content, the chain (leaf first, ending with the anchor; a self-signed anchor
///      that signed directly gives a chain of one), the signer's ``DigestAlgorithm`` and whether
///      it had signed attributes, as ``VerifiedSignedData``.
///   Input the library cannot decode is ``ReceiptValidationError/Code/notPKCS7`` (or
///   ``ReceiptValidationError/Code/notSigned`` for another content type, no content or not
///   exactly one signer), an embedded certificate the library cannot decode
///   ``ReceiptValidationError/Code/invalidCertificate`` (or `notPKCS7` when the library decodes
///   certificates as part of the structure), both before the chain; a failure that says nothing
///   about the input (out of memory, another backend's store) is
///   ``ReceiptValidationError/Code/backendFailure``. The library's own text goes in
///   ``ReceiptValidationError/libraryMessage``. Through the validator a backend sees only its
///   rebuild, which every backend classifies alike (the `ReceiptConformance` kit checks it).
///   Called directly, a backend may be given any bytes: it must stay bounded, never accept what
///   does not verify, and throw one of the codes above, as its library classifies the damage
///   (two libraries may classify one damaged input differently).
/// - ``sha1(_:)``: SHA-1 over the concatenation of the parts.
///
/// Optionally, a backend that verified the content where it lies in its input says so by
/// returning ``VerifiedSignedData/init(contentVerifiedIn:range:signerChain:digestAlgorithm:hasSignedAttributes:)``
/// with the content's range in that input (``VerifiedSignedData/inputContentRange``); the
/// validator then believes a receipt it parsed from that range before verification. The input
/// must hold exactly the content there, or validation fails with `backend_failure`. A backend
/// that also adopts ``SignaturePrimitives`` serves the verified-chain cache's warm path.
public protocol CryptoBackend: Sendable {
    /// A short stable name, such as `openssl` or `gnutls`.
    var name: String { get }

    /// Decodes one X.509 certificate from DER or PEM bytes.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when the library rejects the bytes.
    func loadCertificate(_ bytes: [UInt8]) throws(ReceiptValidationError) -> Certificate

    /// Builds the native trust store for a set of anchors. Call once per anchor set and reuse it.
    /// - Throws: ``ReceiptValidationError/Code/rootCertificateNotFound`` for an empty set,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` for an anchor the library rejects.
    func makeTrustStore(anchors: [Certificate]) throws(ReceiptValidationError) -> any TrustStore

    /// Verifies a PKCS #7 signedData (DER or BER): the chain's signatures from the signer's
    /// certificate up to an anchor of `trustStore`, then the signature. No validity period is
    /// checked (the validator checks the returned chain at its verification time).
    /// - Returns: the signed content bytes, the verified chain (leaf first, anchor last) and the digest algorithm.
    /// - Throws: ``ReceiptValidationError/Code/notPKCS7``, ``ReceiptValidationError/Code/notSigned``,
    ///   ``ReceiptValidationError/Code/invalidCertificate``, ``ReceiptValidationError/Code/untrustedChain``,
    ///   ``ReceiptValidationError/Code/invalidSignature`` (the chain before the signature);
    ///   ``ReceiptValidationError/Code/backendFailure``.
    func verifySignedData(_ bytes: [UInt8], trustStore: any TrustStore) throws(ReceiptValidationError) -> VerifiedSignedData

    /// SHA-1 over the concatenation of `parts`.
    func sha1(_ parts: [[UInt8]]) throws(ReceiptValidationError) -> [UInt8]
}
