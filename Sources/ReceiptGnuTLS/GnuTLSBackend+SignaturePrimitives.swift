#if GnuTLS
internal import CReceiptGnuTLS
import ReceiptCore

/// Owns one `gnutls_pubkey_t`, freed exactly once, in `deinit`.
final class GnuTLSPublicKey: @unchecked Sendable {
    // @unchecked: after import the key is only read by `gnutls_pubkey_verify_hash2`.
    let handle: OpaquePointer

    /// A new, empty key.
    /// - Throws: ``ReceiptValidationError/Code/backendFailure`` when GnuTLS cannot allocate one.
    init() throws(ReceiptValidationError) {
        var created: OpaquePointer?
        let status = gnutls_pubkey_init(&created)
        guard status >= 0, let handle = created else {
            throw ReceiptValidationError(
                .backendFailure, "GnuTLS could not allocate a public key.", libraryMessage: GnuTLSMessage.text(for: status))
        }
        self.handle = handle
    }

    deinit {
        gnutls_pubkey_deinit(handle)
    }
}

/// A certificate's public key as a `gnutls_pubkey_t`, kept for repeated verification: RSA, or EC
/// on P-256 or P-384.
///
/// After `init` the key is only read by `gnutls_pubkey_verify_hash2`, which keeps no state in
/// it, so one key may serve several tasks at once.
final class GnuTLSVerificationKey: SignatureVerificationKey, @unchecked Sendable {
    // @unchecked: `key` is set in init, only read by verifications, freed by its owner.

    /// The key's type: RSA, or EC with its field width in bytes.
    enum Kind: Equatable {
        case rsa
        case ec(width: Int)
    }

    let key: GnuTLSPublicKey
    let kind: Kind

    init(certificate: Certificate) throws(ReceiptValidationError) {
        let key = try GnuTLSPublicKey()
        try Self.importKey(of: certificate, into: key.handle)
        switch gnutls_pubkey_get_pk_algorithm(key.handle, nil) {
        case Int32(GNUTLS_PK_RSA.rawValue):
            kind = .rsa
        case Int32(GNUTLS_PK_ECDSA.rawValue):
            switch Self.curve(of: key) {
            case GNUTLS_ECC_CURVE_SECP256R1: kind = .ec(width: ECDSASignature.p256Width)
            case GNUTLS_ECC_CURVE_SECP384R1: kind = .ec(width: ECDSASignature.p384Width)
            default: throw ReceiptValidationError(.invalidCertificate, "The certificate's EC key is not on P-256 or P-384.")
            }
        default:
            throw ReceiptValidationError(.invalidCertificate, "The certificate's public key is neither RSA nor EC.")
        }
        self.key = key
    }

    /// The EC key's curve, or `nil`.
    private static func curve(of key: GnuTLSPublicKey) -> gnutls_ecc_curve_t? {
        var curve = GNUTLS_ECC_CURVE_INVALID
        var x = gnutls_datum_t(data: nil, size: 0)
        var y = gnutls_datum_t(data: nil, size: 0)
        defer {
            receipt_gnutls_free_datum(&x)
            receipt_gnutls_free_datum(&y)
        }
        let status = withExtendedLifetime(key) { gnutls_pubkey_export_ecc_raw2(key.handle, &curve, &x, &y, 0) }
        return status >= 0 ? curve : nil
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
        let importStatus = withExtendedLifetime(x509) { gnutls_pubkey_import_x509(key, x509.handle, 0) }
        guard importStatus >= 0 else {
            throw ReceiptValidationError(
                .invalidCertificate, "GnuTLS could not read the certificate's public key.",
                libraryMessage: GnuTLSMessage.text(for: importStatus))
        }
    }
}

extension GnuTLSBackend: SignaturePrimitives {
    /// Imports the certificate's public key once: RSA, or EC on P-256 or P-384.
    public func makeVerificationKey(for certificate: Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey {
        try GnuTLSVerificationKey(certificate: certificate)
    }

    /// SHA-1, SHA-256 or SHA-384 over the concatenation of `parts`.
    public func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8] {
        guard let (hash, length) = Self.hashAlgorithm(algorithm) else {
            throw ReceiptValidationError(.backendFailure, "The digest algorithm \(algorithm) is not supported.")
        }
        guard let digest = Self.digest(hash, length: length, parts) else {
            throw ReceiptValidationError(.backendFailure, "GnuTLS could not compute a \(algorithm) digest.")
        }
        return digest
    }

    /// RSASSA-PKCS1-v1_5 (SHA-1 allowed for this call) or ECDSA verification with
    /// `gnutls_pubkey_verify_hash2`. Nettle checks ECDSA's math only, so a high-`s` signature
    /// verifies as its low twin does.
    public func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        scheme: SignatureScheme,
        key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? GnuTLSVerificationKey, !signature.isEmpty, signature.count <= GnuTLSDatum.maximumSize
        else { return false }
        let algorithm: gnutls_sign_algorithm_t
        var encoded: [UInt8]
        switch (scheme, key.kind) {
        case (.rsaPKCS1v15(.sha1), .rsa): (algorithm, encoded) = (GNUTLS_SIGN_RSA_SHA1, Array(signature))
        case (.rsaPKCS1v15(.sha256), .rsa): (algorithm, encoded) = (GNUTLS_SIGN_RSA_SHA256, Array(signature))
        case (.ecdsa(let digest), .ec(let width)) where digest == .sha256 || digest == .sha384:
            // gnutls_pubkey_verify_hash2 takes the DER ECDSA-Sig-Value; the scheme's is raw r ‖ s.
            guard signature.count == 2 * width, let der = ECDSASignature.der(fromRaw: signature) else { return false }
            (algorithm, encoded) = (digest == .sha256 ? GNUTLS_SIGN_ECDSA_SHA256 : GNUTLS_SIGN_ECDSA_SHA384, der)
        default:
            return false
        }
        guard let (hash, length) = Self.hashAlgorithm(scheme.digest), var hashed = Self.digest(hash, length: length, message)
        else { return false }
        let flags = key.kind == .rsa ? UInt32(GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue) : 0
        let status = withExtendedLifetime(key) { () -> Int32 in
            hashed.withUnsafeMutableBufferPointer { hashBuffer in
                encoded.withUnsafeMutableBufferPointer { signatureBuffer in
                    var hashDatum = gnutls_datum_t(data: hashBuffer.baseAddress, size: UInt32(hashBuffer.count))
                    var signatureDatum = gnutls_datum_t(data: signatureBuffer.baseAddress, size: UInt32(signatureBuffer.count))
                    return gnutls_pubkey_verify_hash2(key.key.handle, algorithm, flags, &hashDatum, &signatureDatum)
                }
            }
        }
        return status >= 0
    }

    private static func hashAlgorithm(_ algorithm: DigestAlgorithm) -> (gnutls_digest_algorithm_t, Int)? {
        switch algorithm {
        case .sha1: (GNUTLS_DIG_SHA1, 20)
        case .sha256: (GNUTLS_DIG_SHA256, 32)
        case .sha384: (GNUTLS_DIG_SHA384, 48)
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
