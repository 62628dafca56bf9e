import Foundation
import ReceiptKit

extension SubscriptionState: Encodable {
    /// Writes `GET /subscriptions/{id}`'s object: `original_transaction_id`, `product_id`,
    /// `subscription_group_identifier`, `environment`, `expires_date`, `active`,
    /// `auto_renew_status`, `auto_renew_product_id`, `is_in_billing_retry_period`,
    /// `grace_period_expires_date`, `revoked`, `last_notification` {`type`, `subtype`,
    /// `signed_date`}, `transactions` (newest first). Dates are RFC 3339 in UTC with milliseconds;
    /// a field not known is `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleKey.self)
        try container.encode(originalTransactionId, forKey: "original_transaction_id")
        try container.encode(productId, forKey: "product_id")
        try container.encode(subscriptionGroupIdentifier, forKey: "subscription_group_identifier")
        try container.encode(environment, forKey: "environment")
        try container.encode(expiresDate.map(StateDate.text), forKey: "expires_date")
        try container.encode(isActive, forKey: "active")
        try container.encode(autoRenewStatus.map { $0 == 1 }, forKey: "auto_renew_status")
        try container.encode(autoRenewProductId, forKey: "auto_renew_product_id")
        try container.encode(isInBillingRetryPeriod, forKey: "is_in_billing_retry_period")
        try container.encode(gracePeriodExpiresDate.map(StateDate.text), forKey: "grace_period_expires_date")
        try container.encode(isRevoked, forKey: "revoked")
        try container.encode(lastNotification, forKey: "last_notification")
        try container.encode(transactions, forKey: "transactions")
    }
}

extension SubscriptionState.LastNotification: Encodable {
    /// `{"type", "subtype", "signed_date"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleKey.self)
        try container.encode(type, forKey: "type")
        try container.encode(subtype, forKey: "subtype")
        try container.encode(StateDate.text(signedDate), forKey: "signed_date")
    }
}

extension StateTransaction: Encodable {
    /// A transaction: its ids, product, dates, type, offer and revocation.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AppleKey.self)
        try container.encode(facts.transactionId, forKey: "transaction_id")
        try container.encode(facts.originalTransactionId, forKey: "original_transaction_id")
        try container.encode(facts.productId, forKey: "product_id")
        try container.encode(facts.type, forKey: "type")
        try container.encode(facts.purchaseDate.map(StateDate.text), forKey: "purchase_date")
        try container.encode(facts.expiresDate.map(StateDate.text), forKey: "expires_date")
        try container.encode(facts.webOrderLineItemId, forKey: "web_order_line_item_id")
        try container.encode(facts.offerType, forKey: "offer_type")
        try container.encode(facts.inAppOwnershipType, forKey: "in_app_ownership_type")
        try container.encode(facts.environment, forKey: "environment")
        try container.encode(isRevoked, forKey: "revoked")
        try container.encode(revocationDate.map(StateDate.text), forKey: "revocation_date")
        try container.encode(facts.revocationReason, forKey: "revocation_reason")
        try container.encode(StateDate.text(facts.signedDate), forKey: "signed_date")
    }
}

/// The state's date format: RFC 3339, UTC, milliseconds (`2026-01-02T03:04:05.678Z`).
enum StateDate {
    /// The text of a date given in milliseconds since 1970, by the library's writer
    /// (``RFC3339/string(fromMilliseconds:)``). (Foundation's `ISO8601FormatStyle` truncated the
    /// `Double` seconds, so about half of all dates lost a millisecond, `.123` written `.122`.)
    static func text(_ milliseconds: Int64) -> String {
        RFC3339.string(fromMilliseconds: milliseconds)
    }
}

extension SubscriptionState {
    /// The state as JSON (members sorted, `/` unescaped).
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(self))) ?? Array(#"{"original_transaction_id":null}"#.utf8)
    }

    /// Reads `?at=`'s (and `--rebuild-state --at`'s) RFC 3339 date, `Z` or an offset, with or
    /// without a fraction, by the library's reader (``RFC3339/parse(_:)``); nil when it is not
    /// one. A field out of its range (`2026-02-30`) is refused, not rolled over into another date
    /// as Foundation's parser does.
    public static func date(rfc3339 text: String) -> Date? {
        RFC3339.parse(text)
    }
}
