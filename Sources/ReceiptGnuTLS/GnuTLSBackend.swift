#if GnuTLS
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CReceiptGnuTLS
import ReceiptCore

/// The GnuTLS implementation of ``CryptoBackend`` (GnuTLS 3.7 or later).
///
/// GnuTLS's own PKCS #7 verification refuses an expired signer whatever the flags, so this
/// backend verifies in steps, each with per-call flags only: it imports the signedData and decodes
/// each embedded certificate with GnuTLS (the structure rules are the validator's, before the
/// call), finds the signer among the embedded certificates, builds the chain to one of the
/// caller's anchors and verifies it with `gnutls_x509_trust_list_verify_crt2` (time checks
/// disabled: validity periods are the validator's rule; SHA-1 allowed for that call), then verifies the signature with the leaf's
/// public key — over the content, or over the DER of the signed attributes after checking their
/// messageDigest against the content.
/// A canonical DER envelope is imported without its content (`GnuTLSImportedSignedData`), which
/// the signature checks then read in place from the caller's bytes: GnuTLS keeps no copy of a
/// large receipt's content, and the result returns the content where it lies in the caller's bytes
/// (``VerifiedSignedData/contentSource``), not a copy.
public final class GnuTLSBackend: CryptoBackend, SignedDataEnvelopeVerifying {
    /// `gnutls`.
    public let name = "gnutls"

    private static let messageDigestOID = KnownObjectIdentifier.messageDigest.dotted
    private static let contentTypeOID = KnownObjectIdentifier.contentType.dotted

    /// Creates the backend. It holds no state: build trust stores with ``makeTrustStore(anchors:)``.
    public init() {}

    /// Decodes one X.509 certificate from DER or PEM and returns its DER.
    public func loadCertificate(_ bytes: [UInt8]) throws(ReceiptValidationError) -> Certificate {
        let certificate = try GnuTLSX509Certificate(bytes: bytes)
        return Certificate(derBytes: certificate.derBytes)
    }

    /// Builds a GnuTLS trust list for `anchors`; reuse it for every receipt.
    public func makeTrustStore(anchors: [Certificate]) throws(ReceiptValidationError) -> any TrustStore {
        try GnuTLSTrustStore(anchors: anchors)
    }

    /// Verifies a DER or BER PKCS #7 signedData against `trustStore` (no validity period is checked).
    public func verifySignedData(_ bytes: [UInt8], trustStore: any TrustStore) throws(ReceiptValidationError) -> VerifiedSignedData {
        try verifySignedData(bytes, content: nil, envelope: SignedDataEnvelope(bytes), ranges: nil, trustStore: trustStore)
    }

