#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiptValidator {
    /// What a ``ReceiptValidator`` trusts and checks. The defaults are the safe choice: Apple's
    /// embedded roots, Apple's chain policy, verification at the receipt's creation date, no
    /// StoreKit-testing receipts.
    public struct Configuration: Sendable {
        /// The trust anchors for App Store receipts. Default: ``AppleRootCertificates/appleRoots``,
        /// the Apple Inc. Root CA alone, embedded in the package: every App Store receipt's chain
        /// ends there, and an anchor that no receipt chains to would only widen what is trusted.
        /// Add ``AppleRootCertificates/appleRootCAG2`` or ``AppleRootCertificates/appleRootCAG3``
        /// (or use ``AppleRootCertificates/allAppleRoots``) only if Apple moves receipt signing to
        /// them. Custom anchors still get Apple's chain policy.
        public var trustAnchors: [Certificate]
        /// Accept Xcode StoreKit-testing receipts, signed by ``storeKitTestCertificate`` with the
        /// relaxed ``StoreKitTestPolicy``. Off by default; never switched on by the receipt's content.
        public var acceptsStoreKitTestReceipts: Bool
        /// The StoreKit test certificate trusted when ``acceptsStoreKitTestReceipts`` is on.
        public var storeKitTestCertificate: Certificate
        /// When the chain must be valid. Default ``VerificationTime/creationDate``.
        public var verificationTime: VerificationTime
        /// How far a receipt's creation date may lie in the future (seconds). Default 300.
        public var maximumClockSkew: Double
        /// The bundle identifier the receipt must carry, if any.
        public var expectedBundleID: String?
        /// The application version (CFBundleVersion) the receipt must carry, if any.
        public var expectedApplicationVersion: String?
        /// The device whose GUID hash the receipt must carry, if any.
        public var deviceIdentifier: DeviceIdentifier?
        /// Reject receipts whose own expiration date (attribute 21) has passed. Default on.
        public var checksReceiptExpiration: Bool
        /// The largest receipt accepted, in bytes; larger input is rejected before parsing.
        public var maximumReceiptSize: Int
        /// The clock used for "now" (creation-date skew, receipt expiration, ``VerificationTime/now``).
        public var currentDate: @Sendable () -> Date
        /// Remember certificate chains already verified in full, so that later receipts signed by
        /// the same chain need only a digest and one signature check. Default on. A cached chain is
        /// used only when the receipt's envelope matches it byte for byte and the verification time
        /// lies inside every chain certificate's validity period; anything else, and any failure,
        /// takes the full path, whose result is returned unchanged.
        public var usesVerifiedChainCache: Bool
        /// The most chains the cache holds (least recently used evicted). Default 64.
        public var verifiedChainCacheCapacity: Int
        /// The trust anchors for JWS (StoreKit 2, App Store Server API, Server Notifications V2).
        /// Default: ``AppleRootCertificates/appleRootCAG3`` alone, the root of every Apple JWS
        /// chain. A token's third `x5c` certificate must be one of them (byte for byte) or be
        /// issued by one; Apple's marker OIDs are required either way.
        public var jwsTrustAnchors: [Certificate]
        /// The environment a JWS payload must carry (`environment`; an app transaction's
        /// `receiptType`), if any: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
        public var expectedEnvironment: String?
        /// The App Apple ID a JWS payload must carry where it has one (a notification's
        /// `data.appAppleId`, an app transaction's `appAppleId`), if any.
        public var expectedAppAppleID: Int64?

        /// Creates a configuration; every parameter has the safe default.
        public init(
            trustAnchors: [Certificate] = AppleRootCertificates.appleRoots,
            acceptsStoreKitTestReceipts: Bool = false,
            storeKitTestCertificate: Certificate = AppleRootCertificates.storeKitTest,
            verificationTime: VerificationTime = .creationDate,
            maximumClockSkew: Double = 300,
            expectedBundleID: String? = nil,
            expectedApplicationVersion: String? = nil,
            deviceIdentifier: DeviceIdentifier? = nil,
            checksReceiptExpiration: Bool = true,
            maximumReceiptSize: Int = ReceiptLoader.maximumReceiptSize,
            currentDate: @escaping @Sendable () -> Date = { Date() },
            usesVerifiedChainCache: Bool = true,
            verifiedChainCacheCapacity: Int = 64,
            jwsTrustAnchors: [Certificate] = [AppleRootCertificates.appleRootCAG3],
            expectedEnvironment: String? = nil,
            expectedAppAppleID: Int64? = nil
        ) {
            self.trustAnchors = trustAnchors
            self.acceptsStoreKitTestReceipts = acceptsStoreKitTestReceipts
            self.storeKitTestCertificate = storeKitTestCertificate
            self.verificationTime = verificationTime
            self.maximumClockSkew = maximumClockSkew
            self.expectedBundleID = expectedBundleID
            self.expectedApplicationVersion = expectedApplicationVersion
            self.deviceIdentifier = deviceIdentifier
            self.checksReceiptExpiration = checksReceiptExpiration
            self.maximumReceiptSize = maximumReceiptSize
            self.currentDate = currentDate
            self.usesVerifiedChainCache = usesVerifiedChainCache
            self.verifiedChainCacheCapacity = verifiedChainCacheCapacity
            self.jwsTrustAnchors = jwsTrustAnchors
            self.expectedEnvironment = expectedEnvironment
            self.expectedAppAppleID = expectedAppAppleID
        }
    }
}
