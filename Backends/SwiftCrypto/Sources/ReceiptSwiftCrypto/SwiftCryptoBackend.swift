import Crypto
import Foundation
import ReceiptKit
import SwiftASN1
import X509
import _CryptoExtras

/// A ``CryptoBackend`` on swift-crypto (BoringSSL, compiled in) and swift-certificates: no system
/// library, so a receipt verifier for static or minimal images, and the proof that a backend
/// written against ReceiptKit's public API alone gets the built-in backends' verdicts.
///
/// What it does is what the `CryptoBackend` contract lists, and no more: it reads the signedData
/// with swift-asn1 (``PKCS7SignedData``), decodes the embedded certificates with
/// swift-certificates, verifies the chain's signatures from the signer's certificate to an anchor
/// (``SwiftCryptoChain``), then the signature (RSA PKCS #1 v1.5 with SHA-1 or SHA-256, over the
/// content or over the DER of the signed attributes whose messageDigest matches the content's
/// digest). Structure rules, the certificate path, validity periods and Apple's chain policy are
/// ReceiptKit's validator's. It keeps no state; one instance serves every task.
///
/// ```swift
/// import ReceiptKit
/// import ReceiptSwiftCrypto
/// let validator = try ReceiptValidator(backend: SwiftCryptoBackend(), configuration: .init(expectedBundleID: "com.example.app"))
/// ```
public final class SwiftCryptoBackend: CryptoBackend, SignaturePrimitives {
    /// Creates the backend. It is stateless.
    public init() {}

    /// `swift-crypto`.
    public var name: String { "swift-crypto" }

    /// Decodes one X.509 certificate from DER or PEM with swift-certificates and returns its DER.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` when swift-certificates rejects the bytes.
    public func loadCertificate(_ bytes: [UInt8]) throws(ReceiptValidationError) -> ReceiptCore.Certificate {
        let certificate = try Self.decode(bytes)
        if Self.isPEM(bytes) {
            var serializer = DER.Serializer()
            do {
                try serializer.serialize(certificate)
            } catch {
                throw ReceiptValidationError(
                    .invalidCertificate, "The PEM certificate could not be encoded as DER.", libraryMessage: "\(error)")
            }
            return ReceiptCore.Certificate(derBytes: serializer.serializedBytes)
        }
        return ReceiptCore.Certificate(derBytes: bytes)
    }

    /// Decodes `anchors` once for every verification against them.
    /// - Throws: ``ReceiptValidationError/Code/rootCertificateNotFound`` for an empty set,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` for an anchor swift-certificates rejects.
    public func makeTrustStore(anchors: [ReceiptCore.Certificate]) throws(ReceiptValidationError) -> any TrustStore {
        guard !anchors.isEmpty else {
            throw ReceiptValidationError(.rootCertificateNotFound, "No trust anchor was given.")
        }
        var decoded: [X509.Certificate] = []
        for anchor in anchors { decoded.append(try Self.decode(anchor.derBytes)) }
        return SwiftCryptoTrustStore(anchors: anchors, decoded: decoded)
    }

    /// Verifies a PKCS #7 signedData (DER or BER): the chain's signatures from the signer's
    /// certificate to an anchor of `trustStore`, then the signature. No validity period is checked.
    /// - Throws: ``ReceiptValidationError/Code/notPKCS7``, ``ReceiptValidationError/Code/notSigned``,
    ///   ``ReceiptValidationError/Code/invalidCertificate`` (an embedded certificate
    ///   swift-certificates cannot decode), ``ReceiptValidationError/Code/untrustedChain``,
    ///   ``ReceiptValidationError/Code/invalidSignature``, in that order of precedence;
    ///   ``ReceiptValidationError/Code/backendFailure`` for another backend's trust store.
    public func verifySignedData(_ bytes: [UInt8], trustStore: any TrustStore) throws(ReceiptValidationError) -> VerifiedSignedData {
        guard let store = trustStore as? SwiftCryptoTrustStore else {
            throw ReceiptValidationError(.backendFailure, "The trust store was not made by the swift-crypto backend.")
        }
        let signedData = try PKCS7SignedData(bytes)
        var embedded: [X509.Certificate] = []
        for (index, encoded) in signedData.certificates.enumerated() {
            do {
                embedded.append(try X509.Certificate(derEncoded: Array(encoded)))
            } catch {
                throw ReceiptValidationError(
                    .invalidCertificate, "Embedded certificate \(index) could not be decoded.", libraryMessage: "\(error)")
            }
        }

        // 1. The signer's certificate (issuerAndSerialNumber) and its chain to an anchor.
        let signer = signedData.signer
        guard let leaf = try Self.signerCertificate(signer, among: embedded) else {
            throw ReceiptValidationError(.untrustedChain, "The signer's certificate is not among the embedded certificates.")
        }
        let chain = try SwiftCryptoChain.verified(leaf: leaf, embedded: embedded, store: store)
        var signerChain: [ReceiptCore.Certificate] = []
        for certificate in chain { signerChain.append(try Self.derBytes(of: certificate, in: store)) }

        // 2. The signature, over the content or over the signed attributes.
        let digestAlgorithm = try Self.digestAlgorithm(of: signer)
        let content: ArraySlice<UInt8>
        switch signedData.content {
        case .inPlace(let slice): content = slice
        case .joined(let joined): content = joined[...]
        }
        let message: [ArraySlice<UInt8>]
        if let attributes = signer.signedAttributes {
            guard signer.messageDigests.count == 1, signer.contentTypes.allSatisfy({ $0 == PKCS7SignedData.dataOID }),
                  signer.contentTypes.count <= 1
            else {
                throw ReceiptValidationError(
                    .invalidSignature, "The signed attributes do not hold exactly one messageDigest and at most one id-data contentType.")
            }
            guard Self.digest(digestAlgorithm, of: [content]).elementsEqual(signer.messageDigests[0]) else {
                throw ReceiptValidationError(.invalidSignature, "The messageDigest attribute does not match the content.")
            }
            // Sent as [0] IMPLICIT, signed as the DER SET (RFC 5652 §5.4): the same bytes after the tag.
            message = [[0x31], attributes.dropFirst()]
        } else {
            message = [content]
        }
        guard let key = _RSA.Signing.PublicKey(leaf.publicKey) else {
            throw ReceiptValidationError(.invalidSignature, "The signer's key is not an RSA key.")
        }
        guard Self.isValidSignature(signer.signature, of: message, digest: digestAlgorithm, key: key) else {
            throw ReceiptValidationError(.invalidSignature, "The signature does not match the signed content.")
        }

        switch signedData.content {
        case .inPlace:
            // Verified where it lies in `bytes` (the digest read that very slice): returned in place.
            return VerifiedSignedData(
                contentVerifiedIn: bytes, range: content.indices, signerChain: signerChain,
                digestAlgorithm: digestAlgorithm, hasSignedAttributes: signer.signedAttributes != nil)
        case .joined(let joined):
            return VerifiedSignedData(
                content: joined, signerChain: signerChain, digestAlgorithm: digestAlgorithm,
                hasSignedAttributes: signer.signedAttributes != nil)
        }
    }

