/// The bounds a JWS must keep before any cryptography runs.
public enum JWSLimits {
    /// The largest token accepted, in bytes: 256 KiB. A notification carrying two nested tokens is
    /// about 20 KiB.
    public static let maximumTokenSize = 256 * 1024
    /// The largest `x5c` certificate accepted, in DER bytes: 8 KiB (Apple's are under 1.2 KiB).
    public static let maximumCertificateSize = 8 * 1024
    /// The deepest JSON nesting accepted in a header or payload.
    public static var maximumJSONDepth: Int { JSONReader.maximumDepth }
    /// The nesting of JWS inside a JWS: a notification's `signedTransactionInfo` and
    /// `signedRenewalInfo` are one level; a JWS nested in those is refused.
    public static let maximumNesting = 1
}
