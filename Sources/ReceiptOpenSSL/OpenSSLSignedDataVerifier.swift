#if OpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CReceiptOpenSSL
import ReceiptCore

/// The steps of one PKCS #7 signedData verification with OpenSSL.
///
/// Order (and so precedence of failures): decode (`not_pkcs7`; on the validator's rebuild an
/// embedded certificate OpenSSL cannot decode is `invalid_certificate`), structure (`not_signed`),
/// chain (`untrusted_chain`), signature (`invalid_signature`). The structure rules are the
/// validator's, before the call. The chain is verified without time checks
/// (`X509_V_FLAG_NO_CHECK_TIME`): validity periods are the validator's rule. Every handle created
/// here is freed exactly once by its owner.
enum OpenSSLSignedDataVerifier {
    /// Runs every step against `store` (an `X509_STORE *` the caller keeps alive, holding `anchors`).
    /// `envelope` is `SignedDataEnvelope(bytes)`, read by the caller; `ranges`, when given, where
    /// the parts of the validator's rebuild `bytes` lie (``SignedDataEnvelopeVerifying``);
    /// `content`, when given, the content detached from `bytes`, at `envelope`'s content range.
    static func verify(
        _ bytes: [UInt8], content detachedSource: [UInt8]? = nil, envelope: SignedDataEnvelope?, ranges: SignedDataRanges?, store: OpaquePointer,
        anchors: [Certificate]
    ) throws(ReceiptValidationError) -> VerifiedSignedData {
        // 0. Decode. d2i_PKCS7 decodes every embedded certificate with the same X509 decoder as
        //    d2i_X509, so when it succeeds they all decode. When it fails on the validator's
        //    rebuild, each certificate the ranges locate is decoded on its own, to report one OpenSSL
        //    cannot decode as such; called directly, the failure is OpenSSL's: not_pkcs7.
        // A detached rebuild's content: where it lies in `detachedSource`, whatever is decoded.
        let givenContent = detachedSource == nil ? nil : envelope?.content
        if detachedSource != nil, givenContent == nil {
            throw ReceiptValidationError(.notPKCS7, "Detached content was handed without its envelope.")
        }
        let contentSource = detachedSource ?? bytes
        var decoded = decodeForVerification(
            bytes, envelope: envelope, certificates: ranges?.certificates, anchors: anchors, givenContent: givenContent)
        if let ranges, case .failure = decoded {
            for (index, range) in ranges.certificates.enumerated() { try checkDecodes(Array(bytes[range]), index: index) }
        }
        if case .success(let lean) = decoded, !lean.omittedCertificates.isEmpty,
           ranges.map({ lean.omittedCertificates.contains($0.signerCertificate) }) ?? !hasSigner(lean.pkcs7) {
            // The signer's own certificate is an anchor: OpenSSL must find it in the structure.
            OpenSSLErrorQueue.clear()
            decoded = Result { () throws(ReceiptValidationError) in try decode(bytes, detachedContent: givenContent) }
        }
        let signed = try decoded.get()
        let pkcs7 = signed.pkcs7
        defer { withExtendedLifetime(signed) {} }

        let signedData = try signedParts(of: pkcs7, hasDetachedContent: signed.detachedContent != nil)

        // The signer's certificate, looked up among the embedded certificates (borrowed handles).
        guard let signersOwner = PKCS7_get0_signers(pkcs7, nil, 0).map({
            OpenSSLCertificateStack(taking: $0, ownsCertificates: false)
        }) else {
            throw ReceiptValidationError(
                .untrustedChain, "The signer's certificate is not among the receipt's certificates.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        let signers = signersOwner.handle
        defer { withExtendedLifetime(signersOwner) {} }
        guard sk_X509_num(signers) == 1, let leaf = sk_X509_value(signers, 0) else {
            throw ReceiptValidationError(
                .untrustedChain, "The signer's certificate could not be identified.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        // OpenSSL compares names canonically; the validator chose the byte-exact match (as GnuTLS
        // does) and made sure no other certificate matches loosely. Both must be the same.
        if let ranges, !(try OpenSSLCertificates.derBytes(ofBorrowed: leaf).elementsEqual(bytes[ranges.signerCertificate])) {
            throw ReceiptValidationError(
                .untrustedChain, "OpenSSL identified another embedded certificate as the signer's.")
        }

        // 1. The chain, without time checks; this is the chain returned.
        let chain = try verifyChain(leaf: leaf, untrusted: signedData.certificates, store: store)

        // 2. The signature over the content (or the signed attributes and their messageDigest),
        //    with the signer's digest algorithm: SHA-1 or SHA-256. PKCS7_NOVERIFY: the chain was
        //    verified above, with the caller's anchors. A detached structure reads the content in
        //    place from a read-only memory BIO.
        let digestAlgorithm = ranges?.digestAlgorithm ?? signedData.digestAlgorithm
        guard digestAlgorithm == .sha1 || digestAlgorithm == .sha256 else {
            throw ReceiptValidationError(
                .invalidSignature, "The signer's digest algorithm \(digestAlgorithm) is neither SHA-1 nor SHA-256.")
        }
        guard verifySignature(pkcs7, bytes: contentSource, detachedContent: signed.detachedContent) else {
            throw ReceiptValidationError(
                .invalidSignature, "The signature does not match the signed content.",
                libraryMessage: OpenSSLErrorQueue.message())
        }

        if let detachedContent = signed.detachedContent {
            // Verified where it lies (a read-only memory BIO over it): returned in place.
            return VerifiedSignedData(
                contentVerifiedIn: contentSource, range: detachedContent, signerChain: chain,
                digestAlgorithm: digestAlgorithm, hasSignedAttributes: signedData.hasSignedAttributes)
        }
        return VerifiedSignedData(
            content: signedData.content,
            signerChain: chain,
            digestAlgorithm: digestAlgorithm,
            hasSignedAttributes: signedData.hasSignedAttributes)
    }

    // MARK: Decoding

    /// A decoded `PKCS7`, freed with its owner.
    private final class DecodedSignedData {
        let pkcs7: UnsafeMutablePointer<PKCS7>
        /// Where the content lies in the original bytes (or in the detached content handed
        /// beside them), when `pkcs7` holds no content; `nil` when it holds the content.
        let detachedContent: Range<Int>?
        /// The embedded certificates the detached copy left out (byte ranges of the original).
        let omittedCertificates: [Range<Int>]

        init(pkcs7: UnsafeMutablePointer<PKCS7>, detached: DetachedSignedData? = nil, detachedContent: Range<Int>? = nil) {
            self.pkcs7 = pkcs7
            self.detachedContent = detached?.content ?? detachedContent
            self.omittedCertificates = detached?.omittedCertificates ?? []
        }

        deinit { PKCS7_free(pkcs7) }
    }

    /// Decodes what OpenSSL verifies. A canonical DER envelope is decoded as a ``DetachedSignedData``
    /// without its copies of the trust anchors: `d2i_PKCS7` then neither copies the content nor
    /// decodes certificates the store already holds (decoding a certificate's key is most of
    /// OpenSSL 3.0's cost), and the chain finds those anchors in the store as it would have (OpenSSL
    /// looks in the trust store first). Anything else, or a copy OpenSSL refuses, is decoded as given.
    /// `certificates`: the embedded certificates' ranges when the validator handed them (``SignedDataRanges``);
    /// `givenContent`: the content's range when it was handed beside `bytes` (already detached).
    private static func decodeForVerification(
        _ bytes: [UInt8], envelope: SignedDataEnvelope?, certificates: [Range<Int>]?, anchors: [Certificate],
        givenContent: Range<Int>?
    ) -> Result<DecodedSignedData, ReceiptValidationError> {
        let isAnchor = { (range: Range<Int>) -> Bool in
            anchors.contains { $0.derBytes.count == range.count && $0.derBytes.elementsEqual(bytes[range]) }
        }
        if let detached = DetachedSignedData(bytes, envelope: envelope, certificates: certificates, omitting: isAnchor) {
            if let decoded = try? decode(detached.der, detached: detached) { return .success(decoded) }
            OpenSSLErrorQueue.clear()
        }
        return Result { () throws(ReceiptValidationError) in try decode(bytes, detachedContent: givenContent) }
    }

    /// Whether OpenSSL finds exactly one signer's certificate among `pkcs7`'s embedded ones.
    private static func hasSigner(_ pkcs7: UnsafeMutablePointer<PKCS7>) -> Bool {
        guard PKCS7_type_is_signed(pkcs7) == 1,
              let signers = PKCS7_get0_signers(pkcs7, nil, 0).map({ OpenSSLCertificateStack(taking: $0, ownsCertificates: false) })
        else { return false }
        return withExtendedLifetime(signers) { sk_X509_num(signers.handle) == 1 }
    }

    /// `PKCS7_verify` without chain verification: the content digest (and signed attributes) and
    /// the signature. `detachedContent` is the content's range in `bytes` for a detached structure.
    private static func verifySignature(
        _ pkcs7: UnsafeMutablePointer<PKCS7>, bytes: [UInt8], detachedContent: Range<Int>?
    ) -> Bool {
        guard let content = detachedContent else {
            return PKCS7_verify(pkcs7, nil, nil, nil, nil, Int32(PKCS7_NOVERIFY)) == 1
        }
        guard content.lowerBound >= 0, content.upperBound <= bytes.count, content.count <= Int(Int32.max) else { return false }
        return bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress,
                  let input = BIO_new_mem_buf(base + content.lowerBound, Int32(content.count)).map(OpenSSLBIO.init(taking:))
            else {
                return false
            }
            return withExtendedLifetime(input) { PKCS7_verify(pkcs7, nil, nil, input.handle, nil, Int32(PKCS7_NOVERIFY)) == 1 }
        }
    }

    /// Decodes one embedded certificate with `d2i_X509` (exactly, no trailing bytes); its owner frees it.
    private static func checkDecodes(_ certificate: [UInt8], index: Int) throws(ReceiptValidationError) {
        do throws(ReceiptValidationError) {
            _ = try OpenSSLCertificates.decode(certificate)
        } catch {
            throw ReceiptValidationError(
                .invalidCertificate, "Embedded certificate \(index) could not be decoded.",
                libraryMessage: error.libraryMessage ?? error.message)
        }
    }

    /// Decodes `bytes` (the original input, or `detached`'s copy) into the `PKCS7`'s owner.
    private static func decode(
        _ bytes: [UInt8], detached: DetachedSignedData? = nil, detachedContent: Range<Int>? = nil
    ) throws(ReceiptValidationError) -> DecodedSignedData {
        guard !bytes.isEmpty else {
            throw ReceiptValidationError(.notPKCS7, "The data is empty.")
        }
        var consumed = 0
        let pkcs7 = bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<PKCS7>? in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            // d2i_PKCS7 reads DER and BER (indefinite lengths, constructed OCTET STRINGs).
            let decoded = d2i_PKCS7(nil, &cursor, buffer.count)
            if decoded != nil, let cursor { consumed = cursor - base }
            return decoded
        }
        guard let decoded = pkcs7.map({ DecodedSignedData(pkcs7: $0, detached: detached, detachedContent: detachedContent) }) else {
            throw ReceiptValidationError(
                .notPKCS7, "The data is not a PKCS #7 structure.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        guard consumed == bytes.count else {
            throw ReceiptValidationError(
                .notPKCS7, "The PKCS #7 structure is followed by \(bytes.count - consumed) unexpected bytes.",
                offset: consumed)
        }
        return decoded
    }

    /// What the signedData holds, borrowed from the `PKCS7` (valid while it lives) except `content`.
    private struct SignedParts {
        /// The encapsulated content OpenSSL decoded (empty for a detached structure, whose content
        /// is read where it lies in the input).
        var content: [UInt8]
        var certificates: OpaquePointer?
        var hasSignedAttributes: Bool
        /// The SignerInfo's digestAlgorithm, as OpenSSL decoded it.
        var digestAlgorithm: DigestAlgorithm
    }

    /// `hasDetachedContent`: whether the structure was decoded from a ``DetachedSignedData`` (its
    /// content lies in the original bytes; none is copied here).
    private static func signedParts(
        of pkcs7: UnsafeMutablePointer<PKCS7>, hasDetachedContent: Bool
    ) throws(ReceiptValidationError) -> SignedParts {
        guard PKCS7_type_is_signed(pkcs7) == 1, let signed = pkcs7.pointee.d.sign else {
            throw ReceiptValidationError(.notSigned, "The PKCS #7 structure is not signedData.")
        }
        guard let contents = signed.pointee.contents, PKCS7_type_is_data(contents) == 1 else {
            throw ReceiptValidationError(.notSigned, "The signedData does not encapsulate id-data content.")
        }
        let octets = contents.pointee.d.data
        guard octets != nil || hasDetachedContent else {
            throw ReceiptValidationError(.notSigned, "The signedData has no encapsulated content (a detached or certificates-only structure).")
        }
        guard let signerInfos = PKCS7_get_signer_info(pkcs7) else {
            throw ReceiptValidationError(.notSigned, "The signedData has no signer.")
        }
        let signerCount = sk_PKCS7_SIGNER_INFO_num(signerInfos)
        guard signerCount == 1, let signerInfo = sk_PKCS7_SIGNER_INFO_value(signerInfos, 0) else {
            throw ReceiptValidationError(
                .notSigned,
                signerCount <= 0 ? "The signedData has no signer." : "The signedData has \(signerCount) signers; exactly one is supported.")
        }

        // OpenSSL joins the segments of a BER constructed OCTET STRING into one string.
        var content: [UInt8] = []
        if !hasDetachedContent, let octets, ASN1_STRING_length(octets) > 0 {
            guard let data = ASN1_STRING_get0_data(octets) else {
                throw ReceiptValidationError(.notSigned, "The encapsulated content could not be read.")
            }
            content = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(octets))))
        }

        let attributes = PKCS7_get_signed_attributes(signerInfo)
        let hasSignedAttributes = attributes.map { sk_X509_ATTRIBUTE_num($0) > 0 } ?? false

        var digest: UnsafeMutablePointer<X509_ALGOR>?
        PKCS7_SIGNER_INFO_get0_algs(signerInfo, nil, &digest, nil)
        var digestOID: OpaquePointer?
        if let digest { X509_ALGOR_get0(&digestOID, nil, nil, digest) }
        let digestAlgorithm: DigestAlgorithm
        switch digestOID.map(OBJ_obj2nid) {
        case NID_sha1: digestAlgorithm = .sha1
        case NID_sha256: digestAlgorithm = .sha256
        case let nid?: digestAlgorithm = .other(OBJ_nid2sn(nid).map { String(cString: $0) } ?? "NID \(nid)")
        case nil: digestAlgorithm = .other("unreadable")
        }

        return SignedParts(
            content: content,
            certificates: signed.pointee.cert,
            hasSignedAttributes: hasSignedAttributes,
            digestAlgorithm: digestAlgorithm)
    }

