#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app transaction (StoreKit 2's `AppTransaction.jwsRepresentation`, a notification's
/// `appData.signedAppTransactionInfo`): the app's own purchase. Properties are Apple's member
/// names; every member is kept in ``fields``.
public struct AppTransactionPayload: Hashable, Sendable {
    /// The environment: `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    public var receiptType: String?
    /// The app's App Store identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version (CFBundleVersion) the app transaction was made for.
    public var applicationVersion: String?
    /// The App Store's identifier of that version.
    public var versionExternalIdentifier: Int64?
    /// When the App Store created the app transaction.
    public var receiptCreationDate: Date?
    /// When the user first bought the app.
    public var originalPurchaseDate: Date?
    /// The app version the user first bought.
    public var originalApplicationVersion: String?
    /// The device verification value (base64, SHA-384).
    public var deviceVerification: String?
    /// The nonce used with ``deviceVerification``.
    public var deviceVerificationNonce: String?
    /// When the user pre-ordered the app.
    public var preorderDate: Date?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// The platform of the original purchase (`iOS`, `macOS`, `tvOS`, `visionOS`).
    public var originalPlatform: String?
    /// When the App Store signed the payload.
    public var signedDate: Date?
    /// Every member of the payload object, unknown ones included.
    public var fields: [String: JSONValue]

    /// Reads an app-transaction payload object.
    /// - Throws: ``ReceiptValidationError/Code/malformedJWS`` for a documented member of the wrong type.
    public init(fields: [String: JSONValue]) throws(ReceiptValidationError) {
        let reader = PayloadFields(fields, context: "app transaction")
        receiptType = try reader.string("receiptType")
        appAppleId = try reader.int("appAppleId")
        bundleId = try reader.string("bundleId")
        applicationVersion = try reader.string("applicationVersion")
        versionExternalIdentifier = try reader.int("versionExternalIdentifier")
        receiptCreationDate = try reader.date("receiptCreationDate")
        originalPurchaseDate = try reader.date("originalPurchaseDate")
        originalApplicationVersion = try reader.string("originalApplicationVersion")
        deviceVerification = try reader.string("deviceVerification")
        deviceVerificationNonce = try reader.string("deviceVerificationNonce")
        preorderDate = try reader.date("preorderDate")
        appTransactionId = try reader.string("appTransactionId")
        originalPlatform = try reader.string("originalPlatform")
        signedDate = try reader.date("signedDate")
        self.fields = fields
    }
}
