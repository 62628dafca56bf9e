#if OpenSSL
internal import CReceiptOpenSSL
import ReceiptCore

/// A leaf certificate's public key as an OpenSSL `EVP_PKEY`, kept for repeated verification.
///
/// OpenSSL documents an `EVP_PKEY` as safe to use from several threads at once for operations
/// that do not modify it (verification creates its own `EVP_MD_CTX` / `EVP_PKEY_CTX` per call).
final class OpenSSLVerificationKey: SignatureVerificationKey, @unchecked Sendable {
    // @unchecked: `key` is set in init, only read by verifications, freed in deinit.
    let key: OpaquePointer

    init(certificate: Certificate) throws(ReceiptValidationError) {
        let x509 = try OpenSSLCertificates.decode(certificate.derBytes)
        defer { X509_free(x509) }
        // X509_get_pubkey returns a new reference, released in deinit.
        guard let key = X509_get_pubkey(x509) else {
            throw ReceiptValidationError(
                .invalidCertificate, "OpenSSL could not read the certificate's public key.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }
}

extension OpenSSLBackend: SignaturePrimitives {
    /// Imports the certificate's public key once.
    public func makeVerificationKey(for certificate: Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey {
        OpenSSLErrorQueue.clear()
        return try OpenSSLVerificationKey(certificate: certificate)
    }

    /// SHA-1 or SHA-256 over the concatenation of `parts`.
    public func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let md = Self.messageDigest(algorithm) else {
            throw ReceiptValidationError(.backendFailure, "The digest algorithm \(algorithm) is not supported.")
        }
        guard let context = EVP_MD_CTX_new() else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not allocate a digest context.", libraryMessage: OpenSSLErrorQueue.message())
        }
        defer { EVP_MD_CTX_free(context) }
        var ok = EVP_DigestInit_ex(context, md, nil) == 1
        for part in parts where ok && !part.isEmpty {
            ok = part.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        if ok {
            ok = output.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) } == 1
        }
        guard ok else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not compute a \(algorithm) digest.", libraryMessage: OpenSSLErrorQueue.message())
        }
        return Array(output.prefix(Int(length)))
    }

    /// RSASSA-PKCS1-v1_5 verification with `EVP_DigestVerify*` (the padding and DigestInfo checks
    /// `PKCS7_verify` itself uses).
    public func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? OpenSSLVerificationKey, let md = Self.messageDigest(digest), !signature.isEmpty else {
            return false
        }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return withExtendedLifetime(key) { () -> Bool in
            guard EVP_DigestVerifyInit(context, nil, md, nil, key.key) == 1,
                  EVP_PKEY_get_base_id(key.key) == EVP_PKEY_RSA
            else { return false }
            for part in message where !part.isEmpty {
                guard part.withUnsafeBytes({ EVP_DigestVerifyUpdate(context, $0.baseAddress, $0.count) }) == 1 else {
                    return false
                }
            }
            return signature.withUnsafeBytes { buffer -> Bool in
                guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
                return EVP_DigestVerifyFinal(context, base, buffer.count) == 1
            }
        }
    }

    private static func messageDigest(_ algorithm: DigestAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .other: nil
        }
    }
}
#endif
