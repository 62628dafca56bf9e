import Foundation
import ReceiptKit

/// One entry of `verifyReceipt`'s `pending_renewal_info`, from a stored renewal info, in Apple's
/// names and string formats: `auto_renew_status` `"1"`/`"0"`, `is_in_billing_retry_period`
/// `"1"`/`"0"`, `expiration_intent` a decimal string, dates as Apple's triple.
public struct ApplePendingRenewalInfo: Hashable, Sendable, Encodable {
    /// `auto_renew_product_id`.
    public var autoRenewProductID: String?
    /// `auto_renew_status`: `"1"` or `"0"`.
    public var autoRenewStatus: String?
    /// `expiration_intent`: `"1"`…`"5"`.
    public var expirationIntent: String?
    /// `grace_period_expires_date`, `_ms`, `_pst`.
    public var gracePeriodExpiresDate: AppleDate?
    /// `is_in_billing_retry_period`: `"1"` or `"0"`.
    public var isInBillingRetryPeriod: String?
    /// `offer_code_ref_name` (an offer code's reference name: offer type 3).
    public var offerCodeRefName: String?
    /// `original_transaction_id`.
    public var originalTransactionID: String
    /// `price_consent_status`: `"0"` or `"1"`.
    public var priceConsentStatus: String?
    /// `price_increase_status`: `"0"` or `"1"`.
    public var priceIncreaseStatus: String?
    /// `product_id`.
    public var productID: String?
    /// `promotional_offer_id` (offer type 2).
    public var promotionalOfferID: String?

    /// The entry for a renewal info.
    public init(_ info: RenewalFacts) {
        autoRenewProductID = info.autoRenewProductId
        autoRenewStatus = info.autoRenewStatus.map(String.init)
        expirationIntent = info.expirationIntent.map(String.init)
        gracePeriodExpiresDate = info.gracePeriodExpiresDate.map { AppleDate(Date(millisecondsSince1970: $0)) }
        isInBillingRetryPeriod = info.isInBillingRetryPeriod.map { $0 ? "1" : "0" }
        offerCodeRefName = info.offerType == 3 ? info.offerIdentifier : nil
        originalTransactionID = info.originalTransactionId
        priceConsentStatus = info.priceIncreaseStatus.map(String.init)
        priceIncreaseStatus = info.priceIncreaseStatus.map(String.init)
        productID = info.productId
        promotionalOfferID = info.offerType == 2 ? info.offerIdentifier : nil
    }

    /// Writes Apple's names; absent fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleKey.self)
        try container.encodeIfPresent(autoRenewProductID, forKey: "auto_renew_product_id")
        try container.encodeIfPresent(autoRenewStatus, forKey: "auto_renew_status")
        try container.encodeIfPresent(expirationIntent, forKey: "expiration_intent")
        try container.encodeAppleDate(gracePeriodExpiresDate, forKey: "grace_period_expires_date")
        try container.encodeIfPresent(isInBillingRetryPeriod, forKey: "is_in_billing_retry_period")
        try container.encodeIfPresent(offerCodeRefName, forKey: "offer_code_ref_name")
        try container.encode(originalTransactionID, forKey: "original_transaction_id")
        try container.encodeIfPresent(priceConsentStatus, forKey: "price_consent_status")
        try container.encodeIfPresent(priceIncreaseStatus, forKey: "price_increase_status")
        try container.encodeIfPresent(productID, forKey: "product_id")
        try container.encodeIfPresent(promotionalOfferID, forKey: "promotional_offer_id")
    }
}

/// A JSON member name, written as given.
struct AppleKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { self.stringValue = value }
}

extension KeyedEncodingContainer where Key == AppleKey {
    /// Writes `name`, `name_ms` and `name_pst`, as Apple writes a date; nothing when absent.
    mutating func encodeAppleDate(_ date: AppleDate?, forKey name: String) throws {
        guard let date else { return }
        try encode(date.gmt, forKey: AppleKey(stringValue: name))
        try encode(date.milliseconds, forKey: AppleKey(stringValue: name + "_ms"))
        try encode(date.pacific, forKey: AppleKey(stringValue: name + "_pst"))
    }
}

extension Date {
    /// The date `milliseconds` after 1970 (Apple's JWS dates).
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
