/// An X.509 certificate as DER bytes, accepted by a ``CryptoBackend``.
///
/// Obtain one from ``CryptoBackend/loadCertificate(_:)`` (DER or PEM input), or from the
/// ``VerifiedSignedData/signerChain`` a backend returns. Only DER crosses the backend line, so no
/// OpenSSL or GnuTLS type ever reaches a public API.
public struct Certificate: Hashable, Sendable {
    /// The certificate's DER encoding.
    public let derBytes: [UInt8]

    /// Wraps DER bytes without checking them. Backends call this after their library decoded them.
    public init(derBytes: [UInt8]) {
        self.derBytes = derBytes
    }
}
