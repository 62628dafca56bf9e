#if OpenSSL
internal import CReceiptOpenSSL
import ReceiptCore

/// One digest prepared for verification with one key: the digest implementation fetched once
/// (no per-call algorithm lookup) and a verify context set up for it, which each verification
/// duplicates (`EVP_PKEY_CTX_dup` copies a template; the template itself is only read).
final class OpenSSLPreparedDigest: @unchecked Sendable {
    // @unchecked: both owners are only read after init.
    let md: OpenSSLMessageDigest
    let template: OpenSSLKeyContext
    private let rsaPadding: Bool

    /// `nil` when OpenSSL cannot fetch `name` or set up the context (`rsaPadding`: PKCS #1 v1.5 for RSA).
    init?(_ name: String, key: OpenSSLPublicKey, rsaPadding: Bool) {
        guard let md = OpenSSLMessageDigest(fetching: name),
              let created = EVP_PKEY_CTX_new_from_pkey(nil, key.handle, nil)
        else { return nil }
        let template = OpenSSLKeyContext(taking: created)
        guard EVP_PKEY_verify_init(created) == 1,
              !rsaPadding || EVP_PKEY_CTX_set_rsa_padding(created, RSA_PKCS1_PADDING) == 1,
              EVP_PKEY_CTX_set_signature_md(created, md.handle) == 1
        else { return nil }
        self.md = md
        self.template = template
        self.rsaPadding = rsaPadding
    }

    /// A verify context set up as the template is, over a copy of `key` of its own
    /// (`EVP_PKEY_dup`: key data no other context shares), for one slot of
    /// ``OpenSSLContextSlots``; `nil` when OpenSSL cannot make it. The context holds the only
    /// reference to the copy, so freeing the context frees both.
    func makeOwnContext(for key: OpenSSLPublicKey) -> OpaquePointer? {
        guard let copy = withExtendedLifetime(key, { EVP_PKEY_dup(key.handle) }) else { return nil }
        // The context takes a reference of its own.
        defer { EVP_PKEY_free(copy) }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, copy, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1,
              !rsaPadding || EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
              withExtendedLifetime(md, { EVP_PKEY_CTX_set_signature_md(context, md.handle) }) == 1
        else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return context
    }
}

/// A certificate's public key as an OpenSSL `EVP_PKEY`, kept for repeated verification, with
/// every digest it verifies with prepared once (``OpenSSLPreparedDigest``): SHA-1 and SHA-256 for
/// an RSA key, SHA-256 and SHA-384 for an EC key on P-256 or P-384.
///
/// Every handle has its owner (``OpenSSLPublicKey``, ``OpenSSLMessageDigest``,
/// ``OpenSSLKeyContext``), freed in its `deinit`; they are only read after `init`, so one key
/// serves several threads at once.
final class OpenSSLVerificationKey: SignatureVerificationKey, @unchecked Sendable {
    // @unchecked: every stored owner is set in init and only read afterwards.

    /// The key's type: RSA, or EC with its field width in bytes.
    enum Kind: Equatable {
        case rsa
        case ec(width: Int)
    }

    let key: OpenSSLPublicKey
    let kind: Kind
    private let sha1: OpenSSLPreparedDigest?
    private let sha256: OpenSSLPreparedDigest
    private let sha384: OpenSSLPreparedDigest?
    /// Each verifying thread's own contexts (nil: every verification duplicates the template, as
    /// the tests that hold the two ways to the same verdicts ask).
    private let slots: OpenSSLContextSlots?

