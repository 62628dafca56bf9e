#if OpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CReceiptOpenSSL
import ReceiptCore

/// The ``CryptoBackend`` built on OpenSSL 3 (`libcrypto`).
///
/// Verifies PKCS #7 signedData (DER or BER) with `d2i_PKCS7`, `X509_verify_cert` and
/// `PKCS7_verify`, loads certificates with `d2i_X509` / `PEM_read_bio_X509`, and hashes with
/// `EVP_Digest*`. It keeps no state and changes no process-wide OpenSSL setting: the flags, the
/// "any" purpose and the trust anchors apply to one verification context at a time.
/// Each call starts by clearing the calling thread's OpenSSL error queue, and a failure carries
/// the whole drained queue in ``ReceiptValidationError/libraryMessage``.
public final class OpenSSLBackend: CryptoBackend, SignedDataEnvelopeVerifying {
    /// Whether each verification key keeps one verify context per verifying thread
    /// (``OpenSSLContextSlots``); `false` only for the tests that hold both ways to one verdict.
    package let keepsThreadContexts: Bool

    /// Creates the backend. It is stateless; one instance can serve every task.
    public init() {
        keepsThreadContexts = true
    }

    /// A backend whose verification keys duplicate their template context for every signature.
    package init(keepsThreadContexts: Bool) {
        self.keepsThreadContexts = keepsThreadContexts
    }

    /// `openssl`.
    public var name: String { "openssl" }

    /// Decodes one X.509 certificate from DER or PEM and returns its DER encoding.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when OpenSSL rejects the bytes.
    public func loadCertificate(_ bytes: [UInt8]) throws(ReceiptValidationError) -> Certificate {
        OpenSSLErrorQueue.clear()
        let certificate = try OpenSSLCertificates.decode(bytes)
        return Certificate(derBytes: try OpenSSLCertificates.derBytes(of: certificate))
    }

    /// Builds one `X509_STORE` holding `anchors`, to be reused for every verification.
    /// - Throws: ``ReceiptValidationError/Code/rootCertificateNotFound`` for an empty set,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` for an anchor OpenSSL rejects.
    public func makeTrustStore(anchors: [Certificate]) throws(ReceiptValidationError) -> any TrustStore {
        OpenSSLErrorQueue.clear()
        return try OpenSSLTrustStore(anchors: anchors)
    }

    /// Verifies a PKCS #7 signedData (DER or BER) against `trustStore`.
    ///
    /// OpenSSL decodes the structure (`d2i_PKCS7`, DER or BER) and finds the signer's certificate
    /// among the embedded ones; the structure rules are the validator's, before the call. The chain
    /// is then built from the embedded certificates (as untrusted intermediates only) to the
    /// store's anchors without time checks (`X509_V_FLAG_NO_CHECK_TIME`: the validator checks the
    /// returned chain at its verification time); the signature (over the content, or over the
    /// signed attributes and their messageDigest) is checked last. Extended key usage is not checked.
    /// - Throws: ``ReceiptValidationError/Code/notPKCS7`` (what OpenSSL cannot decode, an embedded
    ///   certificate included), ``ReceiptValidationError/Code/notSigned``,
    ///   ``ReceiptValidationError/Code/untrustedChain``, ``ReceiptValidationError/Code/invalidSignature``,
    ///   in that order of precedence; ``ReceiptValidationError/Code/backendFailure`` for another
    ///   backend's trust store or an OpenSSL failure unrelated to the input.
    public func verifySignedData(_ bytes: [UInt8], trustStore: any TrustStore) throws(ReceiptValidationError) -> VerifiedSignedData {
        try verifySignedData(bytes, content: nil, envelope: SignedDataEnvelope(bytes), ranges: nil, trustStore: trustStore)
    }

    /// ``verifySignedData(_:trustStore:)`` with the envelope the caller read from `bytes`
    /// (`SignedDataEnvelope(bytes)`), which locates the content and certificates to detach, and
    /// where the parts of `bytes` lie when the validator rebuilt them (``SignedDataEnvelopeVerifying``;
    /// `nil`: OpenSSL finds them). `content`: the content detached from `bytes`, verified as
    /// detached content read in place (``SignedDataEnvelopeVerifying``).
    package func verifySignedData(
        _ bytes: [UInt8],
        content: [UInt8]?,
        envelope: SignedDataEnvelope?,
        ranges: SignedDataRanges?,
        trustStore: any TrustStore
    ) throws(ReceiptValidationError) -> VerifiedSignedData {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let store = trustStore as? OpenSSLTrustStore else {
            throw ReceiptValidationError(
                .backendFailure, "The trust store was not made by the OpenSSL backend.")
        }
        return try withExtendedLifetime(store) { () throws(ReceiptValidationError) -> VerifiedSignedData in
            try OpenSSLSignedDataVerifier.verify(
                bytes, content: content, envelope: envelope, ranges: ranges, store: store.store, anchors: store.anchors)
        }
    }

    /// SHA-1 over the concatenation of `parts`.
    public func sha1(_ parts: [[UInt8]]) throws(ReceiptValidationError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let owner = OpenSSLDigestContext() else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not allocate a digest context.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        let context = owner.handle
        defer { withExtendedLifetime(owner) {} }
        guard EVP_DigestInit_ex(context, EVP_sha1(), nil) == 1 else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not start a SHA-1 digest.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        for part in parts where !part.isEmpty {
            let updated = part.withUnsafeBytes { buffer in
                EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
            }
            guard updated == 1 else {
                throw ReceiptValidationError(
                    .backendFailure, "OpenSSL could not update a SHA-1 digest.",
                    libraryMessage: OpenSSLErrorQueue.message())
            }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let finished = digest.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
        }
        guard finished == 1, length == 20 else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not finish a SHA-1 digest.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        return Array(digest.prefix(Int(length)))
    }
}
#endif
