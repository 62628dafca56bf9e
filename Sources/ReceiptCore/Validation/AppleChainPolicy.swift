/// Apple's receipt-signing chain policy, run in Swift over the chain a backend verified, so that
/// every backend applies it identically.
///
/// Without it any Apple developer certificate chains to the same Apple root: the chain must be
/// exactly leaf → intermediate → anchor, the intermediate must carry Apple's WWDR marker
/// (1.2.840.113635.100.6.2.1) and the leaf the receipt-signing marker (1.2.840.113635.100.6.11.1).
public struct AppleChainPolicy: Sendable {
    /// The extension OID Apple puts on its Worldwide Developer Relations intermediates.
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// The extension OID Apple puts on its receipt-signing leaf certificates.
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// Creates the policy.
    public init() {}

    /// Checks a verified chain, leaf first, anchor last.
    /// - Throws: ``ReceiptValidationError/Code/missingAppleMarker`` when the chain's shape or a marker is wrong.
    public func check(_ chain: [Certificate]) throws(ReceiptValidationError) {
        guard chain.count == 3 else {
            throw ReceiptValidationError(
                .missingAppleMarker,
                "the signer chain has \(chain.count) certificate(s); an App Store receipt is signed by exactly leaf → Apple WWDR intermediate → root"
            )
        }
        let leaf = try Self.info(chain[0], role: "leaf")
        let intermediate = try Self.info(chain[1], role: "intermediate")
        guard intermediate.extensionOIDs.contains(Self.intermediateMarkerOID) else {
            throw ReceiptValidationError(
                .missingAppleMarker,
                "the intermediate certificate (\(intermediate.subject)) lacks Apple's WWDR marker OID \(Self.intermediateMarkerOID)"
            )
        }
        guard leaf.extensionOIDs.contains(Self.leafMarkerOID) else {
            throw ReceiptValidationError(
                .missingAppleMarker,
                "the signing certificate (\(leaf.subject)) lacks Apple's receipt-signing marker OID \(Self.leafMarkerOID)"
            )
        }
    }

    private static func info(_ certificate: Certificate, role: String) throws(ReceiptValidationError) -> CertificateInfo {
        do {
            return try CertificateInfo(certificate)
        } catch {
            throw ReceiptValidationError(.invalidCertificate, "the \(role) certificate of the verified chain could not be decoded: \(error.message)")
        }
    }
}