    /// ``verifySignedData(_:trustStore:)`` with the envelope the caller read from `bytes`
    /// (`SignedDataEnvelope(bytes)`): a canonical DER envelope is imported as its
    /// ``DetachedSignedData`` and the content read in place (`GnuTLSImportedSignedData`); with
    /// `nil` the input is imported as given, with its content. Both give the same result for
    /// every input (the tests compare them). `ranges`: where the parts of `bytes` lie when the
    /// validator rebuilt them (``SignedDataEnvelopeVerifying``); `nil`: GnuTLS finds them.
    /// `content`: the content detached from `bytes`, at `envelope`'s content range, verified as
    /// detached content read in place.
    package func verifySignedData(
        _ bytes: [UInt8],
        content detachedSource: [UInt8]?,
        envelope: SignedDataEnvelope?,
        ranges: SignedDataRanges?,
        trustStore: any TrustStore
    ) throws(ReceiptValidationError) -> VerifiedSignedData {
        guard let store = trustStore as? GnuTLSTrustStore else {
            throw ReceiptValidationError(
                .backendFailure,
                "The trust store was not made by the GnuTLS backend; build it with GnuTLSBackend.makeTrustStore(anchors:)."
            )
        }

        // 0. On the validator's rebuild, GnuTLS decodes each embedded certificate first (where the
        //    validator's ranges say they lie): one it cannot decode is invalid_certificate.
        var given: [GnuTLSX509Certificate]?
        if let ranges {
            var decoded: [GnuTLSX509Certificate] = []
            for (index, range) in ranges.certificates.enumerated() {
                decoded.append(try Self.decodeEmbedded(Array(bytes[range]), index: index))
            }
            given = decoded
        }

        // 1. Structure as GnuTLS decodes it (a canonical envelope without its content, which is
        //    then read in place from `bytes`: GnuTLS keeps no copy of it).
        if detachedSource != nil, envelope == nil {
            throw ReceiptValidationError(.notPKCS7, "Detached content was handed without its envelope.")
        }
        let contentSource = detachedSource ?? bytes
        let imported = try GnuTLSImportedSignedData(
            bytes, envelope: envelope, certificates: ranges?.certificates, isDetached: detachedSource != nil)
        let pkcs7 = imported.pkcs7
        let signerCount = pkcs7.signerCount
        guard signerCount == 1 else {
            throw ReceiptValidationError(
                .notSigned,
                signerCount <= 0 ? "The signedData has no signer." : "The signedData has \(signerCount) signers; exactly one is supported."
            )
        }
        // The layout: from the envelope the validator rebuilt with these bytes (its signed
        // attributes checked DER), otherwise read from GnuTLS's re-encoding.
        let layout: SignedDataLayout
        if ranges != nil, let envelope {
            layout = SignedDataLayout(bytes, envelope: envelope)
        } else {
            layout = try GnuTLSPKCS7.layout(of: bytes, detached: imported.detached)
        }
        // GnuTLS's decoded copy of the content only when it imported the content; the signature
        // checks below read `content` without copying it.
        let attachedContent: [UInt8]?
        let content: ArraySlice<UInt8>
        if let detached = imported.detached {
            attachedContent = nil
            guard detached.content.lowerBound >= 0, detached.content.upperBound <= contentSource.count else {
                throw ReceiptValidationError(.notPKCS7, "The detached content lies outside the bytes handed.")
            }
            content = contentSource[detached.content]
        } else {
            let decoded = try pkcs7.content(present: layout.hasContent)
            attachedContent = decoded
            content = decoded[...]
        }
        let embedded: [GnuTLSX509Certificate]
        if let given {
            guard pkcs7.certificateCount == given.count else {
                throw ReceiptValidationError(
                    .notPKCS7, "GnuTLS decoded \(pkcs7.certificateCount) embedded certificates where the structure holds \(given.count).")
            }
            embedded = given
        } else {
            // Called directly: the certificates as GnuTLS decoded the structure.
            embedded = try Self.embeddedCertificates(of: pkcs7)
        }

        let read = pkcs7.signerInfo(at: 0)
        guard let info = read.info else {
            throw ReceiptValidationError(
                .invalidSignature,
                "GnuTLS could not read the SignerInfo (unsupported or malformed signature algorithm).",
                libraryMessage: GnuTLSMessage.text(for: read.status)
            )
        }
        let signature = info.signature
        let matching = layout.signers.filter { $0.signature == signature }
        guard matching.count == 1, let signerLayout = matching.first else {
            throw ReceiptValidationError(
                .notPKCS7,
                "The SignerInfo could not be matched to GnuTLS's re-encoding of the signedData."
            )
        }

        // 2. Chain to the caller's anchors (time checks disabled).
        let leaf = try signerCertificate(for: info, among: embedded)
        let chain = try GnuTLSChainBuilder.verifiedChain(leaf: leaf, embedded: embedded, store: store)

        guard let verifiedLeaf = chain.first else {
            throw ReceiptValidationError(.untrustedChain, "GnuTLS returned an empty chain for the signer.")
        }
        let signerChain = chain.map { Certificate(derBytes: $0.derBytes) }

        // 3. The signature.
        let digestAlgorithm = try Self.verifySignature(
            info: info, layout: signerLayout, digestAlgorithm: ranges?.digestAlgorithm, contentType: layout.contentTypeTLV,
            content: content, leaf: verifiedLeaf
        )

        guard let attachedContent else {
            // A detached content was verified where it lies: returned in place, not copied.
            return VerifiedSignedData(
                contentVerifiedIn: contentSource, range: content.indices, signerChain: signerChain,
                digestAlgorithm: digestAlgorithm, hasSignedAttributes: signerLayout.signedAttributes != nil
            )
        }
        return VerifiedSignedData(
            content: attachedContent, signerChain: signerChain,
            digestAlgorithm: digestAlgorithm, hasSignedAttributes: signerLayout.signedAttributes != nil
        )
    }

