/// How a signature is made: the algorithm and the digest it signs.
///
/// The one description every ``SignaturePrimitives/verifySignature(_:of:scheme:key:)`` call takes,
/// for receipts (RSA) and for Apple's JWS (ECDSA) alike.
public enum SignatureScheme: Hashable, Sendable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with the digest: SHA-1 or SHA-256 for receipts.
    case rsaPKCS1v15(DigestAlgorithm)
    /// ECDSA (FIPS 186-4) with the digest: SHA-256 on P-256 (a JWS's `ES256`), SHA-384 on P-384
    /// (the certificates of Apple's JWS chain). The signature is in raw form: `r ‖ s`, each
    /// big-endian and padded to the curve's field width (64 bytes for P-256, 96 for P-384), as
    /// JWS carries it (RFC 7518 §3.4); ``ECDSASignature`` converts from the DER form
    /// certificates carry.
    case ecdsa(DigestAlgorithm)

    /// The digest the scheme signs.
    public var digest: DigestAlgorithm {
        switch self {
        case .rsaPKCS1v15(let digest), .ecdsa(let digest): digest
        }
    }

    /// `rsa-pkcs1v15-sha256`, `ecdsa-sha384`, …
    public var description: String {
        switch self {
        case .rsaPKCS1v15(let digest): "rsa-pkcs1v15-\(digest)"
        case .ecdsa(let digest): "ecdsa-\(digest)"
        }
    }
}
