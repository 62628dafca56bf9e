import Crypto
import Foundation
import ReceiptKit
import X509
import _CryptoExtras

/// A certificate's public key, imported once: a receipt leaf's RSA key for the verified-chain
/// cache's warm path, or an EC key (P-256, P-384) of a JWS chain.
final class SwiftCryptoVerificationKey: SignatureVerificationKey {
    /// The key, by type.
    enum Key: @unchecked Sendable {  // @unchecked: immutable swift-crypto key values, only read
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
    }

    let key: Key

    init(key: Key) {
        self.key = key
    }
}

extension SwiftCryptoBackend {
    /// Imports the RSA public key of `certificate`.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when swift-certificates cannot
    ///   decode it or its key is not RSA.
    public func makeVerificationKey(for certificate: ReceiptCore.Certificate) throws(ReceiptValidationError) -> any SignatureVerificationKey {
        let decoded: X509.Certificate
        do {
            decoded = try X509.Certificate(derEncoded: certificate.derBytes)
        } catch {
            throw ReceiptValidationError(
                .invalidCertificate, "swift-certificates could not decode the certificate.", libraryMessage: "\(error)")
        }
        if let key = _RSA.Signing.PublicKey(decoded.publicKey) { return SwiftCryptoVerificationKey(key: .rsa(key)) }
        if let key = P256.Signing.PublicKey(decoded.publicKey) { return SwiftCryptoVerificationKey(key: .p256(key)) }
        if let key = P384.Signing.PublicKey(decoded.publicKey) { return SwiftCryptoVerificationKey(key: .p384(key)) }
        throw ReceiptValidationError(.invalidCertificate, "The certificate's key is neither RSA nor EC on P-256 or P-384.")
    }

    /// SHA-1, SHA-256 or SHA-384 of the concatenation of `parts`.
    /// - Throws: ``ReceiptValidationError/Code/backendFailure`` for another algorithm.
    public func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8] {
        if case .other(let oid) = algorithm {
            throw ReceiptValidationError(.backendFailure, "The digest algorithm \(oid) is not supported.")
        }
        return Self.digest(algorithm, of: parts)
    }

    /// Whether `signature` is a signature under `scheme` over the concatenation of `message` by
    /// `key` (a key this backend made): RSASSA-PKCS1-v1_5 (SHA-1 accepted) or ECDSA over raw
    /// `r ‖ s` (BoringSSL checks the math only: a high `s` verifies). Any failure is `false`.
    public func verifySignature(
        _ signature: ArraySlice<UInt8>, of message: [ArraySlice<UInt8>], scheme: SignatureScheme, key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? SwiftCryptoVerificationKey else { return false }
        switch (scheme, key.key) {
        case (.rsaPKCS1v15(let digest), .rsa(let rsa)):
            return Self.isValidSignature(signature, of: message, digest: digest, key: rsa)
        case (.ecdsa(let digest), .p256(let ec)):
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            switch digest {
            case .sha256: return ec.isValidSignature(signature, for: Self.sha256(message))
            case .sha384: return ec.isValidSignature(signature, for: Self.sha384(message))
            default: return false
            }
        case (.ecdsa(let digest), .p384(let ec)):
            guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            switch digest {
            case .sha256: return ec.isValidSignature(signature, for: Self.sha256(message))
            case .sha384: return ec.isValidSignature(signature, for: Self.sha384(message))
            default: return false
            }
        default:
            return false
        }
    }

    private static func sha256(_ parts: [ArraySlice<UInt8>]) -> SHA256.Digest {
        var hasher = SHA256()
        for part in parts { hasher.update(data: part) }
        return hasher.finalize()
    }

    private static func sha384(_ parts: [ArraySlice<UInt8>]) -> SHA384.Digest {
        var hasher = SHA384()
        for part in parts { hasher.update(data: part) }
        return hasher.finalize()
    }

    // MARK: Shared with the full verification

    /// The digest of the concatenation of `parts` (`.other` gives an empty digest, which matches
    /// nothing).
    static func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) -> [UInt8] {
        switch algorithm {
        case .sha1:
            var hasher = Insecure.SHA1()
            for part in parts { hasher.update(data: part) }
            return Array(hasher.finalize())
        case .sha256:
            return Array(sha256(parts))
        case .sha384:
            return Array(sha384(parts))
        case .other:
            return []
        }
    }

    /// RSASSA-PKCS1-v1_5 verification of `signature` over the concatenation of `message`.
    static func isValidSignature(
        _ signature: ArraySlice<UInt8>, of message: [ArraySlice<UInt8>], digest: DigestAlgorithm, key: _RSA.Signing.PublicKey
    ) -> Bool {
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        switch digest {
        case .sha1:
            var hasher = Insecure.SHA1()
            for part in message { hasher.update(data: part) }
            return key.isValidSignature(rsaSignature, for: hasher.finalize(), padding: .insecurePKCS1v1_5)
        case .sha256:
            var hasher = SHA256()
            for part in message { hasher.update(data: part) }
            return key.isValidSignature(rsaSignature, for: hasher.finalize(), padding: .insecurePKCS1v1_5)
        case .sha384, .other:
            return false
        }
    }
}
