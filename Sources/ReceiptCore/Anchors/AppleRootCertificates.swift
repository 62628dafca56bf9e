/// Apple's root certificates and the Xcode StoreKit test certificate, embedded as bytes so that no
/// resource lookup can fail at run time.
///
/// Every App Store receipt seen so far chains to ``appleIncRootCA``, the only default anchor
/// (``appleRoots``). G2 (RSA) and G3 (ECDSA) sign no receipt chain today; they are embedded so a
/// caller can add them without shipping files, not trusted by default. ``storeKitTest`` signs Xcode StoreKit-testing receipts
/// and must only ever be trusted when a caller opts in explicitly.
public enum AppleRootCertificates {
    /// Apple Inc. Root CA (`CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US`,
    /// valid 2006-04-25 to 2035-02-09, SHA-256 `b0b1730e…f024`).
    public static let appleIncRootCA = Certificate(derBytes: appleIncRootCABytes)
    /// Apple Root CA - G2 (RSA 4096, valid 2014–2039, SHA-256 `c2b9b042…a050`).
    public static let appleRootCAG2 = Certificate(derBytes: appleRootCAG2Bytes)
    /// Apple Root CA - G3 (ECDSA P-384, valid 2014–2039, SHA-256 `63343abf…9179`).
    public static let appleRootCAG3 = Certificate(derBytes: appleRootCAG3Bytes)
    /// The Xcode StoreKit testing certificate (`CN=StoreKit`, self-signed, code-signing only,
    /// valid 2020–2040, SHA-256 `ff0ba36e…64fe`). Trust it only for local StoreKit testing.
    public static let storeKitTest = Certificate(derBytes: storeKitTestBytes)

    /// The default production anchors: Apple Inc. Root CA only (the root every receipt chains to).
    public static let appleRoots: [Certificate] = [appleIncRootCA]
    /// All three Apple roots: Apple Inc. Root CA, G2 and G3.
    public static let allAppleRoots: [Certificate] = [appleIncRootCA, appleRootCAG2, appleRootCAG3]
}