    /// SHA-1 over the concatenation of `parts`.
    public func sha1(_ parts: [[UInt8]]) throws(ReceiptValidationError) -> [UInt8] {
        var created: OpaquePointer?
        let initStatus = gnutls_hash_init(&created, GNUTLS_DIG_SHA1)
        guard initStatus >= 0, let hash = created else {
            throw ReceiptValidationError(
                .backendFailure, "GnuTLS could not start a SHA-1 digest.",
                libraryMessage: GnuTLSMessage.text(for: initStatus)
            )
        }
        var digest = [UInt8](repeating: 0, count: 20)
        var failure: Int32 = 0
        for part in parts where !part.isEmpty && failure == 0 {
            let status = part.withUnsafeBytes { gnutls_hash(hash, $0.baseAddress, $0.count) }
            if status < 0 { failure = status }
        }
        if failure < 0 {
            gnutls_hash_deinit(hash, nil)
            throw ReceiptValidationError(
                .backendFailure, "GnuTLS could not compute a SHA-1 digest.",
                libraryMessage: GnuTLSMessage.text(for: failure)
            )
        }
        digest.withUnsafeMutableBytes { gnutls_hash_deinit(hash, $0.baseAddress) }
        return digest
    }

    // MARK: - Steps

    /// The embedded certificates `pkcs7` holds, each decoded by GnuTLS.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate`` for one GnuTLS cannot read or decode.
    private static func embeddedCertificates(of pkcs7: GnuTLSPKCS7) throws(ReceiptValidationError) -> [GnuTLSX509Certificate] {
        var embedded: [GnuTLSX509Certificate] = []
        for index in 0..<pkcs7.certificateCount {
            let raw = pkcs7.certificateBytes(at: index)
            guard raw.status >= 0 else {
                throw ReceiptValidationError(
                    .invalidCertificate, "GnuTLS could not read embedded certificate \(index).",
                    libraryMessage: GnuTLSMessage.text(for: raw.status))
            }
            embedded.append(try decodeEmbedded(raw.bytes, index: index))
        }
        return embedded
    }

    /// Decodes embedded certificate `index` with GnuTLS.
    /// - Throws: ``ReceiptValidationError/Code/invalidCertificate``.
    private static func decodeEmbedded(_ certificate: [UInt8], index: Int) throws(ReceiptValidationError) -> GnuTLSX509Certificate {
        do throws(ReceiptValidationError) {
            return try GnuTLSX509Certificate(bytes: certificate)
        } catch {
            throw ReceiptValidationError(
                .invalidCertificate, "Embedded certificate \(index) could not be decoded.",
                libraryMessage: error.libraryMessage ?? error.message)
        }
    }

    /// The embedded certificate named by the SignerInfo (issuerAndSerialNumber or subjectKeyIdentifier).
    private func signerCertificate(
        for info: GnuTLSSignerInfo,
        among embedded: [GnuTLSX509Certificate]
    ) throws(ReceiptValidationError) -> GnuTLSX509Certificate {
        let issuer = info.issuerName
        let serial = info.serialNumber
        let keyIdentifier = info.subjectKeyIdentifier
        let match: GnuTLSX509Certificate?
        if !issuer.isEmpty {
            match = embedded.first { $0.serialNumber == serial && $0.rawIssuerName == issuer }
        } else if !keyIdentifier.isEmpty {
            match = embedded.first { $0.subjectKeyIdentifier == keyIdentifier }
        } else {
            match = nil
        }
        guard let match else {
            throw ReceiptValidationError(
                .untrustedChain,
                "The signer's certificate is not among the certificates embedded in the signedData.",
                libraryMessage: GnuTLSMessage.verificationText(for: GNUTLS_CERT_SIGNER_NOT_FOUND)
            )
        }
        return match
    }

