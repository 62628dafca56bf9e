#if GnuTLS
internal import CReceiptGnuTLS
import ReceiptCore

/// A leaf certificate's public key as a `gnutls_pubkey_t`, kept for repeated verification.
///
/// After `init` the key is only read by `gnutls_pubkey_verify_hash2`, which keeps no state in
/// it, so one key may serve several tasks at once.
final class GnuTLSVerificationKey: SignatureVerificationKey, @unchecked Sendable {
    // @unchecked: `key` is set in init, only read by verifications, freed in deinit.
    let key: OpaquePointer

    init(certificate: Certificate) throws(ReceiptValidationError) {
        var created: OpaquePointer?
        let initStatus = gnutls_pubkey_init(&created)
        guard initStatus >= 0, let key = created else {
            throw ReceiptValidationError(
                .backendFailure, "GnuTLS could not allocate a public key.", libraryMessage: GnuTLSMessage.text(for: initStatus))
        }
        do throws(ReceiptValidationError) {
            try Self.importKey(of: certificate, into: key)
        } catch {
            gnutls_pubkey_deinit(key)
            throw error
        }
        guard gnutls_pubkey_get_pk_algorithm(key, nil) == Int32(GNUTLS_PK_RSA.rawValue) else {
            gnutls_pubkey_deinit(key)
            throw ReceiptValidationError(.invalidCertificate, "The certificate's public key is not an RSA key.")
        }
        self.key = key
    }

    /// Imports the certificate's public key into `key`: straight from the RSA modulus and
    /// exponent when the SubjectPublicKeyInfo is in the plain rsaEncryption form
    /// (``RSAPublicKeyLocator``), otherwise by importing the whole certificate.
    private static func importKey(of certificate: Certificate, into key: OpaquePointer) throws(ReceiptValidationError) {
        let der = certificate.derBytes
        if let components = RSAPublicKeyLocator.components(ofCertificate: der),
           components.modulus.count <= GnuTLSDatum.maximumSize, components.exponent.count <= GnuTLSDatum.maximumSize {
            // gnutls_pubkey_import_rsa_raw only reads the datums (const) and copies the numbers.
            let status = der.withUnsafeBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress.map(UnsafeMutablePointer.init(mutating:)) else { return -1 }
                var modulus = gnutls_datum_t(data: base + components.modulus.lowerBound, size: UInt32(components.modulus.count))
                var exponent = gnutls_datum_t(data: base + components.exponent.lowerBound, size: UInt32(components.exponent.count))
                return gnutls_pubkey_import_rsa_raw(key, &modulus, &exponent)
            }
            if status >= 0 { return }
        }
        let x509 = try GnuTLSX509Certificate(bytes: der)
        let importStatus = gnutls_pubkey_import_x509(key, x509.handle, 0)
        guard importStatus >= 0 else {
            throw ReceiptValidationError(
                .invalidCertificate, "GnuTLS could not read the certificate's public key.",
                libraryMessage: GnuTLSMessage.text(for: importStatus))
        }
    }

    deinit {
        gnutls_pubkey_deinit(key)
    }
}

extension GnuTLSBackend: SignaturePrimitives {
    /// Imports the certificate's public key once (RSA only).
    public func makeVerificationKey(for certificate: Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey {
        try GnuTLSVerificationKey(certificate: certificate)
    }

    /// SHA-1 or SHA-256 over the concatenation of `parts`.
    public func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8] {
        guard let (hash, length) = Self.hashAlgorithm(algorithm) else {
            throw ReceiptValidationError(.backendFailure, "The digest algorithm \(algorithm) is not supported.")
        }
        guard let digest = Self.digest(hash, length: length, parts) else {
            throw ReceiptValidationError(.backendFailure, "GnuTLS could not compute a \(algorithm) digest.")
        }
        return digest
    }

    /// RSASSA-PKCS1-v1_5 verification with `gnutls_pubkey_verify_hash2` (SHA-1 allowed for this call).
    public func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        digest: DigestAlgorithm,
        key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? GnuTLSVerificationKey, let (hash, length) = Self.hashAlgorithm(digest),
              !signature.isEmpty, signature.count <= GnuTLSDatum.maximumSize,
              var hashed = Self.digest(hash, length: length, message)
        else { return false }
        let algorithm = digest == .sha1 ? GNUTLS_SIGN_RSA_SHA1 : GNUTLS_SIGN_RSA_SHA256
        let flags = UInt32(GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue)
        let status = withExtendedLifetime(key) { () -> Int32 in
            hashed.withUnsafeMutableBufferPointer { hashBuffer in
                var signatureCopy = Array(signature)
                return signatureCopy.withUnsafeMutableBufferPointer { signatureBuffer in
                    var hashDatum = gnutls_datum_t(data: hashBuffer.baseAddress, size: UInt32(hashBuffer.count))
                    var signatureDatum = gnutls_datum_t(data: signatureBuffer.baseAddress, size: UInt32(signatureBuffer.count))
                    return gnutls_pubkey_verify_hash2(key.key, algorithm, flags, &hashDatum, &signatureDatum)
                }
            }
        }
        return status >= 0
    }

    private static func hashAlgorithm(_ algorithm: DigestAlgorithm) -> (gnutls_digest_algorithm_t, Int)? {
        switch algorithm {
        case .sha1: (GNUTLS_DIG_SHA1, 20)
        case .sha256: (GNUTLS_DIG_SHA256, 32)
        case .other: nil
        }
    }

    private static func digest(_ hash: gnutls_digest_algorithm_t, length: Int, _ parts: [ArraySlice<UInt8>]) -> [UInt8]? {
        var created: OpaquePointer?
        guard gnutls_hash_init(&created, hash) >= 0, let context = created else { return nil }
        var failed = false
        for part in parts where !failed && !part.isEmpty {
            failed = part.withUnsafeBytes { gnutls_hash(context, $0.baseAddress, $0.count) } < 0
        }
        var output = [UInt8](repeating: 0, count: length)
        output.withUnsafeMutableBytes { gnutls_hash_deinit(context, $0.baseAddress) }
        return failed ? nil : output
    }
}
#endif