    // MARK: Chain

    /// Verifies the chain from `leaf` to an anchor of `store`, with `untrusted` as the only source
    /// of intermediates, without time checks.
    /// - Returns: the verified chain, leaf first, as DER.
    private static func verifyChain(
        leaf: OpaquePointer,
        untrusted: OpaquePointer?,
        store: OpaquePointer
    ) throws(ReceiptValidationError) -> [Certificate] {
        guard let contextOwner = OpenSSLStoreContext() else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not allocate a verification context.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        let context = contextOwner.handle
        defer { withExtendedLifetime(contextOwner) {} }
        guard X509_STORE_CTX_init(context, store, leaf, untrusted) == 1,
              let parameters = X509_STORE_CTX_get0_param(context)
        else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not initialise a verification context.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        // Per-context parameters (a copy made by X509_STORE_CTX_init): the shared store is untouched.
        guard X509_VERIFY_PARAM_set_purpose(parameters, X509_PURPOSE_ANY) == 1 else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not set the verification purpose.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        guard X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_NO_CHECK_TIME)) == 1 else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL could not disable time checks.",
                libraryMessage: OpenSSLErrorQueue.message())
        }

        guard X509_verify_cert(context) == 1 else {
            throw chainError(context)
        }

        guard let chainOwner = X509_STORE_CTX_get1_chain(context).map({
            OpenSSLCertificateStack(taking: $0, ownsCertificates: true)
        }) else {
            throw ReceiptValidationError(
                .backendFailure, "OpenSSL verified a chain but could not return it.",
                libraryMessage: OpenSSLErrorQueue.message())
        }
        let chain = chainOwner.handle
        defer { withExtendedLifetime(chainOwner) {} }
        let count = sk_X509_num(chain)
        var certificates: [Certificate] = []
        certificates.reserveCapacity(max(0, Int(count)))
        var index: Int32 = 0
        while index < count {
            guard let certificate = sk_X509_value(chain, index) else {
                throw ReceiptValidationError(.backendFailure, "OpenSSL returned a chain with a missing certificate.")
            }
            certificates.append(Certificate(derBytes: try OpenSSLCertificates.derBytes(ofBorrowed: certificate)))
            index += 1
        }
        guard !certificates.isEmpty else {
            throw ReceiptValidationError(.backendFailure, "OpenSSL verified an empty chain.")
        }
        return certificates
    }

    private static func chainError(_ context: OpaquePointer) -> ReceiptValidationError {
        let code = X509_STORE_CTX_get_error(context)
        let depth = X509_STORE_CTX_get_error_depth(context)
        let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
        let library = OpenSSLErrorQueue.message(prefix: "\(reason) (X509_V_ERR \(code) at depth \(depth))")
        switch code {
        case X509_V_ERR_OUT_OF_MEM:
            return ReceiptValidationError(.backendFailure, "OpenSSL ran out of memory verifying the chain.", libraryMessage: library)
        default:
            return ReceiptValidationError(
                .untrustedChain, "The signer's certificate chain does not lead to a trust anchor: \(reason).",
                libraryMessage: library)
        }
    }
}
#endif