    /// Verifies one SignerInfo's signature with the leaf's key and returns its digest algorithm:
    /// `digestAlgorithm` when the validator read it (it must be the signature algorithm's digest),
    /// otherwise the digest GnuTLS derived for the signature (SHA-1 or SHA-256).
    private static func verifySignature(
        info: GnuTLSSignerInfo,
        layout: SignedDataLayout.Signer,
        digestAlgorithm expected: DigestAlgorithm?,
        contentType: [UInt8],
        content: ArraySlice<UInt8>,
        leaf: GnuTLSX509Certificate
    ) throws(ReceiptValidationError) -> DigestAlgorithm {
        let algorithm = info.algorithm
        let hash = gnutls_sign_get_hash_algorithm(algorithm)
        guard hash != GNUTLS_DIG_UNKNOWN, let hashOIDPointer = gnutls_digest_get_oid(hash) else {
            throw ReceiptValidationError(
                .invalidSignature, "The signature algorithm has no known digest.",
                libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
            )
        }
        let hashOID = String(cString: hashOIDPointer)
        if let expected, hashOID != expected.oid {
            throw ReceiptValidationError(
                .invalidSignature,
                "The signer's digestAlgorithm \(expected.oid) differs from its signature algorithm's digest.",
                libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
            )
        }
        let digestAlgorithm = expected ?? DigestAlgorithm(oid: hashOID)
        guard digestAlgorithm == .sha1 || digestAlgorithm == .sha256 else {
            throw ReceiptValidationError(
                .invalidSignature, "The signer's digest algorithm \(hashOID) is neither SHA-1 nor SHA-256.",
                libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
            )
        }

        let signedBytes: ArraySlice<UInt8>
        if let attributes = layout.signedAttributes {
            guard let digests = info.signedAttributeValues(oid: messageDigestOID, octetString: true),
                  digests.count == 1
            else {
                throw ReceiptValidationError(
                    .invalidSignature, "The signed attributes do not hold exactly one messageDigest.",
                    libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
                )
            }
            guard digests[0] == (try digest(content, with: hash)) else {
                throw ReceiptValidationError(
                    .invalidSignature, "The messageDigest attribute does not match the content.",
                    libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
                )
            }
            guard let contentTypes = info.signedAttributeValues(oid: contentTypeOID, octetString: false),
                  contentTypes.count <= 1, contentTypes.allSatisfy({ $0 == contentType })
            else {
                throw ReceiptValidationError(
                    .invalidSignature, "The contentType attribute does not match the encapsulated content type.",
                    libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
                )
            }
            signedBytes = attributes[...]
        } else {
            signedBytes = content
        }

        var createdKey: OpaquePointer?
        let initStatus = gnutls_pubkey_init(&createdKey)
        guard initStatus >= 0, let key = createdKey else {
            throw ReceiptValidationError(
                .backendFailure, "GnuTLS could not allocate a public key.",
                libraryMessage: GnuTLSMessage.text(for: initStatus)
            )
        }
        defer { gnutls_pubkey_deinit(key) }
        let importStatus = gnutls_pubkey_import_x509(key, leaf.handle, 0)
        guard importStatus >= 0 else {
            throw ReceiptValidationError(
                .invalidSignature, "GnuTLS could not read the signer's public key.",
                libraryMessage: GnuTLSMessage.text(for: importStatus)
            )
        }
        let signature = info.signature
        let flags = UInt32(GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1.rawValue)
        let borrowed: Int32?? = GnuTLSDatum.withBorrowed(signedBytes) { data in
            GnuTLSDatum.withBorrowed(signature) { sig in
                gnutls_pubkey_verify_data2(key, algorithm, flags, data, sig)
            }
        }
        let status = (borrowed ?? nil) ?? GNUTLS_E_INVALID_REQUEST
        guard status >= 0 else {
            throw ReceiptValidationError(
                .invalidSignature,
                "The signature does not verify with the signer's key.",
                libraryMessage: GnuTLSMessage.text(for: status)
            )
        }
        return digestAlgorithm
    }

    /// `gnutls_hash_fast` of `bytes` (read in place).
    private static func digest(_ bytes: ArraySlice<UInt8>, with hash: gnutls_digest_algorithm_t) throws(ReceiptValidationError) -> [UInt8] {
        let length = Int(gnutls_hash_get_len(hash))
        guard length > 0 else {
            throw ReceiptValidationError(
                .invalidSignature, "The signer's digest algorithm is not supported.",
                libraryMessage: GnuTLSMessage.text(for: GNUTLS_E_PK_SIG_VERIFY_FAILED)
            )
        }
        var output = [UInt8](repeating: 0, count: length)
        let status = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { gnutls_hash_fast(hash, input.baseAddress, input.count, $0.baseAddress) }
        }
        guard status >= 0 else {
            throw ReceiptValidationError(
                .invalidSignature, "GnuTLS could not digest the content.",
                libraryMessage: GnuTLSMessage.text(for: status)
            )
        }
        return output
    }
}
#endif
