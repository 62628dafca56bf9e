/// The relaxed policy for Xcode StoreKit-testing receipts: one self-signed certificate, byte-identical
/// to the StoreKit test certificate the caller trusts, no marker OIDs.
///
/// Applied only when the caller opted in; the receipt's own environment field ("Xcode") is
/// unauthenticated data and never selects this policy.
public struct StoreKitTestPolicy: Sendable {
    /// The certificate that must sign the receipt directly.
    public let certificate: Certificate

    /// Creates the policy for a StoreKit test certificate (by default the one Xcode uses).
    public init(certificate: Certificate = AppleRootCertificates.storeKitTest) {
        self.certificate = certificate
    }

    /// Checks a verified chain.
    /// - Throws: ``ReceiptValidationError/Code/untrustedChain`` unless the chain is exactly the StoreKit certificate.
    public func check(_ chain: [Certificate]) throws(ReceiptValidationError) {
        guard chain.count == 1, chain[0] == certificate else {
            throw ReceiptValidationError(
                .untrustedChain,
                "A StoreKit-testing receipt must be signed directly by the StoreKit test certificate (got a chain of \(chain.count))."
            )
        }
    }
}
