/// A JWS trust anchor read once: the certificate's parts and its key, imported by the backend.
struct JWSAnchor: Sendable {
    let read: JWSChainCertificate
    let key: any SignatureVerificationKey

    /// Reads every configured anchor. `root_certificate_not_found` for none;
    /// `invalid_certificate` for one that cannot be read or whose key the backend rejects.
    static func readAll(
        _ anchors: [Certificate], primitives: any SignaturePrimitives
    ) throws(ReceiptValidationError) -> [JWSAnchor] {
        guard !anchors.isEmpty else {
            throw ReceiptValidationError(.rootCertificateNotFound, "No JWS trust anchor is configured.")
        }
        var result: [JWSAnchor] = []
        for (index, anchor) in anchors.enumerated() {
            let read = try JWSChainCertificate(anchor, role: "JWS trust anchor \(index)")
            result.append(JWSAnchor(read: read, key: try primitives.makeVerificationKey(for: anchor)))
        }
        return result
    }
}

/// An `x5c` chain verified up to a trust anchor, signatures and names only (no time, no
/// markers): what the verified-chain cache keeps for JWS.
///
/// The rules, in order (the first failure is reported):
/// 1. each `x5c` certificate reads (strict DER, at most ``JWSLimits/maximumCertificateSize``):
///    `invalid_certificate`;
/// 2. the third is a trust anchor byte for byte, or is named as issued by an anchor whose key
///    verifies its signature: else `untrusted_chain`;
/// 3. the leaf names the intermediate as issuer and the intermediate names the third; the
///    intermediate and the third are CAs (basicConstraints); the third's key verifies the
///    intermediate's signature and the intermediate's key the leaf's: else `untrusted_chain`.
///
/// Apple's marker OIDs are read here and reported by the validator after the token's signature
/// (the receipt order: chain, time, signature, policy).
struct JWSChain: Sendable {
    /// The verified chain, leaf first, ending with the anchor.
    let certificates: [Certificate]
    /// The leaf's key (the token's signature) and whether it is on P-256 (ES256).
    let leafKey: any SignatureVerificationKey
    let leafIsP256: Bool
    /// The validity periods of ``certificates``.
    let periods: [ValidityPeriod]
    /// The intersection of ``periods``: a time inside it passes the time rule.
    let window: ValidityPeriod
    /// Apple's chain policy, `nil` when the leaf and intermediate carry their markers.
    let markerError: ReceiptValidationError?

    init(
        _ x5c: [Certificate], anchors: [JWSAnchor], primitives: any SignaturePrimitives
    ) throws(ReceiptValidationError) {
        var read: [JWSChainCertificate] = []
        for (index, certificate) in x5c.enumerated() {
            read.append(try JWSChainCertificate(certificate, role: "x5c[\(index)]"))
        }
        guard read.count == 3 else {
            throw ReceiptValidationError(.malformedJWS, "The JWS header's x5c holds \(read.count) certificate(s), not 3.")
        }
        let (leaf, intermediate, top) = (read[0], read[1], read[2])

        var chain = [leaf, intermediate, top]
        if !anchors.contains(where: { $0.read.certificate.derBytes == top.certificate.derBytes }) {
            guard let anchor = anchors.first(where: {
                $0.read.subject.elementsEqual(top.issuer) && top.isSigned(by: $0.read, key: $0.key, primitives: primitives)
            }) else {
                throw ReceiptValidationError(
                    .untrustedChain, "The x5c chain's root is neither a trust anchor nor issued by one.")
            }
            chain.append(anchor.read)
        }
        guard leaf.issuer.elementsEqual(intermediate.subject), intermediate.issuer.elementsEqual(top.subject) else {
            throw ReceiptValidationError(
                .untrustedChain, "The x5c certificates do not chain by name (leaf → intermediate → root).")
        }
        guard intermediate.isCA, top.isCA else {
            throw ReceiptValidationError(.untrustedChain, "An issuing certificate of the x5c chain is not a CA.")
        }
        let topKey = try Self.key(top, "x5c[2]", primitives)
        guard intermediate.isSigned(by: top, key: topKey, primitives: primitives) else {
            throw ReceiptValidationError(.untrustedChain, "The intermediate certificate's signature does not verify with the root's key.")
        }
        let intermediateKey = try Self.key(intermediate, "x5c[1]", primitives)
        guard leaf.isSigned(by: intermediate, key: intermediateKey, primitives: primitives) else {
            throw ReceiptValidationError(.untrustedChain, "The leaf certificate's signature does not verify with the intermediate's key.")
        }
        self.leafKey = try Self.key(leaf, "x5c[0]", primitives)
        self.leafIsP256 = leaf.keyWidth == ECDSASignature.p256Width
        self.certificates = chain.map(\.certificate)
        self.periods = chain.map(\.validity)
        self.window = ValidityPeriod(
            notBefore: periods.map(\.notBefore).max() ?? 0, notAfter: periods.map(\.notAfter).min() ?? 0)
        if !intermediate.hasExtension(.appleIntermediateMarker) {
            markerError = ReceiptValidationError(
                .missingAppleMarker,
                "The JWS intermediate certificate lacks Apple's WWDR marker OID \(KnownObjectIdentifier.appleIntermediateMarker.dotted).")
        } else if !leaf.hasExtension(.appleLeafMarker) {
            markerError = ReceiptValidationError(
                .missingAppleMarker,
                "The JWS signing certificate lacks Apple's marker OID \(KnownObjectIdentifier.appleLeafMarker.dotted).")
        } else {
            markerError = nil
        }
    }

    private static func key(
        _ certificate: JWSChainCertificate, _ role: String, _ primitives: any SignaturePrimitives
    ) throws(ReceiptValidationError) -> any SignatureVerificationKey {
        do throws(ReceiptValidationError) {
            return try primitives.makeVerificationKey(for: certificate.certificate)
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "The key of \(role) could not be imported: \(error.message)",
                                         libraryMessage: error.libraryMessage)
        }
    }
}
