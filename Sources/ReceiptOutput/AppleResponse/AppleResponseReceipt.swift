import ReceiptCore
import ReceiptEntitlements
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `receipt` object of a `verifyReceipt` response: the app receipt's fields in Apple's
/// formats (ids as JSON numbers, dates as ``AppleDate`` triples). Fields the receipt does not
/// hold are absent.
public struct AppleResponseReceipt: Hashable, Sendable, Codable {
    /// `receipt_type`: `Production`, `ProductionSandbox`, `Xcode`, … as the receipt says.
    public var receiptType: String?
    /// `adam_id`: the app's App Store item id (the same number as ``appItemID``).
    public var adamID: Int64?
    /// `app_item_id`.
    public var appItemID: Int64?
    /// `bundle_id`.
    public var bundleID: String?
    /// `application_version`.
    public var applicationVersion: String?
    /// `download_id`.
    public var downloadID: Int64?
    /// `version_external_identifier`.
    public var versionExternalIdentifier: Int64?
    /// `receipt_creation_date`, `_ms`, `_pst`.
    public var receiptCreationDate: AppleDate?
    /// `request_date`, `_ms`, `_pst`: when the request was answered (as Apple's is).
    public var requestDate: AppleDate?
    /// `original_purchase_date`, `_ms`, `_pst`.
    public var originalPurchaseDate: AppleDate?
    /// `original_application_version`.
    public var originalApplicationVersion: String?
    /// `expiration_date`, `_ms`, `_pst` (Volume Purchase Program and Xcode receipts).
    public var expirationDate: AppleDate?
    /// `in_app`: the in-app purchases, in the receipt's own order.
    public var inApp: [AppleResponseTransaction]

    /// A receipt object with every field absent.
    public init() { self.inApp = [] }

    /// The receipt object for a verified receipt answered at `requestDate`.
    public init(_ receipt: Receipt, requestDate: Date) {
        self.receiptType = receipt.environment?.rawValue
        self.adamID = receipt.appItemID
        self.appItemID = receipt.appItemID
        self.bundleID = receipt.bundleID
        self.applicationVersion = receipt.applicationVersion
        self.downloadID = receipt.downloadID
        self.versionExternalIdentifier = receipt.versionExternalIdentifier
        self.receiptCreationDate = receipt.creationDate.map(AppleDate.init)
        self.requestDate = AppleDate(requestDate)
        self.originalPurchaseDate = receipt.originalPurchaseDate.map(AppleDate.init)
        self.originalApplicationVersion = receipt.originalApplicationVersion
        self.expirationDate = receipt.expirationDate.map(AppleDate.init)
        self.inApp = receipt.inAppPurchases.map { AppleResponseTransaction($0) }
    }

    /// Writes Apple's field names, in Apple's order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleResponseKey.self)
        try container.encode(receiptType, as: "receipt_type")
        try container.encode(adamID, as: "adam_id")
        try container.encode(appItemID, as: "app_item_id")
        try container.encode(bundleID, as: "bundle_id")
        try container.encode(applicationVersion, as: "application_version")
        try container.encode(downloadID, as: "download_id")
        try container.encode(versionExternalIdentifier, as: "version_external_identifier")
        try container.encode(receiptCreationDate, as: "receipt_creation_date")
        try container.encode(requestDate, as: "request_date")
        try container.encode(originalPurchaseDate, as: "original_purchase_date")
        try container.encode(originalApplicationVersion, as: "original_application_version")
        try container.encode(expirationDate, as: "expiration_date")
        try container.encode(inApp, forKey: AppleResponseKey("in_app"))
    }

    /// Reads Apple's field names (unknown ones are ignored, as Apple's clients do).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AppleResponseKey.self)
        receiptType = try container.decode("receipt_type")
        adamID = try container.decode("adam_id")
        appItemID = try container.decode("app_item_id")
        bundleID = try container.decode("bundle_id")
        applicationVersion = try container.decode("application_version")
        downloadID = try container.decode("download_id")
        versionExternalIdentifier = try container.decode("version_external_identifier")
        receiptCreationDate = try container.decodeDate("receipt_creation_date")
        requestDate = try container.decodeDate("request_date")
        originalPurchaseDate = try container.decodeDate("original_purchase_date")
        originalApplicationVersion = try container.decode("original_application_version")
        expirationDate = try container.decodeDate("expiration_date")
        inApp = try container.decode("in_app") ?? []
    }
}