    init(certificate: Certificate, keepsThreadContexts: Bool = true) throws(ReceiptValidationError) {
        let key = try Self.publicKey(of: certificate)
        let kind: Kind
        switch EVP_PKEY_get_base_id(key.handle) {
        case EVP_PKEY_RSA:
            kind = .rsa
        case EVP_PKEY_EC:
            switch Self.groupName(key) {
            case "prime256v1": kind = .ec(width: ECDSASignature.p256Width)
            case "secp384r1": kind = .ec(width: ECDSASignature.p384Width)
            case let other:
                throw ReceiptValidationError(
                    .invalidCertificate, "The certificate's EC key is on \(other ?? "an unnamed curve"), not P-256 or P-384.")
            }
        default:
            throw ReceiptValidationError(.invalidCertificate, "The certificate's public key is neither RSA nor EC.")
        }
        let isRSA = kind == .rsa
        let sha1 = isRSA ? OpenSSLPreparedDigest("SHA1", key: key, rsaPadding: true) : nil
        let sha256 = OpenSSLPreparedDigest("SHA256", key: key, rsaPadding: isRSA)
        let sha384 = isRSA ? nil : OpenSSLPreparedDigest("SHA384", key: key, rsaPadding: false)
        guard let sha256, !isRSA || sha1 != nil, isRSA || sha384 != nil else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not prepare signature verification.", libraryMessage: OpenSSLErrorQueue.message())
        }
        self.key = key
        self.kind = kind
        self.sha1 = sha1
        self.sha256 = sha256
        self.sha384 = sha384
        self.slots = keepsThreadContexts ? OpenSSLContextSlots() : nil
    }

    /// The certificate's public key. An RSA key is built straight from its modulus and exponent
    /// when the SubjectPublicKeyInfo is in the plain rsaEncryption form; anything else is decoded
    /// with `d2i_X509` and `X509_get_pubkey`.
    private static func publicKey(of certificate: Certificate) throws(ReceiptValidationError) -> OpenSSLPublicKey {
        let der = certificate.derBytes
        if let components = RSAPublicKeyLocator.components(ofCertificate: der) {
            let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                guard let base = buffer.baseAddress else { return nil }
                return receipt_rsa_public_key(
                    base + components.modulus.lowerBound, Int32(components.modulus.count),
                    base + components.exponent.lowerBound, Int32(components.exponent.count))
            }
            if let key { return OpenSSLPublicKey(taking: key) }
            OpenSSLErrorQueue.clear()
        }
        let x509 = try OpenSSLCertificates.decode(der)
        // X509_get_pubkey returns a new reference.
        guard let key = withExtendedLifetime(x509, { X509_get_pubkey(x509.handle) }) else {
            throw ReceiptValidationError(
                .invalidCertificate, "OpenSSL could not read the certificate's public key.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        return OpenSSLPublicKey(taking: key)
    }

    /// The EC key's curve name as OpenSSL spells it, or `nil`.
    private static func groupName(_ key: OpenSSLPublicKey) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        let status = withExtendedLifetime(key) {
            buffer.withUnsafeMutableBufferPointer { EVP_PKEY_get_group_name(key.handle, $0.baseAddress, $0.count, &length) }
        }
        guard status == 1, length > 0, length < buffer.count else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `signature` verifies over the concatenation of `message` under `scheme`.
    /// The calling thread's context of its slot when it can have one (``OpenSSLContextSlots``),
    /// else a duplicate of the template: the same verify context either way.
    func verify(_ signature: ArraySlice<UInt8>, of message: [ArraySlice<UInt8>], scheme: SignatureScheme) -> Bool {
        // The digest's context number in a slot: the first or the second digest of the key's kind.
        let prepared: OpenSSLPreparedDigest?
        let slotIndex: Int
        switch (scheme, kind) {
        case (.rsaPKCS1v15(.sha1), .rsa): (prepared, slotIndex) = (sha1, 0)
        case (.rsaPKCS1v15(.sha256), .rsa): (prepared, slotIndex) = (sha256, 1)
        case (.ecdsa(.sha256), .ec): (prepared, slotIndex) = (sha256, 0)
        case (.ecdsa(.sha384), .ec): (prepared, slotIndex) = (sha384, 1)
        default: return false
        }
        guard let prepared, let digestContext = OpenSSLDigestContext(),
              let digest = digestContext.digest(prepared.md.handle, of: message)
        else { return false }
        let der: [UInt8]?
        if case .ec(let width) = kind {
            // EVP_PKEY_verify takes the DER ECDSA-Sig-Value; the scheme's signature is raw r ‖ s.
            guard signature.count == 2 * width, let converted = ECDSASignature.der(fromRaw: signature) else { return false }
            der = converted
        } else {
            der = nil
        }
        let signed = der.map { $0[...] } ?? signature
        let key = self.key
        if let slots,
           let verdict = slots.withContext(slotIndex, make: { prepared.makeOwnContext(for: key) }, {
               Self.verify(signed, digest: digest, handle: $0)
           }) {
            return verdict
        }
        guard let context = prepared.template.duplicate() else { return false }
        return withExtendedLifetime(context) { Self.verify(signed, digest: digest, handle: context.handle) }
    }

    private static func verify(_ signature: ArraySlice<UInt8>, digest: [UInt8], handle: OpaquePointer) -> Bool {
        signature.withUnsafeBytes { signatureBuffer -> Bool in
            guard let base = signatureBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            return digest.withUnsafeBufferPointer { digestBuffer in
                EVP_PKEY_verify(handle, base, signatureBuffer.count, digestBuffer.baseAddress, digestBuffer.count) == 1
            }
        }
    }
}

extension OpenSSLBackend: SignaturePrimitives {
    /// Imports the certificate's public key once: RSA, or EC on P-256 or P-384.
    public func makeVerificationKey(for certificate: Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return try OpenSSLVerificationKey(certificate: certificate, keepsThreadContexts: keepsThreadContexts)
    }

    /// SHA-1, SHA-256 or SHA-384 over the concatenation of `parts`.
    public func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let md = Self.messageDigest(algorithm) else {
            throw ReceiptValidationError(.backendFailure, "The digest algorithm \(algorithm) is not supported.")
        }
        guard let context = OpenSSLDigestContext() else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not allocate a digest context.", libraryMessage: OpenSSLErrorQueue.message())
        }
        guard let digest = context.digest(md, of: parts) else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not compute a \(algorithm) digest.", libraryMessage: OpenSSLErrorQueue.message())
        }
        return digest
    }

    /// RSASSA-PKCS1-v1_5 (the padding and DigestInfo checks `PKCS7_verify` itself uses, through
    /// `EVP_VerifyFinal`) or ECDSA, with `EVP_PKEY_verify` and the signature digest set. OpenSSL
    /// checks ECDSA's math only, so a high-`s` signature verifies as its low twin does.
    public func verifySignature(
        _ signature: ArraySlice<UInt8>,
        of message: [ArraySlice<UInt8>],
        scheme: SignatureScheme,
        key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? OpenSSLVerificationKey, !signature.isEmpty else { return false }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        return withExtendedLifetime(key) { key.verify(signature, of: message, scheme: scheme) }
    }

    private static func messageDigest(_ algorithm: DigestAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .other: nil
        }
    }
}
#endif
