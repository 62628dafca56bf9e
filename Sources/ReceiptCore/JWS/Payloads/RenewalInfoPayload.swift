#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A subscription's signed renewal information (`JWSRenewalInfoDecodedPayload`), from the App
/// Store Server API or a notification's `signedRenewalInfo`. Properties are Apple's member names;
/// every member is kept in ``fields``.
public struct RenewalInfoPayload: Hashable, Sendable {
    /// The original purchase's transaction identifier.
    public var originalTransactionId: String?
    /// The product the subscription renews to.
    public var autoRenewProductId: String?
    /// The current product.
    public var productId: String?
    /// 1 when the subscription renews automatically, 0 when the user turned it off.
    public var autoRenewStatus: Int64?
    /// Whether the App Store is trying to renew an expired subscription.
    public var isInBillingRetryPeriod: Bool?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: Date?
    /// Why the subscription expired (1 cancelled … 5 other).
    public var expirationIntent: Int64?
    /// Whether the user accepted a price increase (0 not yet, 1 accepted).
    public var priceIncreaseStatus: Int64?
    /// The renewal's offer type.
    public var offerType: Int64?
    /// The renewal's offer identifier.
    public var offerIdentifier: String?
    /// When the App Store signed the payload.
    public var signedDate: Date?
    /// `Sandbox`, `Production`, `Xcode` or `LocalTesting`.
    public var environment: String?
    /// The start of the run of uninterrupted paid periods.
    public var recentSubscriptionStartDate: Date?
    /// When the next renewal takes place.
    public var renewalDate: Date?
    /// The renewal price in milliunits of ``currency``.
    public var renewalPrice: Int64?
    /// The ISO 4217 currency code.
    public var currency: String?
    /// The UUID the app set on the purchase.
    public var appAccountToken: String?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// The renewal offer's duration (ISO 8601).
    public var offerPeriod: String?
    /// The win-back offers the customer is eligible for.
    public var eligibleWinBackOfferIds: [String]?
    /// Every member of the payload object, unknown ones included.
    public var fields: [String: JSONValue]

    /// Reads a renewal-info payload object.
    /// - Throws: ``ReceiptValidationError/Code/malformedJWS`` for a documented member of the wrong type.
    public init(fields: [String: JSONValue]) throws(ReceiptValidationError) {
        let reader = PayloadFields(fields, context: "renewal info")
        originalTransactionId = try reader.string("originalTransactionId")
        autoRenewProductId = try reader.string("autoRenewProductId")
        productId = try reader.string("productId")
        autoRenewStatus = try reader.int("autoRenewStatus")
        isInBillingRetryPeriod = try reader.bool("isInBillingRetryPeriod")
        gracePeriodExpiresDate = try reader.date("gracePeriodExpiresDate")
        expirationIntent = try reader.int("expirationIntent")
        priceIncreaseStatus = try reader.int("priceIncreaseStatus")
        offerType = try reader.int("offerType")
        offerIdentifier = try reader.string("offerIdentifier")
        signedDate = try reader.date("signedDate")
        environment = try reader.string("environment")
        recentSubscriptionStartDate = try reader.date("recentSubscriptionStartDate")
        renewalDate = try reader.date("renewalDate")
        renewalPrice = try reader.int("renewalPrice")
        currency = try reader.string("currency")
        appAccountToken = try reader.string("appAccountToken")
        appTransactionId = try reader.string("appTransactionId")
        offerDiscountType = try reader.string("offerDiscountType")
        offerPeriod = try reader.string("offerPeriod")
        eligibleWinBackOfferIds = try reader.strings("eligibleWinBackOfferIds")
        self.fields = fields
    }
}
