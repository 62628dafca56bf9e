#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signed transaction (`JWSTransactionDecodedPayload`): what StoreKit 2's
/// `Transaction.jwsRepresentation`, the App Store Server API and a notification's
/// `signedTransactionInfo` carry. Properties are Apple's member names; dates are Apple's
/// milliseconds as `Date`. Every member is kept in ``fields``, those not modelled here too.
public struct TransactionPayload: Hashable, Sendable {
    /// The transaction's identifier.
    public var transactionId: String?
    /// The original purchase's transaction identifier.
    public var originalTransactionId: String?
    /// The subscription purchase's identifier across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product identifier.
    public var productId: String?
    /// The subscription group the product belongs to.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the user (or restored, or renewed).
    public var purchaseDate: Date?
    /// The original purchase date.
    public var originalPurchaseDate: Date?
    /// When the subscription expires or renews.
    public var expiresDate: Date?
    /// The number of consumable products purchased.
    public var quantity: Int64?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: String?
    /// The UUID the app set on the purchase.
    public var appAccountToken: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// When the App Store signed the payload.
    public var signedDate: Date?
    /// Why the App Store refunded or revoked it (0 other, 1 an issue in the app).
    public var revocationReason: Int64?
    /// When the App Store refunded or revoked it.
    public var revocationDate: Date?
    /// Whether the user upgraded to another subscription.
    public var isUpgraded: Bool?
    /// The promotional offer type (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    public var offerType: Int64?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// `Sandbox`, `Production`, `Xcode` or `LocalTesting`.
    public var environment: String?
    /// The storefront's three-letter country code.
    public var storefront: String?
    /// The storefront's identifier.
    public var storefrontId: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// The price in milliunits of ``currency``.
    public var price: Int64?
    /// The ISO 4217 currency code.
    public var currency: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// The offer's duration (ISO 8601).
    public var offerPeriod: String?
    /// The revocation type (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`).
    public var revocationType: String?
    /// The refunded share, in thousandths, for a prorated refund.
    public var revocationPercentage: Int64?
    /// Every member of the payload object, unknown ones included.
    public var fields: [String: JSONValue]

    /// Reads a transaction payload object.
    /// - Throws: ``ReceiptValidationError/Code/malformedJWS`` for a documented member of the wrong type.
    public init(fields: [String: JSONValue]) throws(ReceiptValidationError) {
        let reader = PayloadFields(fields, context: "transaction")
        transactionId = try reader.string("transactionId")
        originalTransactionId = try reader.string("originalTransactionId")
        webOrderLineItemId = try reader.string("webOrderLineItemId")
        bundleId = try reader.string("bundleId")
        productId = try reader.string("productId")
        subscriptionGroupIdentifier = try reader.string("subscriptionGroupIdentifier")
        purchaseDate = try reader.date("purchaseDate")
        originalPurchaseDate = try reader.date("originalPurchaseDate")
        expiresDate = try reader.date("expiresDate")
        quantity = try reader.int("quantity")
        type = try reader.string("type")
        appAccountToken = try reader.string("appAccountToken")
        inAppOwnershipType = try reader.string("inAppOwnershipType")
        signedDate = try reader.date("signedDate")
        revocationReason = try reader.int("revocationReason")
        revocationDate = try reader.date("revocationDate")
        isUpgraded = try reader.bool("isUpgraded")
        offerType = try reader.int("offerType")
        offerIdentifier = try reader.string("offerIdentifier")
        environment = try reader.string("environment")
        storefront = try reader.string("storefront")
        storefrontId = try reader.string("storefrontId")
        transactionReason = try reader.string("transactionReason")
        price = try reader.int("price")
        currency = try reader.string("currency")
        offerDiscountType = try reader.string("offerDiscountType")
        appTransactionId = try reader.string("appTransactionId")
        offerPeriod = try reader.string("offerPeriod")
        revocationType = try reader.string("revocationType")
        revocationPercentage = try reader.int("revocationPercentage")
        self.fields = fields
    }
}
