/// A message-digest algorithm: the one a PKCS #7 signer used, or the one a ``SignatureScheme``
/// hashes with.
public enum DigestAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// SHA-1 (every receipt signed before 2023).
    case sha1
    /// SHA-256.
    case sha256
    /// SHA-384 (the certificate signatures of Apple's JWS chain: ECDSA P-384).
    case sha384
    /// Any other algorithm, by dotted OID.
    case other(String)

    /// The dotted OID of the algorithm.
    public var oid: String {
        switch self {
        case .sha1: KnownObjectIdentifier.sha1.dotted
        case .sha256: KnownObjectIdentifier.sha256.dotted
        case .sha384: KnownObjectIdentifier.sha384.dotted
        case .other(let oid): oid
        }
    }

    /// Maps a dotted OID to an algorithm.
    public init(oid: String) {
        switch oid {
        case KnownObjectIdentifier.sha1.dotted: self = .sha1
        case KnownObjectIdentifier.sha256.dotted: self = .sha256
        case KnownObjectIdentifier.sha384.dotted: self = .sha384
        default: self = .other(oid)
        }
    }

    /// The digest's length in bytes (20, 32, 48), or `nil` for ``other(_:)``.
    public var byteCount: Int? {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .other: nil
        }
    }

    /// `sha1`, `sha256`, `sha384` or the OID.
    public var description: String {
        switch self {
        case .sha1: "sha1"
        case .sha256: "sha256"
        case .sha384: "sha384"
        case .other(let oid): oid
        }
    }
}
