import Crypto
import Foundation
import ReceiptKit
import X509
import _CryptoExtras

/// A leaf's RSA public key, imported once for the verified-chain cache's warm path.
final class SwiftCryptoVerificationKey: SignatureVerificationKey {
    let key: _RSA.Signing.PublicKey

    init(key: _RSA.Signing.PublicKey) {
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
        guard let key = _RSA.Signing.PublicKey(decoded.publicKey) else {
            throw ReceiptValidationError(.invalidCertificate, "The certificate's key is not an RSA key.")
        }
        return SwiftCryptoVerificationKey(key: key)
    }

    /// SHA-1 or SHA-256 of the concatenation of `parts`.
    /// - Throws: ``ReceiptValidationError/Code/backendFailure`` for another algorithm.
    public func digest(_ algorithm: DigestAlgorithm, of parts: [ArraySlice<UInt8>]) throws(ReceiptValidationError) -> [UInt8] {
        if case .other(let oid) = algorithm {
            throw ReceiptValidationError(.backendFailure, "The digest algorithm \(oid) is not supported.")
        }
        return Self.digest(algorithm, of: parts)
    }

    /// Whether `signature` is an RSASSA-PKCS1-v1_5 signature with `digest` over the concatenation
    /// of `message` by `key` (a key this backend made); SHA-1 is accepted. Any failure is `false`.
    public func verifySignature(
        _ signature: ArraySlice<UInt8>, of message: [ArraySlice<UInt8>], digest: DigestAlgorithm, key: any SignatureVerificationKey
    ) -> Bool {
        guard let key = key as? SwiftCryptoVerificationKey else { return false }
        return Self.isValidSignature(signature, of: message, digest: digest, key: key.key)
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
            var hasher = SHA256()
            for part in parts { hasher.update(data: part) }
            return Array(hasher.finalize())
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
        case .other:
            return false
        }
    }
}