    /// SHA-1 over the concatenation of `parts`.
    public func sha1(_ parts: [[UInt8]]) throws(ReceiptValidationError) -> [UInt8] {
        var hasher = Insecure.SHA1()
        for part in parts { hasher.update(data: part) }
        return Array(hasher.finalize())
    }

    // MARK: Steps

    /// Decodes a DER or PEM certificate.
    private static func decode(_ bytes: [UInt8]) throws(ReceiptValidationError) -> X509.Certificate {
        do {
            if isPEM(bytes) {
                return try X509.Certificate(pemEncoded: String(decoding: bytes, as: UTF8.self))
            }
            return try X509.Certificate(derEncoded: bytes)
        } catch {
            throw ReceiptValidationError(
                .invalidCertificate, "swift-certificates could not decode the certificate.", libraryMessage: "\(error)")
        }
    }

    /// Whether `bytes` start (after white space) with a PEM armour line.
    private static func isPEM(_ bytes: [UInt8]) -> Bool {
        let start = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return start.starts(with: Array("-----BEGIN".utf8))
    }

    /// The DER of a chain certificate: the anchor as the store holds it, or the embedded encoding.
    private static func derBytes(
        of certificate: X509.Certificate, in store: SwiftCryptoTrustStore
    ) throws(ReceiptValidationError) -> ReceiptCore.Certificate {
        if let index = store.decoded.firstIndex(of: certificate) { return store.anchors[index] }
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(certificate)
        } catch {
            throw ReceiptValidationError(.backendFailure, "A chain certificate could not be encoded.", libraryMessage: "\(error)")
        }
        return ReceiptCore.Certificate(derBytes: serializer.serializedBytes)
    }

    /// The embedded certificate with the signer's issuer name and serial number.
    private static func signerCertificate(
        _ signer: PKCS7SignerInfo, among embedded: [X509.Certificate]
    ) throws(ReceiptValidationError) -> X509.Certificate? {
        // DistinguishedName's own DERParseable initialiser (its implicitly tagged one is deprecated).
        let name: (ASN1Node) throws -> DistinguishedName = DistinguishedName.init(derEncoded:)
        let issuer: DistinguishedName
        do {
            issuer = try name(signer.issuer)
        } catch {
            throw ReceiptValidationError(.notPKCS7, "The signer's issuer is not an X.501 Name.", libraryMessage: "\(error)")
        }
        let serial = X509.Certificate.SerialNumber(bytes: signer.serialNumber)
        return embedded.first { $0.issuer == issuer && $0.serialNumber == serial }
    }

    /// The signer's digest algorithm, which its signature algorithm must agree with.
    private static func digestAlgorithm(of signer: PKCS7SignerInfo) throws(ReceiptValidationError) -> DigestAlgorithm {
        let algorithm = DigestAlgorithm(oid: signer.digestAlgorithm.description)
        let expected: ASN1ObjectIdentifier
        switch algorithm {
        case .sha1: expected = [1, 2, 840, 113_549, 1, 1, 5]  // sha1WithRSAEncryption
        case .sha256: expected = [1, 2, 840, 113_549, 1, 1, 11]  // sha256WithRSAEncryption
        case .sha384, .other:
            throw ReceiptValidationError(.invalidSignature, "The signer's digest algorithm \(algorithm.oid) is not SHA-1 or SHA-256.")
        }
        let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
        guard signer.signatureAlgorithm == rsaEncryption || signer.signatureAlgorithm == expected else {
            throw ReceiptValidationError(
                .invalidSignature, "The signature algorithm \(signer.signatureAlgorithm) is not RSA with the signer's digest.")
        }
        return algorithm
    }
}
