/// The message-digest algorithm a PKCS #7 signer used.
public enum DigestAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// SHA-1 (every receipt signed before 2023).
    case sha1
    /// SHA-256.
    case sha256
    /// Any other algorithm, by dotted OID.
    case other(String)

    /// The dotted OID of the algorithm.
    public var oid: String {
        switch self {
        case .sha1: KnownObjectIdentifier.sha1.dotted
        case .sha256: KnownObjectIdentifier.sha256.dotted
        case .other(let oid): oid
        }
    }

    /// Maps a dotted OID to an algorithm.
    public init(oid: String) {
        switch oid {
        case KnownObjectIdentifier.sha1.dotted: self = .sha1
        case KnownObjectIdentifier.sha256.dotted: self = .sha256
        default: self = .other(oid)
        }
    }

    /// `sha1`, `sha256` or the OID.
    public var description: String {
        switch self {
        case .sha1: "sha1"
        case .sha256: "sha256"
        case .other(let oid): oid
        }
    }
}
