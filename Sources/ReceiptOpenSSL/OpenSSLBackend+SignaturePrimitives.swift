#if OpenSSL
internal import CReceiptOpenSSL
import ReceiptCore

/// A leaf certificate's public key as an OpenSSL `EVP_PKEY`, kept for repeated verification,
/// with everything a verification needs prepared once: the SHA-1 and SHA-256 implementations
/// fetched explicitly (no per-call algorithm lookup) and one verify context per digest, set up for
/// RSASSA-PKCS1-v1_5, that each verification duplicates.
///
/// The handles are only read after `init` (`EVP_PKEY_CTX_dup` copies a template; digests run in a
/// per-call `EVP_MD_CTX`), so one key serves several threads at once. Everything is freed in `deinit`.
final class OpenSSLVerificationKey: SignatureVerificationKey, @unchecked Sendable {
    // @unchecked: the pointers are set in init, only read by verifications, freed in deinit.
    let key: OpaquePointer
    private let sha1: OpaquePointer
    private let sha256: OpaquePointer
    private let sha1Template: OpaquePointer
    private let sha256Template: OpaquePointer

    init(certificate: Certificate) throws(ReceiptValidationError) {
        let key = try Self.publicKey(of: certificate)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            EVP_PKEY_free(key)
            throw ReceiptValidationError(.invalidCertificate, "The certificate's public key is not an RSA key.")
        }
        let sha1 = EVP_MD_fetch(nil, "SHA1", nil)
        let sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        let sha1Template = sha1.flatMap { Self.template(key, $0) }
        let sha256Template = sha256.flatMap { Self.template(key, $0) }
        guard let sha1, let sha256, let sha1Template, let sha256Template else {
            let message = OpenSSLErrorQueue.message()
            EVP_PKEY_CTX_free(sha1Template)
            EVP_PKEY_CTX_free(sha256Template)
            EVP_MD_free(sha1)
            EVP_MD_free(sha256)
            EVP_PKEY_free(key)
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not prepare RSA verification.", libraryMessage: message)
        }
        self.key = key
        self.sha1 = sha1
        self.sha256 = sha256
        self.sha1Template = sha1Template
        self.sha256Template = sha256Template
    }

    /// The certificate's public key (a new reference the caller owns). An RSA key is built
    /// straight from its modulus and exponent when the SubjectPublicKeyInfo is in the plain
    /// rsaEncryption form; anything else is decoded with `d2i_X509` and `X509_get_pubkey`.
    private static func publicKey(of certificate: Certificate) throws(ReceiptValidationError) -> OpaquePointer {
        let der = certificate.derBytes
        if let components = RSAPublicKeyLocator.components(ofCertificate: der) {
            let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                guard let base = buffer.baseAddress else { return nil }
                return receipt_rsa_public_key(
                    base + components.modulus.lowerBound, Int32(components.modulus.count),
                    base + components.exponent.lowerBound, Int32(components.exponent.count))
            }
            if let key { return key }
            OpenSSLErrorQueue.clear()
        }
        let x509 = try OpenSSLCertificates.decode(der)
        defer { X509_free(x509) }
        // X509_get_pubkey returns a new reference.
        guard let key = X509_get_pubkey(x509) else {
            throw ReceiptValidationError(
                .invalidCertificate, "OpenSSL could not read the certificate's public key.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        return key
    }

    deinit {
        EVP_PKEY_CTX_free(sha1Template)
        EVP_PKEY_CTX_free(sha256Template)
        EVP_MD_free(sha1)
        EVP_MD_free(sha256)
        EVP_PKEY_free(key)
    }

    /// A verify context for `md` with PKCS #1 v1.5 padding, or nil.
    private static func template(_ key: OpaquePointer, _ md: OpaquePointer) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1,
              EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
              EVP_PKEY_CTX_set_signature_md(context, md) == 1
        else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return context
    }

    /// Whether `signature` verifies over the concatenation of `message` with `algorithm`.
    func verify(_ signature: ArraySlice<UInt8>, of message: [ArraySlice<UInt8>], algorithm: DigestAlgorithm) -> Bool {
        let md: OpaquePointer
        let template: OpaquePointer
        switch algorithm {
        case .sha1: (md, template) = (sha1, sha1Template)
        case .sha256: (md, template) = (sha256, sha256Template)
        case .other: return false
        }
        guard let digestContext = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(digestContext) }
        guard EVP_DigestInit_ex2(digestContext, md, nil) == 1 else { return false }
        for part in message where !part.isEmpty {
            guard part.withUnsafeBytes({ EVP_DigestUpdate(digestContext, $0.baseAddress, $0.count) }) == 1 else {
                return false
            }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard digest.withUnsafeMutableBufferPointer({ EVP_DigestFinal_ex(digestContext, $0.baseAddress, &length) }) == 1,
              let context = EVP_PKEY_CTX_dup(template)
        else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        return signature.withUnsafeBytes { signatureBuffer -> Bool in
            guard let base = signatureBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            return digest.withUnsafeBufferPointer { digestBuffer in
                EVP_PKEY_verify(context, base, signatureBuffer.count, digestBuffer.baseAddress, Int(length)) == 1
            }
        }
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

    /// RSASSA-PKCS1-v1_5 verification with `EVP_PKEY_verify` and the signature digest set (the
    /// padding and DigestInfo checks `PKCS7_verify` itself uses, through `EVP_VerifyFinal`).
    public func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? OpenSSLVerificationKey, !signature.isEmpty else { return false }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return withExtendedLifetime(key) { key.verify(signature, of: message, algorithm: digest) }
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
