/// What a ``CryptoBackend`` returns after a PKCS #7 signedData verified.
///
/// The signed content is held as a range of a byte array (``contentSource`` and
/// ``contentRange``): a backend that verified the content where it lies in its input returns that
/// input and the content's range, so a large receipt's payload exists once, not twice, while it is
/// parsed. ``content`` gives the same bytes as an array of their own.
public struct VerifiedSignedData: Hashable, Sendable {
    /// The array holding the signed content at ``contentRange``: the backend's input when it
    /// verified the content in place, otherwise the content alone.
    public private(set) var contentSource: [UInt8]
    /// Where the signed content lies in ``contentSource``.
    public private(set) var contentRange: Range<Int>
    /// The chain the library built and verified, leaf (the signer) first, ending with the trust
    /// anchor that terminated it. A self-signed anchor that signed directly gives a chain of one.
    public var signerChain: [Certificate]
    /// The signer's digest algorithm.
    public var digestAlgorithm: DigestAlgorithm
    /// Whether the signer info carried signed attributes (then the signature covers them).
    public var hasSignedAttributes: Bool
    /// Where the signed content lies in the input the backend was given, when the backend verified
    /// it there (the signature, or the messageDigest, computed over those very bytes of its
    /// input); `nil` when it verified a copy. Only
    /// ``init(contentVerifiedIn:range:signerChain:digestAlgorithm:hasSignedAttributes:)`` sets it.
    ///
    /// ``ReceiptValidator`` believes a receipt it parsed from that range of its input before
    /// verification only when this says so, after checking that the input holds ``content``
    /// there (a backend whose claim does not hold fails validation with `backend_failure`, which
    /// the conformance kit's valid cases would show).
    public private(set) var inputContentRange: Range<Int>?

    /// The exact encapsulated content bytes the signature covers (the receipt attribute SET).
    /// Parsers must read these bytes and no other copy.
    ///
    /// When the backend verified the content in place, reading this property copies it out of
    /// ``contentSource`` (read it once, or read ``contentSource`` at ``contentRange``); otherwise
    /// it is the stored array itself. Setting it replaces the content.
    public var content: [UInt8] {
        get { contentRange == contentSource.indices ? contentSource : Array(contentSource[contentRange]) }
        set {
            contentSource = newValue
            contentRange = newValue.indices
            inputContentRange = nil
        }
    }

    /// Creates a verification result holding the content as an array of its own.
    public init(content: [UInt8], signerChain: [Certificate], digestAlgorithm: DigestAlgorithm, hasSignedAttributes: Bool) {
        self.contentSource = content
        self.contentRange = content.indices
        self.signerChain = signerChain
        self.digestAlgorithm = digestAlgorithm
        self.hasSignedAttributes = hasSignedAttributes
    }

    /// Creates a verification result whose content lies at `range` of `source` (typically the
    /// backend's input, when the signature was checked over the content where it lies), without
    /// copying it.
    /// - Precondition: `range` lies within `source`; an out-of-range `range` is clamped to it.
    public init(
        contentIn source: [UInt8], range: Range<Int>, signerChain: [Certificate], digestAlgorithm: DigestAlgorithm,
        hasSignedAttributes: Bool
    ) {
        self.contentSource = source
        self.contentRange = range.clamped(to: source.indices)
        self.signerChain = signerChain
        self.digestAlgorithm = digestAlgorithm
        self.hasSignedAttributes = hasSignedAttributes
    }

    /// Creates a verification result for content the backend verified where it lies in its input:
    /// `input` is the very array passed to ``CryptoBackend/verifySignedData(_:trustStore:)``
    /// and `range` the content's place in it (kept as ``inputContentRange``), nothing copied.
    /// - Precondition: `range` lies within `input`; an out-of-range `range` is clamped to it.
    public init(
        contentVerifiedIn input: [UInt8], range: Range<Int>, signerChain: [Certificate], digestAlgorithm: DigestAlgorithm,
        hasSignedAttributes: Bool
    ) {
        self.init(
            contentIn: input, range: range, signerChain: signerChain, digestAlgorithm: digestAlgorithm,
            hasSignedAttributes: hasSignedAttributes)
        self.inputContentRange = contentRange
    }

    /// Equal when the content bytes, the chain, the digest algorithm and the attribute flag are
    /// equal, wherever the content is held.
    public static func == (lhs: VerifiedSignedData, rhs: VerifiedSignedData) -> Bool {
        lhs.contentRange.count == rhs.contentRange.count
            && lhs.contentSource[lhs.contentRange].elementsEqual(rhs.contentSource[rhs.contentRange])
            && lhs.signerChain == rhs.signerChain
            && lhs.digestAlgorithm == rhs.digestAlgorithm
            && lhs.hasSignedAttributes == rhs.hasSignedAttributes
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(contentRange.count)
        contentSource.withUnsafeBufferPointer { buffer in
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[contentRange])))
        }
        hasher.combine(signerChain)
        hasher.combine(digestAlgorithm)
        hasher.combine(hasSignedAttributes)
    }
}
