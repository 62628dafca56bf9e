/// What a ``CryptoBackend`` returns after a PKCS #7 signedData verified.
public struct VerifiedSignedData: Hashable, Sendable {
    /// The exact encapsulated content bytes the signature covers (the receipt attribute SET).
    /// Parsers must read these bytes and no other copy.
    public var content: [UInt8]
    /// The chain the library built and verified, leaf (the signer) first, ending with the trust
    /// anchor that terminated it. A self-signed anchor that signed directly gives a chain of one.
    public var signerChain: [Certificate]
    /// The signer's digest algorithm.
    public var digestAlgorithm: DigestAlgorithm
    /// Whether the signer info carried signed attributes (then the signature covers them).
    public var hasSignedAttributes: Bool

    /// Creates a verification result.
    public init(content: [UInt8], signerChain: [Certificate], digestAlgorithm: DigestAlgorithm, hasSignedAttributes: Bool) {
        self.content = content
        self.signerChain = signerChain
        self.digestAlgorithm = digestAlgorithm
        self.hasSignedAttributes = hasSignedAttributes
    }
}
