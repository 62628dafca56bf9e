/// Apple's receipt-signing chain policy, run in Swift over the chain a backend verified, so that
/// every backend applies it identically.
///
/// Without it any Apple developer certificate chains to the same Apple root: the chain must be
/// exactly leaf → intermediate → anchor, the intermediate must carry Apple's WWDR marker
/// (1.2.840.113635.100.6.2.1) and the leaf the receipt-signing marker (1.2.840.113635.100.6.11.1).
public struct AppleChainPolicy: Sendable {
    /// The extension OID Apple puts on its Worldwide Developer Relations intermediates.
    public static let intermediateMarkerOID = KnownObjectIdentifier.appleIntermediateMarker.dotted
    /// The extension OID Apple puts on its receipt-signing leaf certificates.
    public static let leafMarkerOID = KnownObjectIdentifier.appleLeafMarker.dotted

    /// Creates the policy.
    public init() {}

    /// Checks a verified chain, leaf first, anchor last.
    /// - Throws: ``ReceiptValidationError/Code/missingAppleMarker`` when the chain's shape or a marker is wrong.
    public func check(_ chain: [Certificate]) throws(ReceiptValidationError) {
        guard chain.count == 3 else {
            throw ReceiptValidationError(
                .missingAppleMarker,
                "The signer chain has \(chain.count) certificate(s); an App Store receipt is signed by exactly leaf → Apple WWDR intermediate → root."
            )
        }
        // Read with the strict DER cursor when the certificate is in the common shape, otherwise
        // decoded with exactly CertificateInfo's checks (same errors, same order) but without
        // rendering names; the subject is rendered only for the error message.
        let leafHasMarker = try Self.hasExtension(.appleLeafMarker, chain[0], role: "leaf")
        let intermediateHasMarker = try Self.hasExtension(.appleIntermediateMarker, chain[1], role: "intermediate")
        guard intermediateHasMarker else {
            throw ReceiptValidationError(
                .missingAppleMarker,
                "The intermediate certificate (\(Self.subject(chain[1]))) lacks Apple's WWDR marker OID \(Self.intermediateMarkerOID)."
            )
        }
        guard leafHasMarker else {
            throw ReceiptValidationError(
                .missingAppleMarker,
                "The signing certificate (\(Self.subject(chain[0]))) lacks Apple's receipt-signing marker OID \(Self.leafMarkerOID)."
            )
        }
    }

    /// ``intermediateMarkerOID`` and ``leafMarkerOID`` as DER TLVs.
    static let intermediateMarkerTLV = KnownObjectIdentifier.appleIntermediateMarker.tlv
    static let leafMarkerTLV = KnownObjectIdentifier.appleLeafMarker.tlv

    private static func hasExtension(
        _ oid: KnownObjectIdentifier, _ certificate: Certificate, role: String
    ) throws(ReceiptValidationError) -> Bool {
        if let present = CertificateExtensionScan.contains(oid.tlv, in: certificate.derBytes) { return present }
        do {
            return try CertificateInfo.hasExtension(dotted: oid.dotted, in: certificate)
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "The \(role) certificate of the verified chain could not be decoded: \(error.message)")
        }
    }

    /// The subject in RFC 4514 form (the certificate already decoded once with the same checks).
    private static func subject(_ certificate: Certificate) -> String {
        (try? CertificateInfo(certificate).subject) ?? "?"
    }
}
