import ReceiptKit
import X509

/// The chain from a signer's certificate to a trust anchor, with every link's signature verified
/// by swift-certificates (`Certificate.PublicKey.isValidSignature(_:for:)`, which accepts
/// SHA-1 RSA for that call, as Apple's receipt chains before 2023 need).
///
/// A link goes from a certificate to a self-issued anchor, or else to an embedded certificate (or
/// an anchor that is not self-issued) not yet on the chain, whose subject is the certificate's
/// issuer and whose key verifies its signature; anchors are preferred, then the first candidate
/// in the order given. No validity period is checked:
/// that is the validator's rule, applied to the chain returned. Nothing else of RFC 5280 path
/// validation is applied here either: ReceiptKit's validator chooses the path and checks its
/// chain rules before the backend is called.
enum SwiftCryptoChain {
    /// Longer chains are refused (Apple's is three certificates).
    static let maximumLength = 8

    /// The verified chain, leaf first, ending with a self-issued anchor of `store` (a chain of one
    /// when the leaf is itself one).
    /// - Throws: `untrusted_chain`.
    static func verified(
        leaf: X509.Certificate, embedded: [X509.Certificate], store: SwiftCryptoTrustStore
    ) throws(ReceiptValidationError) -> [X509.Certificate] {
        // A path ends only at a self-issued anchor, as OpenSSL verifies (no partial chains) and
        // the validator's paths end; an anchor issued by another certificate (a leaf or an
        // intermediate given as a root) is one more candidate on the way to one.
        let roots = store.decoded.filter { $0.subject == $0.issuer }
        let candidates = embedded + store.decoded.filter { $0.subject != $0.issuer }
        var chain: [X509.Certificate] = []
        var current = leaf
        while true {
            if let anchor = roots.first(where: { $0 == current }) {
                chain.append(anchor)
                return chain
            }
            chain.append(current)
            if let anchor = roots.first(where: { issued(current, by: $0) }) {
                chain.append(anchor)
                return chain
            }
            guard chain.count < maximumLength else {
                throw ReceiptValidationError(
                    .untrustedChain, "The signer's certificate chain is longer than \(maximumLength) certificates.")
            }
            guard let next = candidates.first(where: { candidate in
                !chain.contains(candidate) && issued(current, by: candidate)
            }) else {
                throw ReceiptValidationError(
                    .untrustedChain,
                    "No trust anchor or embedded certificate issued the certificate at depth \(chain.count - 1) "
                        + "(issuer \(current.issuer)) with a signature that verifies.")
            }
            current = next
        }
    }

    /// Whether `issuer`'s subject is `certificate`'s issuer and its key verifies the signature.
    private static func issued(_ certificate: X509.Certificate, by issuer: X509.Certificate) -> Bool {
        issuer.subject == certificate.issuer && issuer.publicKey.isValidSignature(certificate.signature, for: certificate)
    }
}
