#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JWS that verified: chain, certificate times, signature and the configured checks, for it
/// and (a notification) for every JWS nested in it.
public struct VerifiedJWS: Hashable, Sendable {
    /// What the token holds.
    public var kind: JWSKind { payload.kind }
    /// The typed payload.
    public var payload: JWSPayload
    /// The payload's `signedDate`.
    public var signedDate: Date
    /// The protected header (algorithm, `x5c`, every other member).
    public var header: JWSHeader
    /// The verified chain, leaf first, ending with the trust anchor: the three `x5c` certificates
    /// when the third is an anchor, or those three and the anchor that issued the third.
    public var chain: [Certificate]
    /// The exact payload bytes the signature covers (JSON).
    public var payloadBytes: [UInt8]
    /// The time the chain was checked at (the signedDate, now, or the fixed time configured).
    public var verificationTime: Date
}
